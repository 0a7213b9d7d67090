/**
 * A tiny SMTP server on node:net for tests: it speaks enough of RFC 5321 for a client to
 * deliver (EHLO/HELO, AUTH PLAIN and LOGIN, MAIL, RCPT, DATA, RSET, NOOP, QUIT) and
 * records each delivered message: envelope, credentials used and the DATA as sent
 * (dot-stuffing undone). With `tls` it offers STARTTLS, or (`implicit`) speaks TLS from
 * the first byte as on port 465; without, STARTTLS is never offered.
 */
import net from 'node:net';
import tls from 'node:tls';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The credentials the client authenticated with, if any. */
  auth?: { method: 'PLAIN' | 'LOGIN'; user: string; pass: string };
  /** The message after DATA, CRLF line ends, dot-stuffing undone, without the final ".". */
  data: string;
  /** Every command line the client sent, in order. */
  commands: string[];
  /** Whether the message travelled over TLS (implicit or after STARTTLS). */
  secure: boolean;
}

export interface SmtpServerOptions {
  /** AUTH mechanisms offered on EHLO (default PLAIN and LOGIN); empty offers none. */
  auth?: ('PLAIN' | 'LOGIN')[];
  /** Accepted credentials (default: any). */
  credentials?: { user: string; pass: string };
  /** A certificate and key (PEM): STARTTLS is offered, or with `implicit` TLS starts at once (smtps). */
  tls?: { key: string | Buffer; cert: string | Buffer; implicit?: boolean };
}

export interface TestSmtpServer {
  port: number;
  url(userinfo?: string): string;
  received: ReceivedMail[];
  /** Resolves once `count` messages have arrived, or rejects after `ms`. */
  waitFor(count: number, ms?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const mechanisms = options.auth ?? ['PLAIN', 'LOGIN'];
  const received: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const waiters: (() => void)[] = [];
  const accept = (user: string, pass: string) => !options.credentials || (options.credentials.user === user && options.credentials.pass === pass);

  const handle = (plain: net.Socket) => {
    let socket = plain;
    let secure = plain instanceof tls.TLSSocket;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(plain));
    socket.on('error', () => {});
    const reply = (line: string) => socket.write(line + '\r\n');
    let mail: ReceivedMail = { from: '', to: [], data: '', commands: [], secure };
    let mode: 'command' | 'data' | 'login-user' | 'login-pass' = 'command';
    let loginUser = '';
    let dataLines: string[] = [];
    let buffer = '';
    reply('220 test.smtp ESMTP ready');
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (mode === 'data') {
          if (line === '.') {
            mail.data = dataLines.join('\r\n');
            received.push(mail);
            mail = { from: '', to: [], auth: mail.auth, data: '', commands: [], secure };
            dataLines = [];
            mode = 'command';
            reply('250 2.0.0 queued');
            waiters.splice(0).forEach((w) => w());
          } else {
            dataLines.push(line.startsWith('.') ? line.slice(1) : line);
          }
          continue;
        }
        mail.commands.push(line);
        if (mode === 'login-user') {
          loginUser = b64(line);
          mode = 'login-pass';
          reply('334 UGFzc3dvcmQ6');
          continue;
        }
        if (mode === 'login-pass') {
          mode = 'command';
          const pass = b64(line);
          if (!accept(loginUser, pass)) reply('535 5.7.8 authentication failed');
          else (mail.auth = { method: 'LOGIN', user: loginUser, pass }), reply('235 2.7.0 authenticated');
          continue;
        }
        const [verb = '', ...rest] = line.split(' ');
        const arg = rest.join(' ');
        switch (verb.toUpperCase()) {
          case 'EHLO':
            reply('250-test.smtp greets you');
            if (options.tls && !secure) reply('250-STARTTLS');
            if (mechanisms.length) reply(`250-AUTH ${mechanisms.join(' ')}`);
            reply('250 8BITMIME');
            break;
          case 'HELO':
            reply('250 test.smtp');
            break;
          case 'AUTH': {
            const [mechanism, initial] = arg.split(' ');
            if (mechanism === 'PLAIN' && mechanisms.includes('PLAIN') && initial) {
              const [, user = '', pass = ''] = b64(initial).split('\0');
              if (!accept(user, pass)) reply('535 5.7.8 authentication failed');
              else (mail.auth = { method: 'PLAIN', user, pass }), reply('235 2.7.0 authenticated');
            } else if (mechanism === 'LOGIN' && mechanisms.includes('LOGIN')) {
              mode = 'login-user';
              reply('334 VXNlcm5hbWU6');
            } else reply('504 5.5.4 mechanism not supported');
            break;
          }
          case 'MAIL':
            mail.from = /<(.*)>/.exec(arg)?.[1] ?? '';
            reply('250 2.1.0 ok');
            break;
          case 'RCPT':
            mail.to.push(/<(.*)>/.exec(arg)?.[1] ?? '');
            reply('250 2.1.5 ok');
            break;
          case 'DATA':
            mode = 'data';
            reply('354 end data with <CR><LF>.<CR><LF>');
            break;
          case 'STARTTLS': {
            if (!options.tls || secure) {
              reply('502 5.5.2 command not recognized');
              break;
            }
            reply('220 2.0.0 ready to start TLS');
            // RFC 3207: everything before the handshake is forgotten, the client says EHLO again.
            socket.removeListener('data', onData);
            buffer = '';
            socket = new tls.TLSSocket(plain, { isServer: true, key: options.tls.key, cert: options.tls.cert });
            socket.on('error', () => {});
            socket.on('data', onData);
            secure = true;
            mail = { from: '', to: [], data: '', commands: [], secure };
            return;
          }
          case 'RSET':
            mail = { from: '', to: [], auth: mail.auth, data: '', commands: [], secure };
            reply('250 ok');
            break;
          case 'NOOP':
            reply('250 ok');
            break;
          case 'QUIT':
            reply('221 bye');
            socket.end();
            break;
          default:
            reply('502 5.5.2 command not recognized');
        }
      }
    };
    socket.on('data', onData);
  };
  const server = options.tls?.implicit ? tls.createServer({ key: options.tls.key, cert: options.tls.cert }, handle) : net.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: (userinfo) => `${options.tls?.implicit ? 'smtps' : 'smtp'}://${userinfo ? `${userinfo}@` : ''}127.0.0.1:${port}`,
    received,
    waitFor(count, ms = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${count} messages within ${ms} ms, got ${received.length}`)), ms);
        const check = () => {
          if (received.length >= count) {
            clearTimeout(timer);
            resolve(received);
          } else waiters.push(check);
        };
        check();
      });
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
