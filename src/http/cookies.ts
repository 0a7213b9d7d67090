/**
 * Cookies the content API reads and sets: users-permissions' refresh cookie (Strapi's
 * `strapi_up_refresh`, httpOnly, SameSite Lax by default) and, for providers, the short-lived
 * session cookie of the OAuth flow. Parsing is bounded: a header is read once, left to right.
 */
import type { SessionSettings } from '../auth/settings-values';
import { REFRESH_COOKIE } from '../auth/settings-values';

/** A cookie's value in a request, if any (the first one of that name). */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

/** Whether the client reached Folio over https: the URL itself, or behind a trusted proxy (FOLIO_TRUST_PROXY) the scheme it reports. */
export function overHttps(request: Request, trustProxy: boolean): boolean {
  if (new URL(request.url).protocol === 'https:') return true;
  return trustProxy && request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

export interface CookieOptions {
  path?: string;
  domain?: string;
  sameSite?: 'lax' | 'strict' | 'none';
  secure: boolean;
  httpOnly?: boolean;
  /** Milliseconds; the cookie then also carries Expires. */
  maxAge?: number;
  /** Clears the cookie (empty value, Expires in 1970). */
  clear?: boolean;
}

const SAME_SITE = { lax: 'Lax', strict: 'Strict', none: 'None' } as const;

/** A Set-Cookie header value. Values are the server's own tokens (base64url and dots), never a client's text. */
export function setCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${options.clear ? '' : value}`, `Path=${options.path ?? '/'}`];
  if (options.domain) parts.push(`Domain=${options.domain}`);
  if (options.clear) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  else if (options.maxAge !== undefined)
    parts.push(`Max-Age=${Math.floor(options.maxAge / 1000)}`, `Expires=${new Date(Date.now() + options.maxAge).toUTCString()}`);
  parts.push(`SameSite=${SAME_SITE[options.sameSite ?? 'lax']}`);
  if (options.secure || options.sameSite === 'none') parts.push('Secure');
  if (options.httpOnly !== false) parts.push('HttpOnly');
  return parts.join('; ');
}

/** The refresh cookie's name (`sessions.cookie.name`, or Strapi's `strapi_up_refresh`). */
export const refreshCookieName = (sessions: SessionSettings) => sessions.cookie.name ?? REFRESH_COOKIE;

/**
 * The refresh cookie as Strapi's buildRefreshCookieOptions makes it: httpOnly, `sessions.cookie`'s
 * path (`/`), domain, sameSite (`lax`) and maxAge; Secure as `cookie.secure` says, or when the
 * request came over https (Strapi: when NODE_ENV is production).
 */
export function refreshCookie(request: Request, sessions: SessionSettings, trustProxy: boolean, token: string | null): string {
  const { cookie } = sessions;
  return setCookie(refreshCookieName(sessions), token ?? '', {
    path: cookie.path,
    domain: cookie.domain,
    sameSite: cookie.sameSite,
    maxAge: token === null ? undefined : cookie.maxAge,
    secure: cookie.secure ?? overHttps(request, trustProxy),
    clear: token === null,
  });
}
