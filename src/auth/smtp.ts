/**
 * A small SMTP client (RFC 5321) on node:net / node:tls: one connection per message,
 * EHLO, STARTTLS when offered (or TLS from the start with smtps://), AUTH PLAIN or LOGIN,
 * MAIL FROM, RCPT TO, DATA, QUIT. Written here rather than taken from a package: the
 * protocol subset is small, and it bundles into `dist/folio` with nothing to load.
 *
 * Every wait (connecting, each reply) has a limit, so a silent server cannot hold a request.
 * Errors carry the server's reply code and text, never a command we sent (AUTH carries the
 * password, DATA the message).
 */
import net from 'node:net';
import tls from 'node:tls';
import { hostname } from 'node:os';
import { buildMessage, dotStuff, type OutgoingMail, type SmtpSettings } from './mail-format';

export class SmtpError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'SmtpError';
  }
}

interface Reply {
  code: number;
  lines: string[];
}

/** Replies longer than this are not SMTP (RFC 5321 allows 512 bytes a line): the server is refused. */
const MAX_REPLY_BYTES = 64 * 1024;

/** Reads CRLF lines off a socket and groups them into replies (`250-…` continues, `250 …` ends). */
class ReplyReader {
  private buffer = '';
  private lines: string[] = [];
  private waiting?: { resolve: (r: Reply) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> };
  private failure?: Error;
  private ready: Reply[] = [];

  constructor(
    private socket: net.Socket,
    private timeoutMs: number,
  ) {
    this.attach(socket);
  }

  attach(socket: net.Socket) {
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.push(chunk));
    socket.on('error', (e) => this.fail(new SmtpError(`connection error: ${e.message}`)));
    socket.on('close', () => this.fail(new SmtpError('connection closed by the server')));
  }

  /** Stops listening to the plain socket (STARTTLS hands it to TLS). */
  detach() {
    this.socket.removeAllListeners('data');
    this.socket.removeAllListeners('error');
    this.socket.removeAllListeners('close');
  }

  private push(chunk: string) {
    this.buffer += chunk;
    if (this.buffer.length > MAX_REPLY_BYTES) return this.fail(new SmtpError('reply too long'));
    let end: number;
    while ((end = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, end).replace(/\r$/, '');
      this.buffer = this.buffer.slice(end + 1);
      const m = /^(\d{3})([ -]?)(.*)$/.exec(line);
      if (!m) return this.fail(new SmtpError(`unexpected reply "${line.slice(0, 80)}"`));
      this.lines.push(m[3]!);
      if (m[2] !== '-') {
        this.ready.push({ code: Number(m[1]), lines: this.lines });
        this.lines = [];
      }
    }
    this.deliver();
  }

  private deliver() {
    if (!this.waiting) return;
    const next = this.ready.shift();
    const { resolve, reject, timer } = this.waiting;
    if (next) {
      clearTimeout(timer);
      this.waiting = undefined;
      resolve(next);
    } else if (this.failure) {
      clearTimeout(timer);
      this.waiting = undefined;
      reject(this.failure);
    }
  }

  private fail(error: Error) {
    this.failure ??= error;
    this.deliver();
  }

  next(): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new SmtpError(`no reply within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.waiting = { resolve, reject, timer };
      this.deliver();
    });
  }
}

/** TLS options: the server name checked against the certificate, and `?ca=` in place of the system's CAs. */
const tlsOptions = (settings: SmtpSettings) => ({
  servername: net.isIP(settings.host) ? undefined : settings.host,
  ...(settings.ca !== undefined ? { ca: settings.ca } : {}),
});

/** Certificate failures say so, and how to trust a private CA; other TLS errors keep their own message. */
const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ALTNAME/;
function tlsFailure(e: Error & { code?: string }): string {
  if (!e.code || !CERTIFICATE_CODES.test(e.code)) return e.message;
  return `the server's TLS certificate is not trusted (${e.code}: ${e.message}); a private CA is trusted with ?ca=/path/ca.pem`;
}

function connect(settings: SmtpSettings): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const options = { host: settings.host, port: settings.port };
    const socket = settings.secure ? tls.connect({ ...options, ...tlsOptions(settings) }) : net.connect(options);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new SmtpError(`could not connect to ${settings.host}:${settings.port} within ${settings.timeoutMs} ms`));
    }, settings.timeoutMs);
    socket.once(settings.secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (e) => {
      clearTimeout(timer);
      reject(new SmtpError(`could not connect to ${settings.host}:${settings.port}: ${tlsFailure(e)}`));
    });
  });
}

function upgrade(socket: net.Socket, settings: SmtpSettings): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const secure = tls.connect({ socket, ...tlsOptions(settings) });
    const timer = setTimeout(() => {
      secure.destroy();
      reject(new SmtpError(`TLS handshake did not finish within ${settings.timeoutMs} ms`));
    }, settings.timeoutMs);
    secure.once('secureConnect', () => {
      clearTimeout(timer);
      secure.removeAllListeners('error');
      resolve(secure);
    });
    secure.once('error', (e) => {
      clearTimeout(timer);
      reject(new SmtpError(`TLS handshake failed: ${tlsFailure(e)}`));
    });
  });
}

/** The EHLO keywords (upper case) with their parameters: `AUTH` → `PLAIN LOGIN`. */
function extensions(reply: Reply): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of reply.lines.slice(1)) {
    const [keyword, ...rest] = line.trim().split(/\s+/);
    if (keyword) found.set(keyword.toUpperCase(), rest.join(' ').toUpperCase());
  }
  return found;
}

/** Delivers one message; resolves when the server accepted it (250 after DATA), rejects with an SmtpError otherwise. */
export async function sendMail(settings: SmtpSettings, mail: OutgoingMail): Promise<void> {
  const message = dotStuff(buildMessage(mail));
  let socket = await connect(settings);
  const reader = new ReplyReader(socket, settings.timeoutMs);
  const write = (line: string) => socket.write(line);
  /** Sends a command (or nothing) and checks the reply code; `what` names the step in errors, never the command. */
  const expect = async (what: string, command: string | null, ...codes: number[]): Promise<Reply> => {
    if (command !== null) write(command + '\r\n');
    const reply = await reader.next().catch((error: Error) => {
      throw new SmtpError(`${what}: ${error.message}`);
    });
    if (!codes.includes(reply.code)) throw new SmtpError(`${what} refused: ${reply.code} ${reply.lines.join(' ').slice(0, 200)}`, reply.code);
    return reply;
  };
  try {
    await expect('greeting', null, 220);
    const me = hostname().replace(/[^a-zA-Z0-9.-]/g, '') || 'localhost';
    let ehlo = extensions(await expect('EHLO', `EHLO ${me}`, 250));
    if (!settings.secure && settings.starttls !== 'off' && ehlo.has('STARTTLS')) {
      await expect('STARTTLS', 'STARTTLS', 220);
      reader.detach();
      socket = await upgrade(socket, settings);
      reader.attach(socket);
      ehlo = extensions(await expect('EHLO', `EHLO ${me}`, 250));
    } else if (!settings.secure && settings.starttls === 'required') {
      throw new SmtpError('the server does not offer STARTTLS and the URL says tls=required');
    }
    if (settings.user !== undefined) {
      const methods = (ehlo.get('AUTH') ?? '').split(' ');
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      if (methods.includes('PLAIN') || !methods.includes('LOGIN')) {
        await expect('AUTH PLAIN', `AUTH PLAIN ${b64(`\0${settings.user}\0${settings.pass ?? ''}`)}`, 235);
      } else {
        await expect('AUTH LOGIN', 'AUTH LOGIN', 334);
        await expect('AUTH LOGIN user name', b64(settings.user), 334);
        await expect('AUTH LOGIN password', b64(settings.pass ?? ''), 235);
      }
    }
    await expect('MAIL FROM', `MAIL FROM:<${mail.from.address}>`, 250);
    await expect('RCPT TO', `RCPT TO:<${mail.to}>`, 250, 251);
    await expect('DATA', 'DATA', 354);
    await expect('message', message.slice(0, -2), 250);
    // The message is accepted; a failing QUIT changes nothing.
    await expect('QUIT', 'QUIT', 221).catch(() => {});
  } finally {
    reader.detach();
    // A reset arriving after we let go must not become an unhandled 'error' event.
    socket.on('error', () => {});
    socket.destroy();
  }
}
