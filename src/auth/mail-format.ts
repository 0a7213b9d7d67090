/**
 * The pure parts of sending mail: the SMTP URL, mailbox addresses, an RFC 5322 message
 * (headers, encoded-words, quoted-printable body) and SMTP dot-stuffing. No I/O here, so
 * each piece is unit-tested on its own (test/unit/email/).
 */
import { randomBytes } from 'node:crypto';
import { isEmail } from '../text';

export interface SmtpSettings {
  host: string;
  port: number;
  /** `smtps://`: TLS from the first byte (implicit TLS, port 465 by default). */
  secure: boolean;
  /**
   * On `smtp://`: `auto` upgrades with STARTTLS when the server offers it (the default),
   * `required` refuses to go on without it, `off` (`?tls=false`) never upgrades.
   */
  starttls: 'auto' | 'required' | 'off';
  user?: string;
  pass?: string;
  /** Limit for connecting and for each reply of the server (`?timeout=MS`, default 10 s). */
  timeoutMs: number;
  /**
   * `?ca=/path/ca.pem`: the certificate authorities (PEM) trusted for this server instead of
   * the system's, for a private CA or a self-signed server. Verification itself is never off.
   */
  caFile?: string;
  /** The PEM text of caFile, read once when the sender is made (email.ts). */
  ca?: string;
}

const TLS_MODES: Record<string, SmtpSettings['starttls']> = { true: 'auto', auto: 'auto', required: 'required', false: 'off' };

/** Reads `smtp://user:pass@host:port?tls=false|required&timeout=MS&ca=FILE` or `smtps://…`; throws a readable error otherwise. */
export function parseSmtpUrl(raw: string): SmtpSettings {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('FOLIO_SMTP_URL must look like smtp://user:pass@host:587 or smtps://user:pass@host:465');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error(`FOLIO_SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}//"`);
  if (!url.hostname) throw new Error('FOLIO_SMTP_URL names no host');
  const secure = url.protocol === 'smtps:';
  for (const key of url.searchParams.keys()) {
    if (key !== 'tls' && key !== 'timeout' && key !== 'ca') throw new Error(`FOLIO_SMTP_URL has an unknown option "${key}" (tls, timeout, ca)`);
  }
  const tls = url.searchParams.get('tls') ?? 'auto';
  const starttls = TLS_MODES[tls];
  if (!starttls) throw new Error(`FOLIO_SMTP_URL option tls must be true, false or required, got "${tls}"`);
  if (secure && starttls !== 'auto') throw new Error('FOLIO_SMTP_URL: smtps:// is TLS already; tls= applies to smtp:// only');
  const timeout = url.searchParams.get('timeout');
  const timeoutMs = timeout === null ? 10_000 : Number(timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new Error(`FOLIO_SMTP_URL option timeout must be a positive number of milliseconds, got "${timeout}"`);
  const caFile = url.searchParams.get('ca') ?? undefined;
  if (caFile === '') throw new Error('FOLIO_SMTP_URL option ca must name a PEM file');
  if (caFile !== undefined && !secure && starttls === 'off') throw new Error('FOLIO_SMTP_URL: ca= applies to TLS, which tls=false turns off');
  const decode = (s: string) => (s ? decodeURIComponent(s) : undefined);
  return {
    // URL keeps IPv6 literals bracketed; net.connect wants them bare.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    starttls,
    user: decode(url.username),
    pass: decode(url.password),
    timeoutMs,
    ...(caFile !== undefined ? { caFile } : {}),
  };
}

/**
 * FOLIO_RESET_PASSWORD_URL, users-permissions' "Reset password page" (`email_reset_password`):
 * an absolute http(s) URL without credentials; throws a readable error otherwise.
 */
export function parseResetPasswordUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`FOLIO_RESET_PASSWORD_URL must be an http(s) URL like https://example.com/reset-password, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`FOLIO_RESET_PASSWORD_URL must start with http:// or https://, got "${url.protocol}//"`);
  if (url.username || url.password) throw new Error('FOLIO_RESET_PASSWORD_URL must not carry credentials');
  return url.href;
}

/**
 * The reset page's link for a code, as Strapi builds it (`<page>?code=<code>`); a query
 * string the page already has is kept, and a `code` in it replaced.
 */
export function resetLink(page: string, code: string): string {
  const url = new URL(page);
  url.searchParams.set('code', code);
  return url.href;
}

/** The password-reset mail's text: a link to the reset page when one is configured, the code in every case. */
export function resetPasswordText(code: string, page?: string): string {
  if (page) {
    return `We heard that you lost your password. Sorry about that!\n\nBut don't worry! You can use the following link to reset your password:\n\n${resetLink(page, code)}\n\nOr use this code: ${code}\n\nThanks.`;
  }
  return `We heard that you lost your password. Use this code to reset it:\n\n${code}\n\nPOST /api/auth/reset-password { "code", "password", "passwordConfirmation" }`;
}

export interface Mailbox {
  name?: string;
  address: string;
}

/** `no-reply@example.com` or `Name <no-reply@example.com>`; throws a readable error otherwise. */
export function parseMailbox(raw: string, what = 'FOLIO_EMAIL_FROM'): Mailbox {
  const value = raw.trim();
  const angle = /^(.*?)\s*<([^<>]*)>$/.exec(value);
  const address = angle ? angle[2]!.trim() : value;
  let name = angle ? angle[1]!.trim().replace(/^"(.*)"$/, '$1') : undefined;
  if (/[\r\n\0]/.test(value) || !isEmail(address)) {
    throw new Error(`${what} must be an address like no-reply@example.com or "Name <no-reply@example.com>", got "${raw}"`);
  }
  if (name === '') name = undefined;
  return { name, address };
}

/** The default sender: `no-reply@` the SMTP host's domain (`smtp.` or `mail.` dropped), or `no-reply@localhost`. */
export function defaultFrom(smtpHost: string): Mailbox {
  const named = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(smtpHost) && !/^[\d.]+$/.test(smtpHost);
  if (!named) return { address: 'no-reply@localhost' };
  const parent = smtpHost.replace(/^(smtp|mail|smtp-relay)\./i, '');
  return { address: `no-reply@${parent.includes('.') ? parent : smtpHost}` };
}

const isAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);

/**
 * RFC 2047 encoded-words (`=?UTF-8?B?…?=`), each at most 75 characters and holding whole
 * characters (45 bytes of UTF-8 at most), folded onto continuation lines. Plain ASCII stays.
 */
export function encodeWord(text: string): string {
  const clean = text.replace(/[\r\n]+/g, ' ');
  if (isAscii(clean)) return clean;
  const words: string[] = [];
  let chunk = '';
  for (const char of clean) {
    if (Buffer.byteLength(chunk + char) > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w).toString('base64')}?=`).join('\r\n ');
}

/** A mailbox as a header value: the name encoded or quoted when it needs to be. */
export function formatMailbox({ name, address }: Mailbox): string {
  if (!name) return address;
  const display = isAscii(name) ? (/^[\w !#$%&'*+\-/=?^`{|}~]*$/.test(name) ? name : `"${name.replace(/["\\]/g, '\\$&')}"`) : encodeWord(name);
  return `${display} <${address}>`;
}

/** Quoted-printable (RFC 2045 §6.7) of UTF-8 text: CRLF line ends, soft breaks keep lines within 76 characters. */
export function quotedPrintable(text: string): string {
  const out: string[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const bytes = Buffer.from(line);
    let current = '';
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      const last = i === bytes.length - 1;
      // Trailing spaces and tabs would be stripped in transit: encoded at the end of a line.
      const literal = (b >= 33 && b <= 126 && b !== 61) || ((b === 32 || b === 9) && !last);
      const piece = literal ? String.fromCharCode(b) : `=${b.toString(16).toUpperCase().padStart(2, '0')}`;
      if (current.length + piece.length > 75) {
        out.push(current + '=');
        current = '';
      }
      current += piece;
    }
    out.push(current);
  }
  return out.join('\r\n');
}

/** RFC 5322 date-time with a numeric zone (UTC): `Mon, 02 Jan 2006 15:04:05 +0000`. */
export function mailDate(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

export interface OutgoingMail {
  from: Mailbox;
  to: string;
  subject: string;
  text: string;
  /** An HTML version: the message becomes multipart/alternative (the text first, as clients expect). */
  html?: string;
  /** Where replies go (a template's `response_email`). */
  replyTo?: string;
  date?: Date;
}

const deliverable = (address: string) => !/[\r\n<>\0]/.test(address) && isEmail(address);

/** The message as sent after DATA (before dot-stuffing): headers, a blank line, the quoted-printable body (or its parts). */
export function buildMessage(mail: OutgoingMail): string {
  if (!deliverable(mail.to)) throw new Error('not a deliverable recipient address');
  const domain = mail.from.address.slice(mail.from.address.lastIndexOf('@') + 1);
  const headers = [
    `From: ${formatMailbox(mail.from)}`,
    `To: ${mail.to}`,
    ...(mail.replyTo && deliverable(mail.replyTo) ? [`Reply-To: ${mail.replyTo}`] : []),
    `Subject: ${encodeWord(mail.subject)}`,
    `Date: ${mailDate(mail.date ?? new Date())}`,
    `Message-ID: <${randomBytes(16).toString('hex')}@${domain}>`,
    'MIME-Version: 1.0',
  ];
  const part = (type: string, body: string) =>
    `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${quotedPrintable(body)}`;
  if (mail.html === undefined) return `${headers.join('\r\n')}\r\n${part('text/plain', mail.text)}`;
  // Random, so no part holds it but by a chance of 2^-96.
  const boundary = `--folio-${randomBytes(12).toString('hex')}`;
  return [
    `${headers.join('\r\n')}\r\nContent-Type: multipart/alternative; boundary="${boundary}"\r\n`,
    `--${boundary}\r\n${part('text/plain', mail.text)}`,
    `--${boundary}\r\n${part('text/html', mail.html)}`,
    `--${boundary}--`,
  ].join('\r\n');
}

/** SMTP transparency (RFC 5321 §4.5.2): a line starting with "." gets another; then the terminating "<CRLF>.<CRLF>". */
export function dotStuff(message: string): string {
  const body = message.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
  return `${body}${body.endsWith('\r\n') ? '' : '\r\n'}.\r\n`;
}
