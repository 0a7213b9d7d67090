/**
 * Reading mails the SMTP catcher (smtp-server.ts) received: headers (unfolded, encoded-words
 * kept), and each part's decoded body (quoted-printable undone, UTF-8, line ends as \n), multipart or not.
 */
import type { ReceivedMail } from './smtp-server';

/** RFC 2045 quoted-printable, undone: soft breaks joined, =XX bytes decoded as UTF-8. */
export function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    if (joined[i] === '=' && /^[0-9A-F]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!));
  }
  return Buffer.from(bytes).toString('utf8');
}

function headersOf(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r\n[ \t]/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

export interface ParsedMail {
  headers: Map<string, string>;
  /** The text/plain body (the whole body of a single-part mail). */
  text: string;
  /** The text/html part, if any. */
  html?: string;
}

export function parseMail(mail: ReceivedMail | string): ParsedMail {
  const data = typeof mail === 'string' ? mail : mail.data;
  const split = data.indexOf('\r\n\r\n');
  const headers = headersOf(data.slice(0, split));
  const body = data.slice(split + 4);
  const boundary = /boundary="([^"]+)"/.exec(headers.get('content-type') ?? '')?.[1];
  const lines = (text: string) => text.replace(/\r\n/g, '\n');
  if (!boundary) return { headers, text: lines(decodeQuotedPrintable(body)) };
  const parts = body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const at = part.indexOf('\r\n\r\n');
      return { headers: headersOf(part.slice(0, at).replace(/^\r\n/, '')), body: lines(decodeQuotedPrintable(part.slice(at + 4).replace(/\r\n$/, ''))) };
    });
  const of = (type: string) => parts.find((p) => (p.headers.get('content-type') ?? '').startsWith(type))?.body;
  return { headers, text: of('text/plain') ?? '', html: of('text/html') };
}
