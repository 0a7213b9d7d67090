/**
 * SQL pieces for reading versions: which rows a status and locale select, and the
 * ORDER BY of a sort. Values are always bound parameters, so statement text repeats
 * and the statement cache works.
 */
import type { SqlValue } from '../db/database';
import type { Dialect } from '../db/dialect';
import type { ContentType } from '../registry/types';
import type { SortItem, Status } from './types';

export interface Fragment {
  sql: string;
  params: SqlValue[];
}

export const and = (parts: Fragment[]): Fragment => {
  const used = parts.filter((p) => p.sql);
  return { sql: used.map((p) => (used.length > 1 ? `(${p.sql})` : p.sql)).join(' AND '), params: used.flatMap((p) => p.params) };
};

/** Rows of a status: drafts have no publishedAt. Types without draft & publish have only published rows. */
export function statusCondition(dialect: Dialect, ct: ContentType, status: Status, alias = 't'): Fragment {
  if (!ct.draftAndPublish) return { sql: '', params: [] };
  return { sql: `${alias}.${dialect.quote('publishedAt')} IS ${status === 'draft' ? '' : 'NOT '}NULL`, params: [] };
}

/** Rows of a locale ('*' = all). Types without i18n ignore the locale. */
export function localeCondition(dialect: Dialect, ct: ContentType, locale: string, alias = 't'): Fragment {
  if (!ct.localized || locale === '*') return { sql: '', params: [] };
  return { sql: `${alias}.${dialect.quote('locale')} = ?`, params: [locale] };
}

export function versionScope(dialect: Dialect, ct: ContentType, status: Status, locale: string, alias = 't'): Fragment {
  return and([statusCondition(dialect, ct, status, alias), localeCondition(dialect, ct, locale, alias)]);
}

/**
 * Joins a link row `l` to the target version `t` a reader of `status` should see:
 * links name documents, so the version is picked here, at read time.
 */
export function linkedVersion(dialect: Dialect, target: ContentType, status: Status, l: string, t: string): string {
  const q = dialect.quote;
  const base = `${t}.${q('documentId')} = ${l}.${q('targetDocumentId')} AND ${t}.${q('locale')} = ${l}.${q('targetLocale')}`;
  if (!target.draftAndPublish) return base;
  const draft = `${t}.${q('publishedAt')} IS NULL`;
  const published = `${t}.${q('publishedAt')} IS NOT NULL`;
  return `${base} AND ((${l}.${q('targetStatus')} = '' AND ${status === 'draft' ? draft : published})` +
    ` OR (${l}.${q('targetStatus')} = 'draft' AND ${draft}) OR (${l}.${q('targetStatus')} = 'published' AND ${published}))`;
}
