/**
 * Headers on every response: security headers for a JSON API and CORS for the allowed
 * origins (any by default, for local development; set FOLIO_CORS_ORIGINS in production).
 */
import { Elysia } from 'elysia';
import { errorResponse } from './respond';
import { targetStart } from './url';

/**
 * The longest request target (path and query string) Folio reads. Longer URLs answer 414
 * with the error envelope; app.ts raises Bun's own limit on the whole request head above
 * this so they reach us instead of getting Bun's bare 431.
 */
export const MAX_URL_LENGTH = 16 * 1024;

/** What a request head holds beside its target, at most, for Folio's URL check to stay below Bun's head limit. */
export const HEAD_ROOM = 8 * 1024;

/**
 * The URL limit Folio applies under a head limit of `headLimit` bytes (Bun's, past which it
 * answers a bare 431 before any of our code runs): MAX_URL_LENGTH when the head limit leaves
 * HEAD_ROOM above it, less otherwise, so a URL Folio refuses always reaches Folio and gets
 * the envelope (should Bun's limit not be raised, app.ts).
 */
export function urlLimitUnder(headLimit: number): number {
  return Math.max(1024, Math.min(MAX_URL_LENGTH, headLimit - HEAD_ROOM));
}

/** Length of the request target: the URL without scheme and authority. */
function targetLength(url: string): number {
  const path = targetStart(url);
  return path < 0 ? 0 : url.length - path;
}

const ALLOWED_HEADERS = 'Authorization, Content-Type, Strapi-Response-Format, If-None-Match, If-Modified-Since, X-Request-Id';
/** Answer headers a browser script on an allowed origin may read (beyond the CORS-safelisted ones). */
const EXPOSED_HEADERS = 'ETag, X-Request-Id, Retry-After, X-Folio-Formats-Skipped';
const ALLOWED_METHODS = 'GET, HEAD, PUT, POST, DELETE, OPTIONS';

export function securityHeaders(corsOrigins: string[], maxUrlLength = MAX_URL_LENGTH) {
  const any = corsOrigins.includes('*');
  const allowed = (origin: string | null) => !!origin && (any || corsOrigins.includes(origin));
  return new Elysia({ name: 'security' }).onRequest(({ request, set }) => {
    set.headers['x-content-type-options'] = 'nosniff';
    set.headers['x-frame-options'] = 'SAMEORIGIN';
    set.headers['referrer-policy'] = 'no-referrer';
    // Nothing Folio serves is meant to run scripts or be framed.
    set.headers['content-security-policy'] = "default-src 'none'; frame-ancestors 'none'";
    const origin = request.headers.get('origin');
    if (allowed(origin)) {
      set.headers['access-control-allow-origin'] = any ? '*' : origin!;
      set.headers['access-control-expose-headers'] = EXPOSED_HEADERS;
      if (!any) set.headers['vary'] = 'Origin';
    }
    // Checked before routing, with the headers above, so even a 404 path gets the envelope.
    if (targetLength(request.url) > maxUrlLength) {
      return errorResponse(414, 'URITooLongError', `URI Too Long (the limit is ${maxUrlLength} characters)`, { maxLength: maxUrlLength });
    }
    if (allowed(origin) && request.method === 'OPTIONS' && request.headers.get('access-control-request-method')) {
      set.headers['access-control-allow-methods'] = ALLOWED_METHODS;
      set.headers['access-control-allow-headers'] = ALLOWED_HEADERS;
      set.headers['access-control-max-age'] = '86400';
      return new Response(null, { status: 204 });
    }
  });
}
