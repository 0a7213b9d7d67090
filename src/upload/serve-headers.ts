/**
 * Headers for a stored file served from `/uploads/<name>`. Uploads come from callers, so
 * nothing served may run in Folio's origin: media (images, audio, video) may show inline,
 * everything else is a download (`Content-Disposition: attachment`), and every file gets
 * `nosniff` and a sandboxing CSP, so even markup stored before the upload policy existed
 * (or allowed by FOLIO_UPLOAD_ALLOWED_TYPES) cannot script the origin.
 */
import { DANGEROUS_TYPES } from './policy';
import { bareType } from './sniff';

/** No fetches, no scripts, no plugins, a unique origin, and never framed. */
export const UPLOADS_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** Images, audio and video a browser only displays; SVG and any other XML or HTML flavour are not. */
export function showsInline(type: string): boolean {
  const bare = bareType(type);
  return /^(image|audio|video)\//.test(bare) && !bare.includes('xml') && !bare.includes('html') && !DANGEROUS_TYPES.has(bare);
}

/**
 * `attachment` with the name twice: an ASCII-only `filename` (anything else becomes `_`,
 * so no quote, backslash or control character can break the header) and, when the name
 * has other characters, RFC 6266's `filename*` with the UTF-8 bytes percent-encoded.
 */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9._-]/g, '_') || 'download';
  if (ascii === name) return `attachment; filename="${ascii}"`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * A minute, then revalidated with the ETag (a 304 costs no body). A URL's bytes may change:
 * replacing a file (`POST /api/upload?id=N`) keeps its URL, as Strapi does (service.ts), so
 * uploads are not `immutable`; browsers and CDNs pick up a replaced file within the minute.
 */
export const UPLOADS_CACHE_CONTROL = 'public, max-age=60, must-revalidate';

/**
 * A strong tag for a stored file without reading it: its name (which holds the random part
 * given at upload), its size, and its modification time (should anything rewrite the bytes
 * under the name, as a hand-restored file). From the stored file alone, so instances
 * sharing an uploads folder or bucket give the same tag.
 */
export function uploadEtag(name: string, size: number, modifiedMs: number): string {
  return `"${Bun.hash(name).toString(36)}-${size.toString(36)}-${Math.floor(modifiedMs).toString(36)}"`;
}

/**
 * Every header of a served file, from its stored name, the type its extension names, its
 * size and modification time (ms).
 */
export function servedFileHeaders(name: string, type: string, size: number, modifiedMs: number): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': type,
    'content-length': String(size),
    'cache-control': UPLOADS_CACHE_CONTROL,
    etag: uploadEtag(name, size, modifiedMs),
    'last-modified': new Date(modifiedMs).toUTCString(),
    'x-content-type-options': 'nosniff',
    'content-security-policy': UPLOADS_CSP,
  };
  if (!showsInline(type)) headers['content-disposition'] = attachmentDisposition(name);
  return headers;
}
