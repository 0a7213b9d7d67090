/**
 * Who is calling and what they may do. Content is private by default: anonymous callers
 * get the public role's grants; an API token gets its type's rights; anything presented
 * that is not a valid credential is refused with 401 rather than treated as anonymous.
 */
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { Registry } from '../registry/types';
import { isReadAction } from './actions';
import type { Roles } from './roles';
import type { ApiTokens, TokenType } from './tokens';

export type Principal = { kind: 'public' } | { kind: 'token'; tokenType: TokenType; tokenId: number };

export class Access {
  constructor(
    private roles: Roles,
    private tokens: ApiTokens,
  ) {}

  /** Reads `Authorization: Bearer <key>`; no header (or another scheme) means anonymous. */
  async authenticate(authorization: string | null | undefined): Promise<Principal> {
    if (!authorization) return { kind: 'public' };
    const parts = authorization.trim().split(/\s+/);
    if (parts.length !== 2 || parts[0]!.toLowerCase() !== 'bearer') return { kind: 'public' };
    const token = await this.tokens.verify(parts[1]!);
    if (token === 'expired') throw new UnauthorizedError('Token expired');
    if (!token) throw new UnauthorizedError();
    return { kind: 'token', tokenType: token.type, tokenId: token.id };
  }

  async can(principal: Principal, action: string): Promise<boolean> {
    if (principal.kind === 'token') return principal.tokenType === 'full-access' || isReadAction(action);
    return this.roles.allows('public', action);
  }

  /** Content types whose `find` the caller holds: populate, filters and sort may only go through these. */
  async readableTypes(principal: Principal, registry: Registry): Promise<Set<string>> {
    const all = registry.contentTypes.map((ct) => ct.uid);
    if (principal.kind === 'token') return new Set(all);
    const granted = new Set((await this.roles.permissions('public')).map((p) => p.action));
    return new Set(all.filter((uid) => granted.has(`${uid}.find`)));
  }

  async authorize(principal: Principal, action: string): Promise<void> {
    if (!(await this.can(principal, action))) throw new ForbiddenError();
  }
}
