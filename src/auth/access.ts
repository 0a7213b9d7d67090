/**
 * Who is calling and what they may do. Content is private by default: anonymous callers
 * get the public role's grants, a user (JWT) its role's, an API token its type's. A
 * credential that is presented but not valid is refused with 401, never treated as
 * anonymous; a valid caller without the grant gets 403 (src/http/guard.ts checks).
 */
import type { Actor } from '../documents/write/context';
import { UnauthorizedError } from '../errors';
import type { Registry } from '../registry/types';
import { isReadAction } from './actions';
import { looksLikeJwt, type Jwt } from './jwt';
import type { Roles } from './roles';
import type { ApiTokens, TokenType } from './tokens';
import type { User, Users } from './users';
import type { UsersPermissionsSettings } from './settings';
import type { Sessions } from './sessions';
import { readAction } from '../registry/system-models';

export type Principal =
  | { kind: 'public' }
  /** `sessionId`: the refresh-token session an access token belongs to (jwtManagement 'refresh'). */
  | { kind: 'user'; user: User; roleType: string | null; sessionId?: string }
  | { kind: 'token'; tokenType: TokenType; tokenId: number; tokenName: string; actions: Set<string> };

/**
 * What Strapi's auth middleware leaves in `ctx.state` for a caller: `isAuthenticated`, `user`
 * (a signed-in user), `auth: { strategy: { name }, credentials }` — what project controllers,
 * policies and GraphQL resolvers read (`ctx.state.user`, `context.state.user`).
 */
export function authState(principal: Principal): { isAuthenticated: boolean; user?: User; auth: { strategy: { name: string }; credentials: unknown } } {
  switch (principal.kind) {
    case 'user':
      return { isAuthenticated: true, user: principal.user, auth: { strategy: { name: 'users-permissions' }, credentials: principal.user } };
    case 'token':
      return { isAuthenticated: true, auth: { strategy: { name: 'api-token' }, credentials: { id: principal.tokenId, type: principal.tokenType } } };
    case 'public':
      return { isAuthenticated: false, auth: { strategy: { name: 'public' }, credentials: null } };
  }
}

/**
 * The actor of a content-API caller's writes (history and the audit log record it): a user by
 * username, an API token by its name, an anonymous caller as `public`; `ip` is the client's address.
 */
export function actorOf(principal: Principal, ip?: string): Actor {
  const from = ip ? { ip } : {};
  switch (principal.kind) {
    case 'user':
      return { kind: 'user', id: principal.user.id, name: principal.user.username, ...from };
    case 'token':
      return { kind: 'token', id: principal.tokenId, name: principal.tokenName, ...from };
    case 'public':
      return { kind: 'public', ...from };
  }
}

export class Access {
  constructor(
    private roles: Roles,
    private tokens: ApiTokens,
    private users: Users,
    private jwt: Jwt,
    private settings: UsersPermissionsSettings,
    private sessions: Sessions,
  ) {}

  /** Reads `Authorization: Bearer <key or JWT>`; no header (or another scheme) means anonymous. */
  async authenticate(authorization: string | null | undefined): Promise<Principal> {
    if (!authorization) return { kind: 'public' };
    const parts = authorization.trim().split(/\s+/);
    if (parts.length !== 2 || parts[0]!.toLowerCase() !== 'bearer') return { kind: 'public' };
    const credential = parts[1]!;
    const token = await this.tokens.verify(credential);
    if (token === 'expired') throw new UnauthorizedError('Token expired');
    if (token) return { kind: 'token', tokenType: token.type, tokenId: token.id, tokenName: token.name, actions: new Set(token.actions ?? []) };
    if (looksLikeJwt(credential)) {
      // In refresh mode only the session manager's access tokens open anything (Strapi's jwt.verify), in legacy mode only plain JWTs.
      const claims = this.settings.plugin.jwtManagement === 'refresh' ? await this.sessions.verifyAccess(credential) : await this.jwt.verify(credential);
      if (claims === undefined) throw new UnauthorizedError();
      const id = 'userId' in claims ? claims.userId : claims.id;
      const found = await this.users.principal(id);
      // Another version: issued before the password was last changed or reset (refresh mode: the session ended instead).
      if (!found || found.user.blocked || ('version' in claims && found.tokenVersion !== claims.version)) throw new UnauthorizedError('Invalid credentials');
      // An account not confirmed yet, while confirmation is on (its JWT came from a reset, or before confirmation was turned on).
      if (!found.user.confirmed && (await this.settings.advanced()).email_confirmation) throw new UnauthorizedError('Invalid credentials');
      return { kind: 'user', user: found.user, roleType: found.roleType, ...('sessionId' in claims ? { sessionId: claims.sessionId } : {}) };
    }
    throw new UnauthorizedError();
  }

  /**
   * What the caller may do, looked up once per request: the HTTP guard checks the route's
   * action (403 without it) and, for populate, filters and sort, the readable types against
   * the same answer.
   */
  async grants(principal: Principal): Promise<(action: string) => boolean> {
    switch (principal.kind) {
      case 'token':
        if (principal.tokenType === 'full-access') return () => true;
        if (principal.tokenType === 'read-only') return isReadAction;
        return (action) => principal.actions.has(action);
      case 'user':
      case 'public': {
        const role = principal.kind === 'public' ? 'public' : principal.roleType;
        const granted = !role ? new Set<string>() : await this.roles.actions(role);
        return (action) => granted.has(action);
      }
    }
  }
}

/**
 * Everything the caller's grants come from, as a short key: the public role, a user's role
 * (not the user: a user moved to another role gets that role's grants on the next request), or
 * an API token (its type and actions). Read plans and kept answers are keyed by it, so two
 * callers share them exactly when they hold the same grants; a change to a role's or a
 * token's grants moves the settings version, which those caches also watch.
 */
export const grantsKey = (principal: Principal): string =>
  principal.kind === 'public' ? '-' : principal.kind === 'user' ? `r${principal.roleType ?? ''}` : `t${principal.tokenId}`;

/** Content types whose `find` the caller holds (`can`, from grants): populate, filters and sort may only go through these. */
export function readableBy(can: (action: string) => boolean, registry: Registry): Set<string> {
  return new Set(
    [...registry.contentTypes, ...registry.systemTypes]
      .map((ct) => ct.uid)
      .filter((uid) => {
        const action = readAction(uid);
        return action !== undefined && can(action);
      }),
  );
}
