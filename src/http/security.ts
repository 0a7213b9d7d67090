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

/** Length of the request target: the URL without scheme and authority. */
function targetLength(url: string): number {
  const path = targetStart(url);
  return path < 0 ? 0 : url.length - path;
}

const ALLOWED_HEADERS = 'Authorization, Content-Type, Strapi-Response-Format, If-None-Match, If-Modified-Since, X-Request-Id';
/** Answer headers a browser script on an allowed origin may read (beyond the CORS-safelisted ones). */
const EXPOSED_HEADERS = 'ETag, X-Request-Id, Retry-After, X-Folio-Formats-Skipped';
const ALLOWED_METHODS = 'GET, HEAD, PUT, POST, DELETE, OPTIONS';

export function securityHeaders(corsOrigins: string[]) {
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
    if (targetLength(request.url) > MAX_URL_LENGTH) {
      return errorResponse(414, 'URITooLongError', `URI Too Long (the limit is ${MAX_URL_LENGTH} characters)`, { maxLength: MAX_URL_LENGTH });
    }
    if (allowed(origin) && request.method === 'OPTIONS' && request.headers.get('access-control-request-method')) {
      set.headers['access-control-allow-methods'] = ALLOWED_METHODS;
      set.headers['access-control-allow-headers'] = ALLOWED_HEADERS;
      set.headers['access-control-max-age'] = '86400';
      return new Response(null, { status: 204 });
    }
  });
}
