/**
 * Cross-site request forgery checks for every admin write. Three layers, each enough alone
 * against a plain cross-site form: the SameSite=Strict cookie, the Origin check, and a
 * per-session token the app sends in a header (a cross-site page can neither read it nor
 * set a custom header without a CORS preflight, which Folio never grants with credentials).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ForbiddenError } from '../errors';

export const CSRF_HEADER = 'x-folio-csrf';

/** The session's CSRF token: derived from the session's secret, so nothing more is stored. */
export const csrfToken = (sessionToken: string) => createHmac('sha256', sessionToken).update('folio-admin-csrf').digest('base64url');

/**
 * The request comes from a page of this same origin: its Origin header (browsers send it on
 * every POST, PUT, DELETE) names the host it was sent to; without Origin, the Fetch
 * Metadata header must not say cross-site. A non-browser client sends neither and passes
 * here; the session token still stops it without the session's cookie.
 */
export function checkOrigin(request: Request, trustProxy: boolean): void {
  const origin = request.headers.get('origin');
  if (origin) {
    const url = new URL(request.url);
    const host = (trustProxy && request.headers.get('x-forwarded-host')) || request.headers.get('host') || url.host;
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      throw new ForbiddenError('Cross-origin request refused');
    }
    if (origin === 'null' || originHost !== host) throw new ForbiddenError('Cross-origin request refused');
    return;
  }
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') throw new ForbiddenError('Cross-origin request refused');
}

/** A write with a session: same origin, and the session's token in the header. */
export function checkCsrf(request: Request, sessionToken: string, trustProxy: boolean): void {
  checkOrigin(request, trustProxy);
  const sent = Buffer.from(request.headers.get(CSRF_HEADER) ?? '');
  const expected = Buffer.from(csrfToken(sessionToken));
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) throw new ForbiddenError('Missing or invalid CSRF token');
}
