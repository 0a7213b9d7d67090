/** The pure parts of outgoing mail (src/auth/mail-format.ts): URL, addresses, headers, body, dot-stuffing. */
import { describe, expect, it } from 'bun:test';
import {
  buildMessage,
  defaultFrom,
  dotStuff,
  encodeWord,
  formatMailbox,
  mailDate,
  parseMailbox,
  parseSmtpUrl,
  quotedPrintable,
} from '../../../src/auth/mail-format';

describe('FOLIO_SMTP_URL', () => {
  it('reads host, port, credentials (percent-decoded) and STARTTLS by default on smtp://', () => {
    expect(parseSmtpUrl('smtp://me%40example.com:p%40ss%3Aword@mail.example.com:2525')).toEqual({
      host: 'mail.example.com',
      port: 2525,
      secure: false,
      starttls: 'auto',
      user: 'me@example.com',
      pass: 'p@ss:word',
      timeoutMs: 10_000,
    });
  });

  it('defaults the port to 587 on smtp:// and 465 on smtps:// (implicit TLS), and takes no credentials', () => {
    expect(parseSmtpUrl('smtp://relay.example.com')).toMatchObject({ port: 587, secure: false, user: undefined, pass: undefined });
    expect(parseSmtpUrl('smtps://relay.example.com')).toMatchObject({ port: 465, secure: true, starttls: 'auto' });
    expect(parseSmtpUrl('smtp://[::1]:25')).toMatchObject({ host: '::1', port: 25 });
  });

  it('takes tls=false, tls=required and timeout options', () => {
    expect(parseSmtpUrl('smtp://h.example:25?tls=false').starttls).toBe('off');
    expect(parseSmtpUrl('smtp://h.example:25?tls=required&timeout=2500')).toMatchObject({ starttls: 'required', timeoutMs: 2500 });
  });

  it('refuses other schemes, unknown options and bad values with a message naming the variable', () => {
    expect(() => parseSmtpUrl('http://mail.example.com')).toThrow('FOLIO_SMTP_URL must start with smtp:// or smtps://');
    expect(() => parseSmtpUrl('not a url')).toThrow('FOLIO_SMTP_URL must look like smtp://');
    expect(() => parseSmtpUrl('smtp://h.example?secure=yes')).toThrow('unknown option "secure"');
    expect(() => parseSmtpUrl('smtp://h.example?tls=maybe')).toThrow('tls must be true, false or required');
    expect(() => parseSmtpUrl('smtps://h.example?tls=false')).toThrow('smtps:// is TLS already');
    expect(() => parseSmtpUrl('smtp://h.example?timeout=-1')).toThrow('timeout must be a positive number');
  });
});

describe('FOLIO_EMAIL_FROM', () => {
  it('takes a bare address or a named one, quoted or not', () => {
    expect(parseMailbox('cms@example.com')).toEqual({ name: undefined, address: 'cms@example.com' });
    expect(parseMailbox('Folio CMS <cms@example.com>')).toEqual({ name: 'Folio CMS', address: 'cms@example.com' });
    expect(parseMailbox('"Folio, Inc." <cms@example.com>')).toEqual({ name: 'Folio, Inc.', address: 'cms@example.com' });
  });

  it('refuses anything else, line breaks (header injection) included', () => {
    for (const bad of ['not an address', 'Folio <>', 'a@b.example\r\nBcc: x@y.example', 'Folio <cms@example.com', '@example.com']) {
      expect(() => parseMailbox(bad)).toThrow('FOLIO_EMAIL_FROM must be an address like no-reply@example.com');
    }
  });

  it("defaults to no-reply at the SMTP host's domain, or at localhost for an address", () => {
    expect(defaultFrom('smtp.example.com').address).toBe('no-reply@example.com');
    expect(defaultFrom('mail.example.co.uk').address).toBe('no-reply@example.co.uk');
    expect(defaultFrom('relay.example.com').address).toBe('no-reply@relay.example.com');
    expect(defaultFrom('smtp.local').address).toBe('no-reply@smtp.local');
    expect(defaultFrom('127.0.0.1').address).toBe('no-reply@localhost');
    expect(defaultFrom('::1').address).toBe('no-reply@localhost');
  });
});

describe('headers', () => {
  it('leaves ASCII subjects alone and writes others as UTF-8 encoded-words of whole characters, at most 75 long', () => {
    expect(encodeWord('Reset password')).toBe('Reset password');
    expect(encodeWord('Réinitialiser')).toBe(`=?UTF-8?B?${Buffer.from('Réinitialiser').toString('base64')}?=`);
    const long = 'Passwort zurücksetzen für Ihr Konto bei Folio — 🔑 jetzt bitte';
    const words = encodeWord(long).split('\r\n ');
    expect(words.length).toBeGreaterThan(1);
    expect(words.every((w) => w.length <= 75 && /^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/.test(w))).toBe(true);
    expect(words.map((w) => Buffer.from(w.slice(10, -2), 'base64').toString('utf8')).join('')).toBe(long);
  });

  it('turns line breaks in a subject into spaces, so no header can be injected', () => {
    expect(encodeWord('Hi\r\nBcc: evil@example.com')).toBe('Hi Bcc: evil@example.com');
  });

  it('quotes or encodes display names as needed', () => {
    expect(formatMailbox({ address: 'a@example.com' })).toBe('a@example.com');
    expect(formatMailbox({ name: 'Folio', address: 'a@example.com' })).toBe('Folio <a@example.com>');
    expect(formatMailbox({ name: 'Folio, "CMS"', address: 'a@example.com' })).toBe('"Folio, \\"CMS\\"" <a@example.com>');
    expect(formatMailbox({ name: 'Fölio', address: 'a@example.com' })).toBe(`=?UTF-8?B?${Buffer.from('Fölio').toString('base64')}?= <a@example.com>`);
  });

  it('writes the RFC 5322 headers a mail needs, with a numeric zone in the date', () => {
    const date = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
    expect(mailDate(date)).toBe('Thu, 02 Jan 2025 03:04:05 +0000');
    const message = buildMessage({ from: { name: 'Folio', address: 'cms@example.com' }, to: 'reader@example.com', subject: 'Hi', text: 'Hello', date });
    const [head, body] = message.split('\r\n\r\n');
    expect(head!.split('\r\n').map((l) => l.split(':')[0])).toEqual([
      'From',
      'To',
      'Subject',
      'Date',
      'Message-ID',
      'MIME-Version',
      'Content-Type',
      'Content-Transfer-Encoding',
    ]);
    expect(head).toContain('Date: Thu, 02 Jan 2025 03:04:05 +0000');
    expect(head).toMatch(/Message-ID: <[0-9a-f]{32}@example\.com>/);
    expect(body).toBe('Hello');
  });

  it('refuses a recipient that is not one address', () => {
    const mail = { from: { address: 'cms@example.com' }, subject: 'Hi', text: 'x' };
    expect(() => buildMessage({ ...mail, to: 'a@example.com\r\nBcc: b@example.com' })).toThrow('not a deliverable recipient address');
    expect(() => buildMessage({ ...mail, to: 'a@example.com>, <b@example.com' })).toThrow('not a deliverable recipient address');
  });
});

describe('body', () => {
  it('writes quoted-printable: = and non-ASCII as =XX, trailing spaces encoded, lines soft-broken within 76', () => {
    expect(quotedPrintable('a=b')).toBe('a=3Db');
    expect(quotedPrintable('café')).toBe('caf=C3=A9');
    expect(quotedPrintable('end \nnext\t')).toBe('end=20\r\nnext=09');
    const long = quotedPrintable('x'.repeat(200));
    expect(long.split('\r\n').every((l) => l.length <= 76)).toBe(true);
    expect(long.replace(/=\r\n/g, '')).toBe('x'.repeat(200));
    // An =XX sequence is never split by a soft break.
    const accents = quotedPrintable('é'.repeat(60));
    expect(accents.split('=\r\n').every((l) => /^(=[0-9A-F]{2})*$/.test(l))).toBe(true);
  });

  it('dot-stuffs lines that start with a dot and ends the data with CRLF.CRLF', () => {
    expect(dotStuff('a\r\n.b\r\n..c\r\nd.')).toBe('a\r\n..b\r\n...c\r\nd.\r\n.\r\n');
    expect(dotStuff('.\nx')).toBe('..\r\nx\r\n.\r\n');
  });
});
