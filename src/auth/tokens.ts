/**
 * API tokens. The access key is shown once at creation; only its HMAC-SHA512 with the
 * installation's salt is stored, so a leaked database does not leak usable keys.
 */
import { createId } from '@paralleldrive/cuid2';
import { createHmac, randomBytes } from 'node:crypto';
import type { Database } from '../db/database';

export type TokenType = 'read-only' | 'full-access';

export interface ApiToken {
  id: number;
  name: string;
  description: string | null;
  type: TokenType;
  lifespan: number | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

const DAY = 24 * 60 * 60 * 1000;
// Strapi writes lastUsedAt at most once an hour; so do we, to keep reads free of writes.
const LAST_USED_RESOLUTION = 60 * 60 * 1000;

export class ApiTokens {
  constructor(
    private db: Database,
    private salt: string,
  ) {}

  hash(accessKey: string): string {
    return createHmac('sha512', this.salt).update(accessKey).digest('hex');
  }

  /** Creates a token; returns it with its access key (the only time the key exists in clear). */
  async create(name: string, type: TokenType, lifespanDays?: number, description?: string): Promise<ApiToken & { accessKey: string }> {
    if (!name.trim()) throw new Error('A token needs a name');
    if (type !== 'read-only' && type !== 'full-access') throw new Error(`Unknown token type "${type}" (read-only or full-access)`);
    if (lifespanDays !== undefined && (!Number.isFinite(lifespanDays) || lifespanDays <= 0)) {
      throw new Error('--lifespan-days must be a positive number');
    }
    if (await this.db.get('SELECT 1 AS x FROM folio_api_tokens WHERE "name" = ?', [name])) {
      throw new Error(`A token named "${name}" already exists`);
    }
    const accessKey = randomBytes(128).toString('hex');
    const now = new Date();
    const lifespan = lifespanDays === undefined ? null : Math.round(lifespanDays * DAY);
    const expiresAt = lifespan === null ? null : new Date(now.getTime() + lifespan).toISOString();
    await this.db.run(
      'INSERT INTO folio_api_tokens ("documentId", "name", "description", "type", "accessKey", "lifespan", "expiresAt", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [createId(), name, description ?? null, type, this.hash(accessKey), lifespan, expiresAt, now.toISOString(), now.toISOString()],
    );
    const token = (await this.list()).find((t) => t.name === name)!;
    return { ...token, accessKey };
  }

  list(): Promise<ApiToken[]> {
    return this.db.all<ApiToken>(
      'SELECT "id", "name", "description", "type", "lifespan", "expiresAt", "lastUsedAt", "createdAt" FROM folio_api_tokens ORDER BY "id"',
    );
  }

  /** Deletes a token by name; false when there was none. */
  async revoke(name: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM folio_api_tokens WHERE "name" = ?', [name])).changes > 0;
  }

  /**
   * Finds the token for a presented key. 'expired' when it exists but has run out,
   * undefined when no token has this key.
   */
  async verify(accessKey: string): Promise<ApiToken | 'expired' | undefined> {
    const token = await this.db.get<ApiToken>(
      'SELECT "id", "name", "description", "type", "lifespan", "expiresAt", "lastUsedAt", "createdAt" FROM folio_api_tokens WHERE "accessKey" = ?',
      [this.hash(accessKey)],
    );
    if (!token) return undefined;
    const now = Date.now();
    if (token.expiresAt && Date.parse(token.expiresAt) <= now) return 'expired';
    if (!token.lastUsedAt || now - Date.parse(token.lastUsedAt) > LAST_USED_RESOLUTION) {
      await this.db.run('UPDATE folio_api_tokens SET "lastUsedAt" = ? WHERE "id" = ?', [new Date(now).toISOString(), token.id]);
    }
    return token;
  }
}
