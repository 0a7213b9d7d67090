/**
 * HTTP validators (RFC 9110 §8.8, §13): entity tags of the content API's JSON answers, and
 * the conditional checks (`If-None-Match`, `If-Modified-Since`) that turn a repeated GET into
 * a 304 with no body. Used by app.ts for /api and by the /uploads route.
 */
import { bytesOf } from './respond';
import { targetStart } from './url';

/**
 * A strong tag for exact bytes: a 64-bit wyhash (Bun.hash, a few GB/s, so the cost per
 * answer stays negligible) and the length. Computed from the UTF-8 bytes sent, never from
 * a JS string, so two instances behind one load balancer give one body the same tag.
 */
export function etagOf(bytes: Uint8Array): string {
  return `"${Bun.hash(bytes).toString(36)}-${bytes.length.toString(36)}"`;
}

/** The opaque part of a tag, `W/` dropped: RFC 9110's weak comparison, the one If-None-Match uses. */
const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * Whether `If-None-Match` matches the current tag: `*` matches any current representation,
 * otherwise one of a comma-separated list of (possibly weak) tags, compared weakly. Text
 * that is not a quoted tag matches nothing (at worst the full answer is sent).
 */
export function ifNoneMatchMatches(header: string | null, current: string): boolean {
  if (header === null) return false;
  const value = header.trim();
  if (value === '*') return true;
  const want = opaque(current);
  // An entity-tag is an optional W/ and a quoted string without quotes inside.
  for (const m of value.matchAll(/\s*(W\/)?("[^"]*")\s*(?:,|$)/g)) if (m[2] === want) return true;
  return false;
}

/**
 * Whether `If-Modified-Since` says the client's copy is current: an HTTP date at or after
 * the modification time (compared in whole seconds, the precision of the date). An invalid
 * date is ignored (RFC 9110 §13.1.3), and so is one in the future of the server's clock.
 */
export function notModifiedSince(header: string | null, modifiedMs: number, nowMs = Date.now()): boolean {
  if (header === null) return false;
  const since = Date.parse(header);
  if (Number.isNaN(since) || since > nowMs) return false;
  return Math.floor(modifiedMs / 1000) <= Math.floor(since / 1000);
}

/**
 * RFC 9110 §13.2.2's order for a GET or HEAD: If-None-Match decides when present, and only
 * when it is absent does If-Modified-Since (for a resource that has a modification time).
 */
export function isNotModified(headers: Headers, etag: string, modifiedMs?: number): boolean {
  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch !== null) return ifNoneMatchMatches(ifNoneMatch, etag);
  return modifiedMs !== undefined && notModifiedSince(headers.get('if-modified-since'), modifiedMs);
}

/** Adds names to a Vary value without repeating one already there. */
export function addVary(existing: string | null | undefined, ...names: string[]): string {
  const parts = existing
    ? existing
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
    : [];
  const seen = new Set(parts.map((p) => p.toLowerCase()));
  for (const name of names) if (!seen.has(name.toLowerCase())) parts.push(name), seen.add(name.toLowerCase());
  return parts.join(', ');
}

/**
 * The headers a 304 repeats from the 200 it stands for (RFC 9110 §15.4.5): validators and
 * caching ones. No body and no Content-Type or Content-Length.
 */
export function notModified(headers: Record<string, string>): Response {
  const kept: Record<string, string> = {};
  for (const name of ['etag', 'last-modified', 'cache-control', 'vary', 'expires', 'content-location']) {
    if (headers[name] !== undefined) kept[name] = headers[name];
  }
  return new Response(null, { status: 304, headers: kept });
}

/** Whether a URL's path is under /api/ (scheme and authority skipped). */
function underApi(url: string): boolean {
  const path = targetStart(url);
  return path >= 0 && url.startsWith('/api/', path);
}

/**
 * The content API's caching, applied where a handler's answer is final (app.ts): a 200
 * JSON answer to a GET or HEAD of /api gets a strong ETag of its exact bytes, and a request
 * whose If-None-Match holds it gets a 304 instead. Error envelopes, other statuses, streams
 * and writes are left alone. The answer depends on who asks (Authorization) and on the
 * response format asked for (Strapi-Response-Format: v4), so both go into Vary; with
 * Authorization it is `private` (no shared cache keeps it), and `no-cache` always, so a
 * client revalidates with its tag instead of trusting a stale copy.
 * Returns the 304 to answer instead, or undefined when `response` stays (headers added).
 */
export function tagContentResponse(request: Request, response: unknown, varyBefore: unknown): Response | undefined {
  if (!(response instanceof Response) || response.status !== 200) return undefined;
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const bytes = bytesOf(response);
  if (!bytes || !underApi(request.url)) return undefined;
  const headers: Record<string, string> = {
    etag: etagOf(bytes),
    // The answer's own Vary replaces the one set before routing (CORS: Origin), so both are kept.
    vary: addVary(response.headers.get('vary') ?? (typeof varyBefore === 'string' ? varyBefore : undefined), 'Authorization', 'Strapi-Response-Format'),
    'cache-control': response.headers.get('cache-control') ?? (request.headers.has('authorization') ? 'private, no-cache' : 'no-cache'),
  };
  if (ifNoneMatchMatches(request.headers.get('if-none-match'), headers.etag!)) return notModified(headers);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return undefined;
}
