/**
 * API tokens. The access key is shown once at creation; only its HMAC-SHA512 with the
 * installation's salt is stored, so a leaked database does not leak usable keys.
 */
import { createDocumentId } from '../documents/document-id';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/database';
import {
  deleteTokenByName,
  findTokenByKeyHash,
  insertToken,
  insertTokenAction,
  listTokens,
  setTokenKeyHash,
  setTokenLastUsed,
  tokenActions,
  tokenNameExists,
} from '../db/store/api-tokens';
import { BY_SYSTEM, NO_AUDIT, type AuditTrail } from '../audit-trail';
import type { Actor } from '../documents/write/context';

export type TokenType = 'read-only' | 'full-access' | 'custom';
export const TOKEN_TYPES: TokenType[] = ['read-only', 'full-access', 'custom'];

export interface ApiToken {
  id: number;
  name: string;
  description: string | null;
  type: TokenType;
  lifespan: number | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  /** Actions of a custom token. */
  actions?: string[];
}

const DAY = 24 * 60 * 60 * 1000;
// Strapi writes lastUsedAt at most once an hour; so do we, and never on the request's path.
const LAST_USED_RESOLUTION = 60 * 60 * 1000;

export class ApiTokens {
  /** Where token changes are recorded (the composition root sets the audit log); never a key. */
  audit: AuditTrail = NO_AUDIT;

  constructor(
    private db: Database,
    private salt: string,
  ) {}

  hash(accessKey: string): string {
    return createHmac('sha512', this.salt).update(accessKey).digest('hex');
  }

  private async withActions(token: ApiToken): Promise<ApiToken> {
    if (token.type !== 'custom') return token;
    return { ...token, actions: await tokenActions(this.db, token.id) };
  }

  /** Creates a token; returns it with its access key (the only time the key exists in clear). */
  async create(
    name: string,
    type: TokenType,
    lifespanDays?: number,
    description?: string,
    actions: string[] = [],
    by: Actor = BY_SYSTEM,
  ): Promise<ApiToken & { accessKey: string }> {
    if (!name.trim()) throw new Error('A token needs a name');
    if (!TOKEN_TYPES.includes(type)) throw new Error(`Unknown token type "${type}" (read-only, full-access or custom)`);
    if (type === 'custom' && actions.length === 0) throw new Error('A custom token needs at least one action');
    if (type !== 'custom' && actions.length) throw new Error('Only custom tokens take a list of actions');
    if (lifespanDays !== undefined && (!Number.isFinite(lifespanDays) || lifespanDays <= 0)) {
      throw new Error('--lifespan-days must be a positive number');
    }
    const accessKey = randomBytes(128).toString('hex');
    const now = new Date();
    const lifespan = lifespanDays === undefined ? null : Math.round(lifespanDays * DAY);
    const expiresAt = lifespan === null ? null : new Date(now.getTime() + lifespan).toISOString();
    await this.db.transaction(async (tx) => {
      // Asked in the transaction that inserts, so two tokens created at once cannot share a name.
      if (await tokenNameExists(tx, name)) throw new Error(`A token named "${name}" already exists`);
      const tokenId = await insertToken(tx, {
        documentId: createDocumentId(),
        name,
        description: description ?? null,
        type,
        keyHash: this.hash(accessKey),
        lifespan,
        expiresAt,
        now: now.toISOString(),
      });
      for (const action of new Set(actions)) await insertTokenAction(tx, tokenId, action);
    });
    const token = (await this.list()).find((t) => t.name === name)!;
    await this.audit.record({
      action: 'api-token.create',
      actor: by,
      type: 'api-token',
      details: {
        name,
        tokenType: type,
        ...(lifespanDays === undefined ? {} : { lifespanDays }),
        ...(type === 'custom' ? { actions: [...new Set(actions)] } : {}),
      },
    });
    return { ...token, accessKey };
  }

  async list(): Promise<ApiToken[]> {
    const tokens: ApiToken[] = await listTokens(this.db);
    return Promise.all(tokens.map((t) => this.withActions(t)));
  }

  /** Deletes a token by name; false when there was none. */
  async revoke(name: string, by: Actor = BY_SYSTEM): Promise<boolean> {
    const deleted = await deleteTokenByName(this.db, name);
    if (deleted) await this.audit.record({ action: 'api-token.delete', actor: by, type: 'api-token', details: { name } });
    return deleted;
  }

  /** Gives a token a new access key (the old one stops working at once); undefined when unknown. */
  async regenerate(name: string, by: Actor = BY_SYSTEM): Promise<string | undefined> {
    const accessKey = randomBytes(128).toString('hex');
    if (!(await setTokenKeyHash(this.db, name, this.hash(accessKey), new Date().toISOString()))) return undefined;
    await this.audit.record({ action: 'api-token.regenerate', actor: by, type: 'api-token', details: { name } });
    return accessKey;
  }

  /**
   * Finds the token for a presented key. 'expired' when it exists but has run out,
   * undefined when no token has this key.
   */
  async verify(accessKey: string): Promise<ApiToken | 'expired' | undefined> {
    const hash = this.hash(accessKey);
    const row = await findTokenByKeyHash(this.db, hash);
    // The index found the row; compare the keyed hashes in constant time all the same.
    if (!row || !timingSafeEqual(Buffer.from(row.accessKey, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
    const { accessKey: _, ...token } = row;
    const now = Date.now();
    if (token.expiresAt && Date.parse(token.expiresAt) <= now) return 'expired';
    if (!token.lastUsedAt || now - Date.parse(token.lastUsedAt) > LAST_USED_RESOLUTION) {
      token.lastUsedAt = new Date(now).toISOString();
      // Not awaited: bookkeeping must not delay the request it describes.
      setTokenLastUsed(this.db, token.id, token.lastUsedAt).catch(() => {});
    }
    return this.withActions(token);
  }
}
