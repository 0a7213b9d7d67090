/**
 * A version of the settings every request reads (grants, roles, API tokens, locales), so
 * their caches (db/cache.ts) live until a setting changes instead of until any commit: a
 * content write no longer makes the next request re-read grants and the default locale.
 *
 * Triggers bump it, so every writer does so without knowing: this process, the CLI against
 * the same SQLite file, other instances on PostgreSQL, `folio copy`, a hand-written UPDATE.
 * The bump is part of the writing transaction, so a reader sees the new version only with
 * the new settings. The value is random rather than a counter: `folio copy --force`
 * truncates the table, and a counter restarting could meet a number a cache still holds.
 * The table holds no row until the first settings write (copy checks the target is empty).
 */
import type { Dialect } from '../dialect';

/** The tables whose writes change what requests are allowed or default to. */
export const SETTINGS_TABLES = ['folio_roles', 'folio_permissions', 'folio_api_tokens', 'folio_api_token_permissions', 'folio_locales'];

export default function settingsVersion(d: Dialect): string {
  const table = `CREATE TABLE folio_settings_version ("id" INTEGER PRIMARY KEY, "version" BIGINT NOT NULL);\n`;
  if (d.name === 'sqlite') return table + settingsVersionTriggers(d, SETTINGS_TABLES);
  // PostgreSQL: row triggers (a statement changing no row, as a migration's UPDATE of an empty
  // table, leaves the version, and so `folio copy`'s empty target, alone), and TRUNCATE.
  return (
    table +
    `CREATE FUNCTION folio_bump_settings_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO folio_settings_version ("id", "version") VALUES (1, floor(random() * 9007199254740991)::bigint)
    ON CONFLICT ("id") DO UPDATE SET "version" = excluded."version";
  RETURN NULL;
END $$;
` +
    settingsVersionTriggers(d, SETTINGS_TABLES)
  );
}

/** The triggers that bump the version on every write of `tables` (later migrations add tables with it). */
export function settingsVersionTriggers(d: Dialect, tables: readonly string[]): string {
  if (d.name === 'sqlite') {
    const bump = `INSERT OR REPLACE INTO folio_settings_version ("id", "version") VALUES (1, abs(random() % 9007199254740991));`;
    return tables
      .flatMap((t) =>
        ['INSERT', 'UPDATE', 'DELETE'].map((op) => `CREATE TRIGGER ${t}_${op.toLowerCase()}_settings AFTER ${op} ON ${t} BEGIN\n  ${bump}\nEND;\n`),
      )
      .join('');
  }
  return tables
    .map(
      (t) =>
        `CREATE TRIGGER ${t}_settings AFTER INSERT OR UPDATE OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION folio_bump_settings_version();\n` +
        `CREATE TRIGGER ${t}_settings_truncate AFTER TRUNCATE ON ${t} FOR EACH STATEMENT EXECUTE FUNCTION folio_bump_settings_version();\n`,
    )
    .join('');
}
