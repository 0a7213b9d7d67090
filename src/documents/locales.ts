/**
 * The locale table: which locales exist and which is the default. A new database gets
 * `en` ("English (en)") as default, as Strapi's i18n plugin does on first boot.
 */
import { createDocumentId } from './document-id';
import { ChangeCache } from '../db/cache';
import type { Database } from '../db/database';
import {
  anyLocaleExists,
  deleteLocale,
  findDefaultLocaleCode,
  insertLocale,
  listLocales,
  localeExists,
  setDefaultLocale,
  type LocaleRow,
} from '../db/store/locales';
import { ValidationError } from '../errors';
import { BY_SYSTEM, NO_AUDIT, type AuditTrail } from '../audit-trail';
import type { Actor } from './write/context';

/** A locale as the API answers it: the stored row, with `isDefault` as a boolean. */
export type Locale = Omit<LocaleRow, 'isDefault'> & { isDefault: boolean };

const CODE = /^[a-zA-Z]{2,3}([-_][a-zA-Z0-9]{2,8})*$/;

export class Locales {
  private cache: ChangeCache<string, string | boolean>;
  /** Where locale changes are recorded (the composition root sets the audit log). */
  audit: AuditTrail = NO_AUDIT;

  constructor(private db: Database) {
    this.cache = ChangeCache.settings(db);
  }

  async list(): Promise<Locale[]> {
    const rows = await listLocales(this.db);
    return rows.map((r) => ({ ...r, isDefault: !!r.isDefault }));
  }

  /** Read on every request; cached until the database changes. */
  async defaultCode(): Promise<string> {
    return (await this.cache.get('\0default', async () => (await findDefaultLocaleCode(this.db)) ?? 'en')) as string;
  }

  async exists(code: string): Promise<boolean> {
    return (await this.cache.get(code, () => localeExists(this.db, code))) as boolean;
  }

  /** Adds a locale; the first one becomes the default. */
  async add(code: string, name?: string, by: Actor = BY_SYSTEM): Promise<Locale> {
    if (!CODE.test(code)) throw new ValidationError(`Invalid locale code "${code}" (expected e.g. en, fr, pt-BR)`);
    if (await this.exists(code)) throw new ValidationError(`Locale "${code}" already exists`);
    const now = new Date().toISOString();
    await this.db.transaction(async (tx) => {
      const first = !(await anyLocaleExists(tx));
      await insertLocale(tx, { documentId: createDocumentId(), name: name ?? `${code} (${code})`, code, isDefault: first, now });
    });
    const added = (await this.list()).find((l) => l.code === code)!;
    await this.audit.record({ action: 'locale.create', actor: by, type: 'locale', locale: code, details: { code, name: added.name } });
    return added;
  }

  async setDefault(code: string, by: Actor = BY_SYSTEM): Promise<void> {
    if (!(await this.exists(code))) throw new ValidationError(`Locale "${code}" does not exist; add it first`);
    await this.db.transaction(async (tx) => {
      await setDefaultLocale(tx, code, new Date().toISOString());
    });
    await this.audit.record({ action: 'locale.update', actor: by, type: 'locale', locale: code, details: { code, isDefault: true } });
  }

  /**
   * Removes a locale (not the default one). Entries written in it stay in their tables, out
   * of reach until the locale is added again, as a removed locale's are in Strapi's database.
   */
  async remove(code: string, by: Actor = BY_SYSTEM): Promise<boolean> {
    if ((await this.defaultCode()) === code) throw new ValidationError('The default locale cannot be removed: make another locale the default first');
    const removed = await this.db.transaction((tx) => deleteLocale(tx, code));
    if (removed) await this.audit.record({ action: 'locale.delete', actor: by, type: 'locale', locale: code, details: { code } });
    return removed;
  }

  /** Creates `en` as the default when the table is empty. */
  async ensureDefault(): Promise<void> {
    if (!(await anyLocaleExists(this.db))) await this.add('en', 'English (en)');
  }
}
