/**
 * The substring index behind `_q` (issue #15), made and kept up by schema sync.
 *
 * SQLite: per content type with searched text attributes, an FTS5 table with the trigram
 * tokenizer, contentless (it stores no copy of the text, only the index) and keyed by the
 * version's row id. It indexes each attribute folded by `folio_lower`, the very function the
 * unindexed search compares with, and is case-sensitive itself: a phrase query of the folded
 * search text is then exactly "a substring of some folded attribute", with no second folding
 * that could disagree (FTS5's own case folding knows older Unicode than JS does). Triggers on
 * the content table keep it in step, so every write path (documents, publish, locales,
 * `folio import`, project code's own SQL) is covered without knowing about it. A published
 * version holding its draft's text shares the draft's entry (see sqliteObjects). When the
 * attributes change, the table and its triggers are dropped and rebuilt from the content table.
 *
 * PostgreSQL: a pg_trgm GIN index per searched column, on the same ICU-folded expression the
 * compiler's LIKE reads (query/compile.ts). Installing pg_trgm may be refused to the role:
 * then Folio starts without these indexes, with one warning line.
 */
import { SEARCH, VERSION } from './layout';
import { sql } from './sql';
import { visibleScalars, type ScalarField } from '../registry/fields';
import type { ContentType, Registry } from '../registry/types';
import type { Database } from './database';

/** One step of schema sync (the shape of schema-sync's SyncStep). */
interface Step {
  description: string;
  sql?: string;
  warning?: boolean;
}

/** Strapi's searched attribute types (database/src/utils/types.ts `isString`). */
const SEARCHED_TEXT = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);

/** Trigrams: shorter searches cannot be served by the index and read the rows instead. */
export const MIN_INDEXED_SEARCH = 3;

/** Attributes `_q` may look at: shown ones (never private or password) not marked `searchable: false`. */
export const searchableFields = (ct: ContentType): ScalarField[] => visibleScalars(ct).filter((f) => f.attribute.searchable !== false);

/** The attributes `_q` searches as text. */
export function searchedTextFields(ct: ContentType): ScalarField[] {
  return searchableFields(ct).filter((f) => SEARCHED_TEXT.has(f.type));
}

/** Whether `folded` (already folded by folio_lower) is long enough for the trigram index. */
export const indexable = (folded: string): boolean => [...folded].length >= MIN_INDEXED_SEARCH;

/** An FTS5 phrase matching `text` literally: everything inside double quotes is text, `"` doubled. */
export const ftsPhrase = (text: string): string => `"${text.replaceAll('"', '""')}"`;

const id = (name: string) => sql.id(name).toString();
/** A column of a trigger's row (`new`, `old`) or of an alias. */
const v = (row: string, name: string) => `${row}.${id(name)}`;
/** The FTS table's columns, one per searched attribute: `c0, c1, …`. */
const ftsColumns = (fields: ScalarField[]) => fields.map((_, i) => `c${i}`).join(', ');
/** What the index holds of a row: its id, then each searched attribute folded as `_q` compares it. */
const folded = (row: string, fields: ScalarField[]) => [v(row, VERSION.id), ...fields.map((f) => `folio_lower(${v(row, f.name)})`)].join(', ');

/**
 * The FTS table and its three triggers for `ct`, as CREATE statements (compared with what exists).
 *
 * A type with draft & publish holds most documents twice, the draft and a published copy with
 * the same text (a create that publishes, a publish, an import): there the published version
 * shares its draft's entry instead of indexing the same text again (the index is most of an
 * imported row's cost, ~25 µs a version). What holds at every commit: each version row has its
 * own entry, or is a published version whose searched columns equal, value for value, those of
 * the draft of its document and locale, which has its entry. The triggers keep it so:
 *  - insert: a published version equal to its draft takes no entry; every other row takes one;
 *  - update of a row's searched columns (or of what places it): its entry is made again, and
 *    when a draft changes, the published versions that shared its entry take their own first;
 *  - delete: its entry goes, and a deleted draft's published versions take their own.
 * `_q` on published versions adds those sharing a matching draft's entry (./dialect.ts sqliteSearch).
 */
function sqliteObjects(ct: ContentType, fields: ScalarField[]): { name: string; sql: string }[] {
  const t = ct.tableName;
  const table = id(t);
  const fts = id(SEARCH.ftsTable(t));
  const columns = ftsColumns(fields);
  const values = (row: string) => folded(row, fields);
  const remove = `DELETE FROM ${fts} WHERE rowid = old.${id(VERSION.id)};`;
  const shares = ct.draftAndPublish;
  // The published versions of `row`'s document and locale (row being a draft) that have no entry of their own.
  const ownEntries = (row: string) =>
    `INSERT INTO ${fts}(rowid, ${columns}) SELECT ${values('p')} FROM ${table} p WHERE ${v(row, VERSION.publishedAt)} IS NULL` +
    ` AND ${v('p', VERSION.documentId)} = ${v(row, VERSION.documentId)} AND ${v('p', VERSION.locale)} = ${v(row, VERSION.locale)}` +
    ` AND ${v('p', VERSION.publishedAt)} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${fts} WHERE rowid = ${v('p', VERSION.id)});`;
  const insert = shares
    ? `INSERT INTO ${fts}(rowid, ${columns}) SELECT ${values('new')} WHERE ${v('new', VERSION.publishedAt)} IS NULL OR NOT EXISTS (${sameDraft(t, fields, 'new')});`
    : `INSERT INTO ${fts}(rowid, ${columns}) VALUES (${values('new')});`;
  const reindex = `${remove} INSERT INTO ${fts}(rowid, ${columns}) VALUES (${values('new')});`;
  const watched = [VERSION.id, ...(shares ? [VERSION.documentId, VERSION.locale, VERSION.publishedAt] : []), ...fields.map((f) => f.name)];
  // Rewriting a row with the values it had changes nothing in the index.
  const changed = watched.map((name) => `${v('old', name)} IS NOT ${v('new', name)}`).join(' OR ');
  return [
    {
      name: SEARCH.ftsTable(t),
      sql: `CREATE VIRTUAL TABLE ${fts} USING fts5(${columns}, tokenize='trigram case_sensitive 1', content='', contentless_delete=1)`,
    },
    { name: SEARCH.trigger(t, 'insert'), sql: `CREATE TRIGGER ${id(SEARCH.trigger(t, 'insert'))} AFTER INSERT ON ${table} BEGIN ${insert} END` },
    {
      name: SEARCH.trigger(t, 'update'),
      sql:
        `CREATE TRIGGER ${id(SEARCH.trigger(t, 'update'))} AFTER UPDATE OF ${watched.map(id).join(', ')} ON ${table} WHEN ${changed}` +
        ` BEGIN ${shares ? `${ownEntries('old')} ` : ''}${reindex} END`,
    },
    {
      name: SEARCH.trigger(t, 'delete'),
      sql: `CREATE TRIGGER ${id(SEARCH.trigger(t, 'delete'))} AFTER DELETE ON ${table} BEGIN ${shares ? `${ownEntries('old')} ` : ''}${remove} END`,
    },
  ];
}

/** What an insert trigger indexes: the folded columns of the new row, in the table's column order. */
const indexedColumns = (trigger: string): string[] => [...trigger.matchAll(/folio_lower\(new\.("(?:[^"]|"")*")\)/g)].map((m) => m[1]!);

/**
 * Whether the entries an index holds stay right under new triggers: the same table, the same
 * columns indexed in the same order, and the new triggers let published versions share (every
 * version having its own entry is right for them; the reverse, a type leaving draft & publish,
 * is filled again).
 */
function entriesStillRight(objects: { name: string; sql: string }[], existing: Map<string, { sql: string | null }>, sharing: boolean): boolean {
  const [table, insert] = objects;
  const before = existing.get(insert!.name)?.sql;
  if (!sharing || existing.get(table!.name)?.sql !== table!.sql || !before) return false;
  const [was, is] = [indexedColumns(before), indexedColumns(insert!.sql)];
  return was.length > 0 && was.length === is.length && was.every((c, i) => c === is[i]);
}

/** The draft of `row`'s document and locale, when its searched columns hold what `row`'s do (a published row sharing its entry). */
function sameDraft(table: string, fields: ScalarField[], row: string): string {
  const same = fields.map((f) => ` AND ${v('d', f.name)} IS ${v(row, f.name)}`).join('');
  return (
    `SELECT 1 FROM ${id(table)} d WHERE ${v('d', VERSION.documentId)} = ${v(row, VERSION.documentId)}` +
    ` AND ${v('d', VERSION.locale)} = ${v(row, VERSION.locale)} AND ${v('d', VERSION.publishedAt)} IS NULL${same}`
  );
}

async function sqliteSteps(db: Database, registry: Registry): Promise<Step[]> {
  // What exists under the prefix; the FTS shadow tables are FTS5's business and left out.
  const rows = await db.all<{ type: string; name: string; sql: string | null }>(
    sql`SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger') AND substr(name, 1, ${SEARCH.prefix.length}) = ${SEARCH.prefix}`,
  );
  const existing = new Map(rows.filter((r) => r.type === 'trigger' || r.sql?.startsWith('CREATE VIRTUAL TABLE')).map((r) => [r.name, r]));
  const steps: Step[] = [];
  const drop = (name: string) => {
    const found = existing.get(name);
    if (found) steps.push({ description: `drop search ${found.type} ${name}`, sql: `DROP ${found.type === 'trigger' ? 'TRIGGER' : 'TABLE'} ${id(name)}` });
    existing.delete(name);
  };
  const kept = new Set<string>();
  for (const ct of registry.contentTypes) {
    const fields = searchedTextFields(ct);
    if (fields.length === 0) continue;
    const objects = sqliteObjects(ct, fields);
    for (const o of objects) kept.add(o.name);
    if (objects.every((o) => existing.get(o.name)?.sql === o.sql)) continue;
    if (entriesStillRight(objects, existing, ct.draftAndPublish)) {
      // Only how the triggers keep the entries changed: they are replaced, the entries stay.
      for (const o of objects.slice(1).filter((o) => existing.get(o.name)?.sql !== o.sql)) {
        drop(o.name);
        steps.push({ description: `create search trigger ${o.name}`, sql: o.sql });
      }
      continue;
    }
    // Triggers first: they write into the table.
    for (const o of [...objects].reverse()) drop(o.name);
    for (const o of objects) steps.push({ description: `create search ${o === objects[0] ? 'index' : 'trigger'} ${o.name}`, sql: o.sql });
    const fts = id(SEARCH.ftsTable(ct.tableName));
    // As the insert trigger would: a published version equal to its draft shares the draft's entry.
    const sharing = ct.draftAndPublish ? ` WHERE r.${id(VERSION.publishedAt)} IS NULL OR NOT EXISTS (${sameDraft(ct.tableName, fields, 'r')})` : '';
    steps.push({
      description: `fill search index ${SEARCH.ftsTable(ct.tableName)} (${fields.map((f) => f.name).join(', ')})`,
      sql: `INSERT INTO ${fts}(rowid, ${ftsColumns(fields)}) SELECT ${folded('r', fields)} FROM ${id(ct.tableName)} r${sharing}`,
    });
  }
  // A type that is gone or has no searched text any more: its index would only cost writes.
  for (const name of [...existing.keys()].filter((n) => existing.get(n)!.type === 'trigger' && !kept.has(n))) drop(name);
  for (const name of [...existing.keys()].filter((n) => !kept.has(n))) drop(name);
  return steps;
}

/**
 * Bulk loads (`folio import`) and the SQLite index. FTS5 writes each transaction's terms as a
 * new segment and, once a level holds `automerge` segments (4 by default), merges them into
 * the next: during an import that rewrites the index over and over. With 16 it merges far less
 * while loading; at the end a merge pass, in steps of MERGE_PAGES pages, brings every level
 * back under the default. Measured on the bench shape (#21, 1,000,000 articles): 128.2 s →
 * 117.0 s, the final merge (~5 s) included, and `_q` then reads half the segments it read after
 * an import at the default (0.26 ms against 0.51 ms for a phrase, in-process). The setting is
 * stored in the index (FTS5 keeps it in its config table), so it is put back even when the
 * import stops at a bad line; a process killed in between leaves 16 behind, which costs
 * searches some speed and nothing else, and the next import puts it back.
 * PostgreSQL's trigram indexes have no such setting: nothing to do there.
 */
const BULK_AUTOMERGE = 16;
const DEFAULT_AUTOMERGE = 4;
const MERGE_PAGES = 2000;

/** Sets the bulk-load merge policy on `ct`'s index; the function returned puts it back and merges. */
export async function beginSearchBulkLoad(db: Database, ct: ContentType): Promise<() => Promise<void>> {
  if (db.dialect.name !== 'sqlite' || searchedTextFields(ct).length === 0) return async () => {};
  const fts = id(SEARCH.ftsTable(ct.tableName));
  const command = (name: string, value: number) => `INSERT INTO ${fts}(${fts}, rank) VALUES ('${name}', ${value})`;
  await db.run(command('automerge', BULK_AUTOMERGE));
  return async () => {
    await db.run(command('automerge', DEFAULT_AUTOMERGE));
    // FTS5's own test for "nothing left to merge": the command changed fewer than 2 rows.
    for (let merged = true; merged; ) {
      merged = await db.transaction(async (tx) => {
        const before = (await tx.get<{ n: number }>('SELECT total_changes() AS n'))!.n;
        await tx.run(command('merge', MERGE_PAGES));
        return (await tx.get<{ n: number }>('SELECT total_changes() AS n'))!.n - before >= 2;
      });
    }
  };
}

/** Whether this role may install pg_trgm: a superuser, or a trusted extension and CREATE on the database. */
const CAN_INSTALL_TRGM = sql`SELECT 1 AS ok FROM pg_available_extension_versions v
  WHERE v.name = 'pg_trgm'
    AND v.version = (SELECT default_version FROM pg_available_extensions WHERE name = 'pg_trgm')
    AND ((SELECT rolsuper FROM pg_roles WHERE rolname = current_user) OR (v.trusted AND has_database_privilege(current_database(), 'CREATE')))`;

/** The note (and warning line) when pg_trgm cannot be had. */
export const TRGM_MISSING =
  'extension pg_trgm is not installed and this role may not install it: _q searches read every row (install it as a superuser: CREATE EXTENSION pg_trgm)';

async function postgresSteps(db: Database, registry: Registry, existingIndexes: ReadonlySet<string>): Promise<Step[]> {
  const missing: Step[] = [];
  for (const ct of registry.contentTypes) {
    for (const field of searchedTextFields(ct)) {
      const name = SEARCH.trgmIndex(ct.tableName, field.name);
      if (existingIndexes.has(name.toLowerCase())) continue;
      const folded = db.dialect.lower(sql.id(field.name)).compile('numbered').text;
      missing.push({ description: `create search index ${name}`, sql: `CREATE INDEX ${id(name)} ON ${id(ct.tableName)} USING gin ((${folded}) gin_trgm_ops)` });
    }
  }
  if (missing.length === 0) return [];
  if (await db.get(sql`SELECT 1 AS ok FROM pg_extension WHERE extname = 'pg_trgm'`)) return missing;
  if (!(await db.get(CAN_INSTALL_TRGM))) {
    // A warning step: `serve` logs it, `migrate` prints it.
    return [{ description: `warning: ${TRGM_MISSING}`, warning: true }];
  }
  return [{ description: 'create extension pg_trgm', sql: 'CREATE EXTENSION IF NOT EXISTS pg_trgm' }, ...missing];
}

/** Schema-sync steps bringing the search indexes in line with the registry (after the tables' own steps). */
export async function planSearchIndexes(db: Database, registry: Registry, existingIndexes: ReadonlySet<string>): Promise<Step[]> {
  return db.dialect.name === 'sqlite' ? sqliteSteps(db, registry) : postgresSteps(db, registry, existingIndexes);
}

/**
 * For `migrate --rename` (db/schema-rename.ts): the `_q` objects to drop before a column of
 * `table` is renamed or dropped. SQLite: the type's FTS table and triggers (the triggers name
 * the columns, and SQLite refuses to drop a column a trigger uses); PostgreSQL: the trigram
 * indexes of those columns, named after them. Schema sync, which runs next, finds them
 * missing and makes (and fills) them again under the new names. `IF EXISTS`: several renames
 * of one type in one call each ask for the same drops.
 */
export async function searchObjectDrops(db: Pick<Database, 'dialect'>, table: string, columns: string[]): Promise<Step[]> {
  if (db.dialect.name === 'postgres') {
    return columns
      .map((column) => SEARCH.trgmIndex(table, column))
      .map((name) => ({ description: `drop search index ${name}`, sql: `DROP INDEX IF EXISTS ${id(name)}` }));
  }
  const triggers = (['insert', 'update', 'delete'] as const).map((event) => SEARCH.trigger(table, event));
  return [
    ...triggers.map((name) => ({ description: `drop search trigger ${name}`, sql: `DROP TRIGGER IF EXISTS ${id(name)}` })),
    { description: `drop search index ${SEARCH.ftsTable(table)}`, sql: `DROP TABLE IF EXISTS ${id(SEARCH.ftsTable(table))}` },
  ];
}
