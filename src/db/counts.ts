/**
 * Maintained list totals (issue #21, "Scale"): `folio_counts` (migration 0012) holds how many
 * versions each content table has per (locale, published or draft), kept by triggers on the
 * content tables in the writing transaction. A list whose only conditions are its locale and
 * status reads its total from a few rows here instead of counting every matching version.
 *
 * Schema sync (db/schema-sync.ts) adds the triggers to each content table and, in the same
 * transaction, counts the table once: a database from before this mechanism, a table a
 * start just created, or one whose triggers were missing or different. On PostgreSQL
 * CREATE TRIGGER locks out writers of the table until the sync commits, so no row is
 * written between the count and the trigger (concurrent starts take turns: SCHEMA_LOCK).
 */
import { SYSTEM, VERSION } from './layout';
import { sql, type Sql } from './sql';
import type { ContentType, Registry } from '../registry/types';
import type { Database } from './database';

/** One step of schema sync (the shape of schema-sync's SyncStep). */
interface Step {
  description: string;
  sql?: string;
  statements?: Sql[];
}

const id = (name: string) => sql.id(name).toString();
const KEY = ['contentTable', 'locale', 'published', 'slot'].map(id).join(', ');

/** Trigger names: SQLite's are global (so they carry the table), PostgreSQL's are per table. */
const triggerName = (engine: 'sqlite' | 'postgres', table: string, event: string) =>
  engine === 'sqlite' ? `folio_counts_${table}_${event}` : `folio_counts_${event}`;

/** The key of a version row (`row` is `new` or `old`) as the counts table stores it. */
const keyOf = (row: string) => `${row}.${id(VERSION.locale)}, ${row}.${id(VERSION.publishedAt)} IS NOT NULL`;

/** The statement a trigger writes for `row`'s key: +1 or -1 on slot 0 (SQLite has one writer). */
function sqliteUpsert(table: string, row: string, delta: number): string {
  return `INSERT INTO ${SYSTEM.counts} (${KEY}, "n") VALUES (${sql.text(table)}, ${keyOf(row)}, 0, ${delta})
    ON CONFLICT (${KEY}) DO UPDATE SET "n" = "n" + excluded."n";`;
}

/** A changed key: the locale, or published ↔ draft (a re-publish keeps publishedAt set). */
const keyChanged = `old.${id(VERSION.locale)} IS NOT new.${id(VERSION.locale)} OR (old.${id(VERSION.publishedAt)} IS NULL) <> (new.${id(VERSION.publishedAt)} IS NULL)`;

/** The triggers of `table`, as CREATE statements (SQLite: compared with what exists, so a changed definition is made again). */
function triggers(engine: 'sqlite' | 'postgres', table: string): { name: string; sql: string }[] {
  const t = id(table);
  const name = (event: string) => triggerName(engine, table, event);
  const watched = `${id(VERSION.locale)}, ${id(VERSION.publishedAt)}`;
  if (engine === 'sqlite') {
    return [
      { name: name('insert'), sql: `CREATE TRIGGER ${id(name('insert'))} AFTER INSERT ON ${t} BEGIN ${sqliteUpsert(table, 'new', 1)} END` },
      { name: name('delete'), sql: `CREATE TRIGGER ${id(name('delete'))} AFTER DELETE ON ${t} BEGIN ${sqliteUpsert(table, 'old', -1)} END` },
      {
        name: name('update'),
        sql: `CREATE TRIGGER ${id(name('update'))} AFTER UPDATE OF ${watched} ON ${t} WHEN ${keyChanged} BEGIN ${sqliteUpsert(table, 'old', -1)} ${sqliteUpsert(table, 'new', 1)} END`,
      },
    ];
  }
  // The functions are migration 0012's; IS DISTINCT FROM is PostgreSQL's spelling of IS NOT.
  const changed = keyChanged.replace(' IS NOT ', ' IS DISTINCT FROM ').replaceAll('old.', 'OLD.').replaceAll('new.', 'NEW.');
  return [
    {
      name: name('insert'),
      sql: `CREATE TRIGGER ${id(name('insert'))} AFTER INSERT ON ${t} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION folio_counts_insert()`,
    },
    {
      name: name('delete'),
      sql: `CREATE TRIGGER ${id(name('delete'))} AFTER DELETE ON ${t} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION folio_counts_delete()`,
    },
    {
      name: name('update'),
      sql: `CREATE TRIGGER ${id(name('update'))} AFTER UPDATE OF ${watched} ON ${t} FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION folio_counts_update()`,
    },
    {
      name: name('truncate'),
      sql: `CREATE TRIGGER ${id(name('truncate'))} AFTER TRUNCATE ON ${t} FOR EACH STATEMENT EXECUTE FUNCTION folio_counts_truncate()`,
    },
  ];
}

/** The triggers that exist, by table: name → definition (PostgreSQL: the name only). */
async function existingTriggers(db: Database): Promise<Map<string, Map<string, string>>> {
  const rows =
    db.dialect.name === 'sqlite'
      ? await db.all<{ tbl: string; name: string; sql: string }>(
          sql`SELECT tbl_name AS tbl, name, sql FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, 13) = 'folio_counts_'`,
        )
      : await db.all<{
          tbl: string;
          name: string;
          sql: string;
        }>(sql`SELECT c.relname AS tbl, g.tgname AS name, '' AS sql FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
          WHERE NOT g.tgisinternal AND substr(g.tgname, 1, 13) = 'folio_counts_' AND c.relnamespace = current_schema()::regnamespace`);
  const byTable = new Map<string, Map<string, string>>();
  for (const r of rows) {
    if (!byTable.has(r.tbl)) byTable.set(r.tbl, new Map());
    byTable.get(r.tbl)!.set(r.name, r.sql);
  }
  return byTable;
}

/**
 * Schema-sync steps: for each content table whose count triggers are missing or differ, drop
 * what is there, create them and count the table once (after the tables' own steps).
 */
export async function planCountTriggers(db: Database, registry: Registry): Promise<Step[]> {
  const engine = db.dialect.name;
  const existing = await existingTriggers(db);
  const steps: Step[] = [];
  for (const ct of registry.contentTypes) {
    const table = ct.tableName;
    const wanted = triggers(engine, table);
    const have = existing.get(table) ?? new Map<string, string>();
    if (wanted.length === have.size && wanted.every((w) => have.has(w.name) && (engine === 'postgres' || have.get(w.name) === w.sql))) continue;
    for (const name of have.keys()) {
      steps.push({
        description: `drop count trigger ${name}`,
        sql: engine === 'sqlite' ? `DROP TRIGGER ${id(name)}` : `DROP TRIGGER ${id(name)} ON ${id(table)}`,
      });
    }
    for (const w of wanted) steps.push({ description: `create count trigger ${w.name}`, sql: w.sql });
    const published = engine === 'sqlite' ? sql`${sql.id(VERSION.publishedAt)} IS NOT NULL` : sql`CAST(${sql.id(VERSION.publishedAt)} IS NOT NULL AS INTEGER)`;
    steps.push({
      description: `count the versions of ${table}`,
      statements: [
        sql`DELETE FROM ${sql.id(SYSTEM.counts)} WHERE ${sql.id('contentTable')} = ${table}`,
        sql`INSERT INTO ${sql.id(SYSTEM.counts)} (${sql.raw(KEY)}, ${sql.id('n')})
          SELECT ${table}, ${sql.id(VERSION.locale)}, ${published}, 0, COUNT(*) FROM ${sql.id(table)} GROUP BY ${sql.id(VERSION.locale)}, ${published}`,
      ],
    });
  }
  return steps;
}

/**
 * The total of a list whose only conditions are its locale and status, from the maintained
 * counts: the same number as COUNT(*) over `versionScope` (query/resolve.ts). Without draft &
 * publish every row counts whatever its publishedAt; without i18n (or `locale=*`) every locale.
 */
export function maintainedCount(ct: ContentType, scope: { status: 'draft' | 'published'; locale: string }): Sql {
  const col = (name: string) => sql.id(name);
  const conditions = [sql`${col('contentTable')} = ${ct.tableName}`];
  if (ct.localized && scope.locale !== '*') conditions.push(sql`${col('locale')} = ${scope.locale}`);
  if (ct.draftAndPublish) conditions.push(sql`${col('published')} = ${scope.status === 'published' ? 1 : 0}`);
  return sql`SELECT CAST(COALESCE(SUM(${col('n')}), 0) AS INTEGER) AS n FROM ${sql.id(SYSTEM.counts)} WHERE ${sql.and(conditions)}`;
}
