/**
 * Headers on every response: security headers for a JSON API and CORS for the allowed
 * origins (any by default, for local development; set FOLIO_CORS_ORIGINS in production).
 */
import { Elysia } from 'elysia';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Strapi-Response-Format';
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
    if (!allowed(origin)) return;
    set.headers['access-control-allow-origin'] = any ? '*' : origin!;
    if (!any) set.headers['vary'] = 'Origin';
    if (request.method === 'OPTIONS' && request.headers.get('access-control-request-method')) {
      set.headers['access-control-allow-methods'] = ALLOWED_METHODS;
      set.headers['access-control-allow-headers'] = ALLOWED_HEADERS;
      set.headers['access-control-max-age'] = '86400';
      return new Response(null, { status: 204 });
    }
  });
}
