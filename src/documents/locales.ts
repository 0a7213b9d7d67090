/**
 * The locale table: which locales exist and which is the default. A new database gets
 * `en` ("English (en)") as default, as Strapi's i18n plugin does on first boot.
 */
import { createId } from '@paralleldrive/cuid2';
import { ChangeCache } from '../db/cache';
import type { Database } from '../db/database';
import { ValidationError } from '../errors';

export interface Locale {
  id: number;
  documentId: string;
  name: string;
  code: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
  isDefault: boolean;
}

const CODE = /^[a-zA-Z]{2,3}([-_][a-zA-Z0-9]{2,8})*$/;

export class Locales {
  private cache: ChangeCache<string, string | boolean>;

  constructor(private db: Database) {
    this.cache = new ChangeCache(db);
  }

  async list(): Promise<Locale[]> {
    const rows = await this.db.all<Omit<Locale, 'isDefault'> & { isDefault: number }>(
      'SELECT "id", "documentId", "name", "code", "createdAt", "updatedAt", "publishedAt", "isDefault" FROM folio_locales ORDER BY "id"',
    );
    return rows.map((r) => ({ ...r, isDefault: !!r.isDefault }));
  }

  /** Read on every request; cached until the database changes. */
  async defaultCode(): Promise<string> {
    return (await this.cache.get('\0default', async () => {
      const row = await this.db.get<{ code: string }>('SELECT "code" FROM folio_locales WHERE "isDefault" = 1 LIMIT 1');
      return row?.code ?? 'en';
    })) as string;
  }

  async exists(code: string): Promise<boolean> {
    return (await this.cache.get(code, async () => !!(await this.db.get('SELECT 1 AS x FROM folio_locales WHERE "code" = ?', [code])))) as boolean;
  }

  /** Adds a locale; the first one becomes the default. */
  async add(code: string, name?: string): Promise<Locale> {
    if (!CODE.test(code)) throw new ValidationError(`Invalid locale code "${code}" (expected e.g. en, fr, pt-BR)`);
    if (await this.exists(code)) throw new ValidationError(`Locale "${code}" already exists`);
    const now = new Date().toISOString();
    await this.db.transaction(async (tx) => {
      const any = await tx.get('SELECT 1 AS x FROM folio_locales LIMIT 1');
      await tx.run(
        'INSERT INTO folio_locales ("documentId", "name", "code", "isDefault", "createdAt", "updatedAt", "publishedAt") VALUES (?, ?, ?, ?, ?, ?, ?)',
        [createId(), name ?? `${code} (${code})`, code, any ? 0 : 1, now, now, now],
      );
    });
    return (await this.list()).find((l) => l.code === code)!;
  }

  async setDefault(code: string): Promise<void> {
    if (!(await this.exists(code))) throw new ValidationError(`Locale "${code}" does not exist; add it first`);
    await this.db.transaction(async (tx) => {
      await tx.run('UPDATE folio_locales SET "isDefault" = CASE WHEN "code" = ? THEN 1 ELSE 0 END, "updatedAt" = ?', [
        code,
        new Date().toISOString(),
      ]);
    });
  }

  /** Creates `en` as the default when the table is empty. */
  async ensureDefault(): Promise<void> {
    const any = await this.db.get('SELECT 1 AS x FROM folio_locales LIMIT 1');
    if (!any) await this.add('en', 'English (en)');
  }
}
