/**
 * Rows of `folio_locales`. Which codes are valid and which locale a new database gets is
 * documents/locales.ts's business.
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const LOCALES = sql.id(SYSTEM.locales);

export interface LocaleRow {
  id: number;
  documentId: string;
  name: string;
  code: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
  isDefault: number;
}

const COLUMNS = sql.join(['id', 'documentId', 'name', 'code', 'createdAt', 'updatedAt', 'publishedAt', 'isDefault'].map((c) => sql.id(c)));

export const listLocales = (db: Queryable) => db.all<LocaleRow>(sql`SELECT ${COLUMNS} FROM ${LOCALES} ORDER BY "id"`);

/** The default locale's code, undefined when none is marked default. */
export async function findDefaultLocaleCode(db: Queryable): Promise<string | undefined> {
  return (await db.get<{ code: string }>(sql`SELECT "code" FROM ${LOCALES} WHERE "isDefault" = 1 LIMIT 1`))?.code;
}

export async function localeExists(db: Queryable, code: string): Promise<boolean> {
  return !!(await db.get(sql`SELECT 1 AS x FROM ${LOCALES} WHERE "code" = ${code}`));
}

export async function anyLocaleExists(db: Queryable): Promise<boolean> {
  return !!(await db.get(sql`SELECT 1 AS x FROM ${LOCALES} LIMIT 1`));
}

export async function insertLocale(db: Queryable, locale: { documentId: string; name: string; code: string; isDefault: boolean; now: string }): Promise<void> {
  const { documentId, name, code, now } = locale;
  await db.run(sql`INSERT INTO ${LOCALES} ("documentId", "name", "code", "isDefault", "createdAt", "updatedAt", "publishedAt")
    VALUES (${documentId}, ${name}, ${code}, ${locale.isDefault ? 1 : 0}, ${now}, ${now}, ${now})`);
}

/** Makes this locale the default and every other one not, in one statement. */
export async function setDefaultLocale(db: Queryable, code: string, now: string): Promise<void> {
  await db.run(sql`UPDATE ${LOCALES} SET "isDefault" = CASE WHEN "code" = ${code} THEN 1 ELSE 0 END, "updatedAt" = ${now}`);
}

/** Deletes a locale's row; false when there was none. */
export async function deleteLocale(db: Queryable, code: string): Promise<boolean> {
  return (await db.run(sql`DELETE FROM ${LOCALES} WHERE "code" = ${code}`)).changes > 0;
}
