/**
 * The type each multipart part declares. Bun's `formData()` drops a part's Content-Type
 * and types the File from its name's extension instead (oven-sh/bun#39884), but the
 * declared type is one of the witnesses the upload policy weighs, so it is read from the
 * raw body here: only the part headers, found by the boundary, in body order.
 */

/** Longest header block of one part that is read; a longer one is not a browser's. */
const MAX_PART_HEADERS = 16 * 1024;

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

/** The boundary of a `multipart/form-data` Content-Type (RFC 2046: 1 to 70 characters), or undefined. */
export function multipartBoundary(contentType: string): string | undefined {
  if (contentType.length > 1024) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s"]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

function headerParts(block: string): { name?: string; type: string } {
  let name: string | undefined;
  let type = '';
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'content-type') type = value;
    if (key === 'content-disposition') {
      // `name`, not the `name` inside `filename`: it follows a `;`.
      const match = /;[ \t]*name=(?:"([^"]*)"|([^;\s]*))/i.exec(value);
      if (match) name = match[1] ?? match[2];
    }
  }
  return { name, type };
}

/**
 * The Content-Type of every part named `field`, in body order ('' for a part that declares
 * none); undefined when the body has no usable boundary. Linear: each search starts where
 * the previous one ended.
 */
export function declaredPartTypes(body: Uint8Array, contentType: string, field: string): string[] | undefined {
  const boundary = multipartBoundary(contentType);
  if (!boundary) return undefined;
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`--${boundary}`);
  const nextDelimiter = Buffer.concat([CRLF, delimiter]);
  const types: string[] = [];
  let at = buf.indexOf(delimiter);
  while (at >= 0) {
    const after = at + delimiter.length;
    if (buf[after] === 0x2d && buf[after + 1] === 0x2d) break; // the closing delimiter
    const lineEnd = buf.indexOf(CRLF, after);
    if (lineEnd < 0) break;
    const start = lineEnd + 2;
    const end = buf.indexOf(HEADERS_END, start);
    if (end < 0 || end - start > MAX_PART_HEADERS) return undefined;
    const { name, type } = headerParts(buf.toString('utf8', start, end));
    if (name === field) types.push(type);
    const next = buf.indexOf(nextDelimiter, end + HEADERS_END.length);
    at = next < 0 ? -1 : next + 2;
  }
  return types;
}
