/**
 * Who is calling and what they may do. Content is private by default: anonymous callers
 * get the public role's grants, a user (JWT) its role's, an API token its type's. A
 * credential that is presented but not valid is refused with 401, never treated as
 * anonymous; a valid caller without the grant gets 403.
 */
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { Registry } from '../registry/types';
import { isReadAction } from './actions';
import { looksLikeJwt, type Jwt } from './jwt';
import type { Roles } from './roles';
import type { ApiTokens, TokenType } from './tokens';
import type { User, Users } from './users';

export type Principal =
  | { kind: 'public' }
  | { kind: 'user'; user: User; roleType: string | null }
  | { kind: 'token'; tokenType: TokenType; tokenId: number; actions: Set<string> };

export class Access {
  constructor(
    private roles: Roles,
    private tokens: ApiTokens,
    private users: Users,
    private jwt: Jwt,
  ) {}

  /** Reads `Authorization: Bearer <key or JWT>`; no header (or another scheme) means anonymous. */
  async authenticate(authorization: string | null | undefined): Promise<Principal> {
    if (!authorization) return { kind: 'public' };
    const parts = authorization.trim().split(/\s+/);
    if (parts.length !== 2 || parts[0]!.toLowerCase() !== 'bearer') return { kind: 'public' };
    const credential = parts[1]!;
    const token = await this.tokens.verify(credential);
    if (token === 'expired') throw new UnauthorizedError('Token expired');
    if (token) return { kind: 'token', tokenType: token.type, tokenId: token.id, actions: new Set(token.actions ?? []) };
    if (looksLikeJwt(credential)) {
      const claims = await this.jwt.verify(credential);
      if (claims === undefined) throw new UnauthorizedError();
      const found = await this.users.principal(claims.id);
      // Another version: issued before the password was last changed or reset.
      if (!found || found.user.blocked || found.tokenVersion !== claims.version) throw new UnauthorizedError('Invalid credentials');
      return { kind: 'user', user: found.user, roleType: found.roleType };
    }
    throw new UnauthorizedError();
  }

  async can(principal: Principal, action: string): Promise<boolean> {
    switch (principal.kind) {
      case 'token':
        if (principal.tokenType === 'full-access') return true;
        if (principal.tokenType === 'read-only') return isReadAction(action);
        return principal.actions.has(action);
      case 'user':
        return principal.roleType !== null && this.roles.allows(principal.roleType, action);
      case 'public':
        return this.roles.allows('public', action);
    }
  }

  /** Content types whose `find` the caller holds: populate, filters and sort may only go through these. */
  async readableTypes(principal: Principal, registry: Registry): Promise<Set<string>> {
    const all = registry.contentTypes.map((ct) => ct.uid);
    if (principal.kind === 'token') return new Set(all.filter((uid) => principal.tokenType !== 'custom' || principal.actions.has(`${uid}.find`)));
    // One query for the role's grants rather than one per content type.
    const role = principal.kind === 'public' ? 'public' : principal.roleType;
    const granted = role ? await this.roles.actions(role) : new Set<string>();
    return new Set(all.filter((uid) => granted.has(`${uid}.find`)));
  }

  async authorize(principal: Principal, action: string): Promise<void> {
    if (!(await this.can(principal, action))) throw new ForbiddenError();
  }
}
