/**
 * Multi-row writes for bulk creates (documents/write/bulk-insert.ts): a batch of new documents'
 * version rows and component rows go in a few statements per table instead of one per row.
 * Rows are inserted in the order given, so ids follow the order the one-by-one path would
 * give them (./insert-rows.ts: flat values beside kept statement texts).
 */
import type { AnyModel, Component, ContentType, RelationAttribute } from '../../registry/types';
import type { ScalarField } from '../../registry/fields/field';
import type { Queryable, SqlValue } from '../database';
import { COMPONENT_OWNER as O, LINK as L, linkTableOf, tableOf, VERSION as V } from '../layout';
import { sql } from '../sql';
import { columnFields } from './columns';
import type { ComponentOwner } from './components';
import { insertHead, insertRows, insertText, PARAMETERS_PER_STATEMENT } from './insert-rows';
import type { NewLink } from './links';
import type { VersionTimes } from './versions';

const id = (name: string) => sql.id(name);

/**
 * Appends the stored values of a row's attribute columns, in `columnFields` order: an attribute
 * the write leaves out is NULL, as an INSERT naming only the given ones stores it (no attribute
 * column has a default of its own).
 */
function pushAttributeValues(out: SqlValue[], fields: readonly ScalarField[], values: Record<string, unknown>): void {
  for (const field of fields) out.push(field.name in values ? field.toColumn(values[field.name]) : null);
}

const attributeColumns = (model: AnyModel, tx: Queryable) => columnFields(model, tx.dialect.name);

/** A version row to insert. */
export interface NewVersion {
  documentId: string;
  locale: string;
  times: VersionTimes;
  values: Record<string, unknown>;
}

/**
 * Inserts version rows; returns their ids in the order given. RETURNING rows come in no
 * promised order, so each is told apart by its (documentId, locale, draft or not), the
 * table's unique key.
 */
export async function insertVersions(tx: Queryable, ct: ContentType, versions: NewVersion[]): Promise<number[]> {
  if (versions.length === 0) return [];
  const fields = attributeColumns(ct, tx);
  const columns = [V.documentId, V.locale, V.createdAt, V.updatedAt, V.publishedAt].map(id).concat(fields.map((f) => id(f.name)));
  const values: SqlValue[] = [];
  for (const v of versions) {
    values.push(v.documentId, v.locale, v.times.createdAt, v.times.updatedAt, v.times.publishedAt);
    pushAttributeValues(values, fields, v.values);
  }
  const returned = await insertRows(tx, tableOf(ct), columns, values, sql.join([V.id, V.documentId, V.locale, V.publishedAt].map(id)));
  const key = (documentId: unknown, locale: unknown, draft: boolean) => `${documentId}\0${locale}\0${draft ? 'd' : 'p'}`;
  const ids = new Map<string, number>();
  for (const r of returned) ids.set(key(r[V.documentId], r[V.locale], r[V.publishedAt] === null), Number(r[V.id]));
  return versions.map((v) => ids.get(key(v.documentId, v.locale, v.times.publishedAt === null))!);
}

/** A component row to insert: its owner and its attribute values (JSON form). */
export interface NewComponentRow {
  owner: ComponentOwner;
  values: Record<string, unknown>;
}

/** Inserts rows of one component table, in the order given (their ids are not needed: they own nothing). */
export async function insertComponentRows(tx: Queryable, component: Component, rows: NewComponentRow[]): Promise<void> {
  if (rows.length === 0) return;
  const fields = attributeColumns(component, tx);
  const columns = [O.type, O.id, O.field, O.order].map(id).concat(fields.map((f) => id(f.name)));
  const values: SqlValue[] = [];
  for (const { owner, values: given } of rows) {
    values.push(owner.type, owner.id, owner.field, owner.order);
    pushAttributeValues(values, fields, given);
  }
  await insertRows(tx, tableOf(component), columns, values);
}

const LINK_COLUMNS = [L.sourceId, L.targetDocumentId, L.targetLocale, L.targetStatus, L.position, L.inversePosition].map(id);

const linkValues = (links: NewLink[]): SqlValue[] => {
  const values: SqlValue[] = [];
  for (const l of links) values.push(l.rowId, l.key.documentId, l.key.locale, l.key.status, l.rank, l.inverseRank);
  return values;
};

/** Inserts link rows of one relation attribute, in the order given (many rows in one statement). */
async function insertLinkRows(tx: Queryable, attribute: RelationAttribute, links: NewLink[]): Promise<void> {
  if (links.length === 0) return;
  await insertRows(tx, linkTableOf(attribute), LINK_COLUMNS, linkValues(links));
}

/**
 * Inserts the link rows of several attributes, each in the order given. PostgreSQL takes them
 * in one statement, the first attributes' INSERTs as data-modifying WITH clauses (they touch
 * different tables, so running together changes nothing): a create with a category, an
 * author and tags paid a round trip per link table, while holding its pooled connection
 * and its locks. SQLite has no INSERT in WITH, and a statement there costs no round trip:
 * one statement per table.
 */
export async function insertLinkRowsOf(tx: Queryable, writes: [RelationAttribute, NewLink[]][]): Promise<void> {
  const some = writes.filter(([, links]) => links.length > 0);
  const parameters = some.reduce((n, [, links]) => n + links.length * LINK_COLUMNS.length, 0);
  if (tx.dialect.name !== 'postgres' || some.length < 2 || parameters > PARAMETERS_PER_STATEMENT) {
    for (const [attribute, links] of some) await insertLinkRows(tx, attribute, links);
    return;
  }
  const parts = some.map(([attribute, links]) => insertText(insertHead(linkTableOf(attribute), LINK_COLUMNS), LINK_COLUMNS.length, links.length, ''));
  const last = parts.pop()!;
  const text = `WITH ${parts.map((part, i) => `l${i} AS (${part})`).join(', ')} ${last}`;
  await tx.run(
    text,
    some.flatMap(([, links]) => linkValues(links)),
  );
}

/**
 * Of some published rows just inserted, those whose value of a unique field another
 * document's published row in the same locale already held before them: a row with a
 * lower id (the rows before the batch, and the batch's earlier documents, which were
 * inserted in order). That is the check a one-by-one create makes before each insert,
 * with the engine's own `=`, for a whole batch in one statement per chunk. Rows committed by
 * others have lower ids too: SQLite has one writer, and on PostgreSQL a Folio writer of the
 * same value waits for the value's lock (documents/write/locks.ts), taken before these rows got ids.
 */
export async function uniqueClashes(tx: Queryable, ct: ContentType, field: ScalarField, rowIds: number[]): Promise<Set<number>> {
  const clashes = new Set<number>();
  const col = (alias: string, name: string) => sql.id(alias, name);
  for (let start = 0; start < rowIds.length; start += PARAMETERS_PER_STATEMENT) {
    const ids = rowIds.slice(start, start + PARAMETERS_PER_STATEMENT);
    const rows = await tx.all<{ i: number }>(
      sql`SELECT ${col('b', V.id)} AS i FROM ${tableOf(ct)} b WHERE ${col('b', V.id)} IN (${sql.list(ids)}) AND ${col('b', field.name)} IS NOT NULL
        AND EXISTS (SELECT 1 FROM ${tableOf(ct)} o WHERE ${col('o', field.name)} = ${col('b', field.name)} AND ${col('o', V.locale)} = ${col('b', V.locale)}
          AND ${col('o', V.publishedAt)} IS NOT NULL AND ${col('o', V.documentId)} <> ${col('b', V.documentId)} AND ${col('o', V.id)} < ${col('b', V.id)})`,
    );
    for (const r of rows) clashes.add(Number(r.i));
  }
  return clashes;
}

/**
 * Settings for a bulk load on the importing process's own writer connection; they end with it
 * (nothing is stored in the file, and other connections, a serving Folio's included, keep
 * theirs). SQLite:
 *  - a page cache of up to 256 MiB instead of the server's 2 MiB: an import inserts all over a
 *    dozen indexes (random documentIds, views, search terms), and with the small cache each
 *    insert re-read pages from the OS (system time doubled the CPU cost at 100,000 articles);
 *  - the commit that takes the WAL past 65,536 pages (256 MiB at 4 KiB) checkpoints it: a writer that never pauses never
 *    lets the background checkpointer (db/sqlite.ts) catch up, and the WAL grew without bound
 *    (700 MiB at 83,000 articles, twice the database). Measured: no slower than leaving it all
 *    to the background thread; a 40 MiB bound cost ~10 %.
 * Durability is untouched: journal mode and `synchronous` stay as the server has them.
 */
export async function bulkLoadSettings(db: Queryable): Promise<void> {
  if (db.dialect.name !== 'sqlite') return;
  await db.exec(`PRAGMA cache_size = -${256 * 1024}; PRAGMA wal_autocheckpoint = 65536`);
}
