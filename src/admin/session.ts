/**
 * The admin session cookie: httpOnly (no script reads it), SameSite=Strict (no other site's
 * page sends it), Path=/admin (the content API never receives it), Secure over https.
 */
import type { AdminAccounts, AdminUser } from './accounts';
import { SESSION_LIFETIME_MS } from './accounts';
import { UnauthorizedError } from '../errors';
import type { Actor } from '../documents/write/context';
import type { PeerSource } from '../http/guard';
import { clientAddress } from '../http/rate-limit';

export const SESSION_COOKIE = 'folio_admin';

/** The session cookie's value in a request, if any. */
export function sessionToken(request: Request): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * Whether the browser reached Folio over https: the URL itself, or behind a trusted proxy
 * (FOLIO_TRUST_PROXY) the scheme it reports.
 */
export function overHttps(request: Request, trustProxy: boolean): boolean {
  if (new URL(request.url).protocol === 'https:') return true;
  return trustProxy && request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

export function sessionCookie(token: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=${SESSION_LIFETIME_MS / 1000}${secure ? '; Secure' : ''}`;
}

export function clearedCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
}

/** The request's admin, or 401. Only the cookie counts: an Authorization header is never read here. */
export async function requireAdmin(accounts: AdminAccounts, request: Request): Promise<{ user: AdminUser; token: string }> {
  const token = sessionToken(request);
  const user = await accounts.sessionUser(token);
  if (!user || !token) throw new UnauthorizedError('Log in to the admin first');
  return { user, token };
}

/** An admin as the actor of what they change (history and the audit log): by email, with the client's address. */
export function adminActor(user: AdminUser, request: Request, server: PeerSource, trustProxy: boolean): Actor {
  return { kind: 'admin', id: user.id, name: user.email, ip: clientAddress(request, server?.requestIP(request)?.address, trustProxy) };
}
