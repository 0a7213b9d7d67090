/**
 * Keeps content tables in step with the content types: creates what is missing
 * (tables, columns, indexes, link tables) and never drops or rewrites anything.
 * A removed attribute keeps its column and data; the plan says so.
 *
 * Storage model (see docs/deploy.md "Storage"):
 *  - one table per content type, one row per version: (documentId, locale, draft|published);
 *  - one table per component, each row owned by (ownerType, ownerId, ownerField) in order;
 *  - one link table per owning relation attribute; a link belongs to the source version
 *    and names the target by documentId (+ locale/status), ordered by fractional keys on
 *    both sides.
 */
import type { Database, ExistingSchema, Queryable } from './database';
import type { ContentType, Model, Registry } from '../registry/types';
import { COMPONENT_ID, COMPONENT_OWNER, indexName, legacyName, LINK, MORPH_LINK, RESERVED_TABLES, SYSTEM_TABLE_PREFIX, VERSION } from './layout';
import { sql, type Sql } from './sql';
import { planSearchIndexes } from './search-index';
import { planCountTriggers } from './counts';
import { planSchemaChanges } from './schema-changes';
import { USER_UID } from '../registry/system-models';

// Kept for the modules that still import the owner columns from here (layout.ts owns them).
export { COMPONENT_OWNER as COMPONENT_OWNER_COLUMNS } from './layout';

export interface SyncStep {
  /** One line for humans (`migrate` prints it). */
  description: string;
  /** DDL to run; absent for notes that change nothing. With `statements`, only their text, shown by `migrate`. */
  sql?: string;
  /** Statements with bound values (db/schema-changes.ts: defaults, the snapshot), run instead of `sql`. */
  statements?: Sql[];
  /** A note about data that could be lost or hidden: `serve` logs it as a warning, `migrate` prints it. */
  warning?: boolean;
  /** Draft & publish turned off or on (db/schema-changes.ts): rows the document layer writes, run instead of `sql` (its text is a note). */
  drafts?: DraftToggle;
}

/** A content type whose draft & publish changed: off deletes its drafts, on makes a draft of each published version. */
export interface DraftToggle {
  uid: string;
  turn: 'off' | 'on';
}

/**
 * What writes the rows of a DraftToggle step, in the sync's transaction: versions own
 * components, links and media, which the document layer (above db/) copies and deletes;
 * the composition root passes it in.
 */
export type DraftToggleRunner = (tx: Queryable, toggle: DraftToggle) => Promise<void>;

interface ColumnSpec {
  name: string;
  definition: Sql;
}

interface TableSpec {
  name: string;
  columns: ColumnSpec[];
  /** Extra table constraints (UNIQUE, FOREIGN KEY) used only when the table is created. */
  constraints: Sql[];
  indexes: { name: string; sql: string }[];
  /** Columns that belonged to attributes; others are system columns. */
  attributeColumns: Set<string>;
  /** A system table (made by a migration) that only gains the columns of extension attributes. */
  extended?: boolean;
  /** The content type whose versions the table holds. */
  contentType?: ContentType;
}

const id = (name: string) => sql.id(name);

/** DDL text of a builder statement: DDL takes no parameters, so every value must be spelled in the text. */
function ddl(statement: Sql): string {
  if (statement.values.length) throw new Error('DDL cannot carry parameters');
  return statement.compile('question').text;
}

/** Columns of the fields stored in the model's own table, typed for the engine. */
function attributeColumns(db: Pick<Database, 'dialect'>, model: Model): ColumnSpec[] {
  const columns: ColumnSpec[] = [];
  for (const field of Object.values(model.fields)) {
    const type = field.columnType(db.dialect.name);
    if (type !== undefined) columns.push({ name: field.name, definition: sql.raw(type) });
  }
  return columns;
}

function indexSpec(name: string, table: string, keys: Sql[], options: { unique?: boolean; where?: Sql } = {}) {
  const unique = options.unique ? sql.raw('UNIQUE ') : sql.empty;
  const where = options.where ? sql` WHERE ${options.where}` : sql.empty;
  return { name, sql: ddl(sql`CREATE ${unique}INDEX ${id(name)} ON ${id(table)} (${sql.join(keys)})${where}`) };
}

/**
 * One index per indexed field's column, led by the locale, so a filtered and sorted page
 * reads its rows in order and stops after the page instead of sorting the table. With draft &
 * publish it covers the published versions only (what the public API reads), which keeps
 * draft writes cheap; the query's published-only condition lets the planner use it.
 */
function sortIndexes(ct: ContentType): { name: string; sql: string }[] {
  const t = ct.tableName;
  const columns = [
    // The default order (row id): the first page of a list stops after 25 rows.
    VERSION.id,
    ...Object.values(ct.fields)
      .filter((f) => f.kind === 'scalar' && f.indexed)
      .map((f) => f.name),
    VERSION.createdAt,
    VERSION.updatedAt,
    ...(ct.draftAndPublish ? [VERSION.publishedAt] : []),
  ];
  const where = ct.draftAndPublish ? sql`${id(VERSION.publishedAt)} IS NOT NULL` : undefined;
  return columns.map((column) => indexSpec(indexName(t, `${column}_idx`), t, [id(VERSION.locale), id(column)], { where }));
}

/**
 * The sort indexes of a type whose draft & publish changed, as they exist: they cover the
 * published versions only with draft & publish (a list without it could not use them), all
 * versions without; planSchemaSync makes the wanted ones again. The publishedAt index of a
 * type that no longer has draft & publish goes.
 */
function dropSortIndexes(ct: ContentType, existing: ExistingSchema): { name: string; step: SyncStep }[] {
  const names = new Set(sortIndexes(ct).map((i) => i.name));
  names.add(indexName(ct.tableName, `${VERSION.publishedAt}_idx`));
  return [...names]
    .filter((name) => existing.indexes.has(name.toLowerCase()))
    .map((name) => ({ name, step: { description: `drop index ${name} (draft & publish changed)`, sql: ddl(sql`DROP INDEX ${id(name)}`) } }));
}

/** Every table the registry needs, as the engine should create it. */
export function desiredTables(db: Pick<Database, 'dialect'>, registry: Registry): TableSpec[] {
  const text = db.dialect.textType;
  const type = (definition: string) => sql.raw(definition);
  const rowId = type(db.dialect.idColumn);
  const tables: TableSpec[] = [];
  const ownerTables: { model: Model }[] = [];

  for (const ct of registry.contentTypes) {
    const attrs = attributeColumns(db, ct);
    const t = ct.tableName;
    const v = VERSION;
    tables.push({
      name: t,
      columns: [
        { name: v.id, definition: rowId },
        { name: v.documentId, definition: type(`${text} NOT NULL`) },
        // '' for types without i18n, so (documentId, locale, status) stays a usable unique key.
        { name: v.locale, definition: type(`${text} NOT NULL DEFAULT ''`) },
        { name: v.createdAt, definition: type(`${text} NOT NULL`) },
        { name: v.updatedAt, definition: type(`${text} NOT NULL`) },
        // NULL marks the draft version of a draft & publish type.
        { name: v.publishedAt, definition: type(text) },
        ...attrs,
      ],
      constraints: [],
      indexes: [
        indexSpec(indexName(t, 'version_uq'), t, [id(v.documentId), id(v.locale), sql`(${id(v.publishedAt)} IS NULL)`], { unique: true }),
        indexSpec(indexName(t, 'list_idx'), t, [id(v.locale), id(v.publishedAt)]),
        ...sortIndexes(ct),
      ],
      attributeColumns: new Set(attrs.map((c) => c.name)),
      contentType: ct,
    });
    ownerTables.push({ model: ct });
  }

  // The users table gains the columns of the project's user extension schema; its links and
  // components are kept like any model's.
  const user = registry.contentType(USER_UID);
  if (user) {
    const attrs = attributeColumns(db, user);
    tables.push({ name: user.tableName, columns: attrs, constraints: [], indexes: [], attributeColumns: new Set(attrs.map((c) => c.name)), extended: true });
    ownerTables.push({ model: user });
  }

  for (const component of registry.components) {
    const attrs = attributeColumns(db, component);
    const t = component.tableName;
    const o = COMPONENT_OWNER;
    tables.push({
      name: t,
      columns: [
        { name: COMPONENT_ID, definition: rowId },
        { name: o.type, definition: type(`${text} NOT NULL`) },
        { name: o.id, definition: type('INTEGER NOT NULL') },
        { name: o.field, definition: type(`${text} NOT NULL`) },
        { name: o.order, definition: type('INTEGER NOT NULL') },
        ...attrs,
      ],
      constraints: [],
      indexes: [indexSpec(indexName(t, 'owner_idx'), t, [o.type, o.id, o.field, o.order].map(id))],
      attributeColumns: new Set(attrs.map((c) => c.name)),
    });
    ownerTables.push({ model: component });
  }

  for (const { model } of ownerTables) {
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind !== 'relation' || !attribute.owner) continue;
      const t = attribute.linkTable;
      const key = db.dialect.orderKeyType;
      const l = LINK;
      // Content and component rows share the key column name (VERSION.id = COMPONENT_ID).
      const source = sql`INTEGER NOT NULL REFERENCES ${id(model.tableName)}(${id(VERSION.id)}) ON DELETE CASCADE`;
      tables.push({
        name: t,
        columns: [
          { name: l.id, definition: rowId },
          { name: l.sourceId, definition: source },
          { name: l.targetDocumentId, definition: type(`${text} NOT NULL`) },
          // '' when the target has no i18n.
          { name: l.targetLocale, definition: type(`${text} NOT NULL DEFAULT ''`) },
          // '' = the version matching the reader's status; 'draft'/'published' pins one.
          { name: l.targetStatus, definition: type(`${text} NOT NULL DEFAULT ''`) },
          { name: l.position, definition: type(`${key} NOT NULL`) },
          { name: l.inversePosition, definition: type(`${key} NOT NULL`) },
        ],
        constraints: [sql`UNIQUE (${sql.join([l.sourceId, l.targetDocumentId, l.targetLocale, l.targetStatus].map(id))})`],
        indexes: [
          indexSpec(indexName(t, 'source_idx'), t, [l.sourceId, l.position].map(id)),
          indexSpec(indexName(t, 'target_idx'), t, [l.targetDocumentId, l.targetLocale, l.inversePosition].map(id)),
        ],
        attributeColumns: new Set(),
      });
    }
  }

  for (const ct of registry.contentTypes) {
    for (const attribute of Object.values(ct.attributes)) {
      if (attribute.kind === 'morph' && attribute.owner) tables.push(morphLinkTable(db, ct, attribute.linkTable, rowId));
    }
  }

  for (const table of tables) {
    if (table.extended) continue;
    if (table.name.startsWith(SYSTEM_TABLE_PREFIX) || RESERVED_TABLES.has(table.name)) {
      throw new Error(`Table name "${table.name}" is reserved for Folio's system tables; choose another collectionName`);
    }
  }
  return tables;
}

/** The link table of a morphToOne / morphToMany attribute: links name a type and a document (layout.ts MORPH_LINK). */
function morphLinkTable(db: Pick<Database, 'dialect'>, owner: ContentType, t: string, rowId: Sql): TableSpec {
  const m = MORPH_LINK;
  const text = db.dialect.textType;
  const type = (definition: string) => sql.raw(definition);
  return {
    name: t,
    columns: [
      { name: m.id, definition: rowId },
      { name: m.sourceId, definition: sql`INTEGER NOT NULL REFERENCES ${id(owner.tableName)}(${id(VERSION.id)}) ON DELETE CASCADE` },
      { name: m.targetType, definition: type(`${text} NOT NULL`) },
      { name: m.targetDocumentId, definition: type(`${text} NOT NULL`) },
      { name: m.targetLocale, definition: type(`${text} NOT NULL DEFAULT ''`) },
      { name: m.targetStatus, definition: type(`${text} NOT NULL DEFAULT ''`) },
      { name: m.position, definition: type(`${db.dialect.orderKeyType} NOT NULL`) },
    ],
    constraints: [],
    indexes: [
      indexSpec(indexName(t, 'source_idx'), t, [m.sourceId, m.position].map(id)),
      indexSpec(indexName(t, 'target_idx'), t, [m.targetType, m.targetDocumentId, m.targetLocale].map(id)),
    ],
    attributeColumns: new Set(),
  };
}

/** What syncing would do, step by step; empty when the database already matches. */
export async function planSchemaSync(db: Database, registry: Registry): Promise<SyncStep[]> {
  const existing = await db.schema();
  // Warnings, type conversions and the snapshot (db/schema-changes.ts); a refused conversion throws here, before anything runs.
  const changes = await planSchemaChanges(db, registry, existing);
  const steps: SyncStep[] = [...changes.before];
  const tables = desiredTables(db, registry);
  const adopted = adoptLongNames(db, tables, existing);
  steps.push(...adopted.steps);
  for (const table of tables) {
    const have = existing.columns.get(table.name.toLowerCase()) ?? adopted.tables.get(table.name);
    // A system table a migration makes (a dry run plans before the migrations ran): nothing to plan.
    if (!have && table.extended) continue;
    if (!have) {
      const body = sql.join([...table.columns.map((c) => sql`${id(c.name)} ${c.definition}`), ...table.constraints], ',\n  ');
      steps.push({ description: `create table ${table.name}`, sql: ddl(sql`CREATE TABLE ${id(table.name)} (\n  ${body}\n)`) });
    } else {
      for (const column of table.columns) {
        if (have.has(column.name)) continue;
        steps.push({
          description: `add column ${table.name}.${column.name}`,
          sql: ddl(sql`ALTER TABLE ${id(table.name)} ADD COLUMN ${id(column.name)} ${column.definition}`),
        });
      }
      const wanted = new Set(table.columns.map((c) => c.name));
      for (const column of table.extended ? [] : have) {
        if (!wanted.has(column)) {
          steps.push({ description: `keep column ${table.name}.${column} (no attribute uses it any more; data kept)` });
        }
      }
    }
    const dropped = table.contentType && changes.toggled.has(table.contentType.uid) ? dropSortIndexes(table.contentType, existing) : [];
    steps.push(...dropped.map((d) => d.step));
    for (const index of table.indexes) {
      if (dropped.some((d) => d.name === index.name) || (!existing.indexes.has(index.name.toLowerCase()) && !adopted.indexes.has(index.name))) {
        steps.push({ description: `create index ${index.name}`, sql: index.sql });
      }
    }
  }
  // Last: the `_q` indexes read the tables and columns made above.
  steps.push(...(await planSearchIndexes(db, registry, existing.indexes)));
  // Triggers keeping list totals (db/counts.ts), and the count of a table that had none.
  steps.push(...(await planCountTriggers(db, registry)));
  // After the columns exist: defaults written into old rows, then the snapshot of what was applied.
  steps.push(...changes.after);
  return steps;
}

/**
 * Tables and indexes an older Folio made under a name now fitted to 63 bytes (layout.ts
 * fitIdentifier): the whole name on SQLite, PostgreSQL's cut of it there. A table is renamed
 * (its rows, columns and indexes go with it); an index is renamed on PostgreSQL, remade on
 * SQLite (which cannot rename one). A cut name several wanted names share cannot have been
 * made for one of them in particular (PostgreSQL refused the second): it is dropped and each
 * is made anew. Without this, the new names would be made empty beside the old ones.
 */
function adoptLongNames(db: Database, tables: TableSpec[], existing: ExistingSchema) {
  const engine = db.dialect.name;
  const steps: SyncStep[] = [];
  const adoptedTables = new Map<string, Set<string>>();
  const adoptedIndexes = new Set<string>();
  const claims = new Map<string, number>();
  const claim = (name: string) => {
    const legacy = legacyName(name, engine);
    if (legacy) claims.set(legacy.toLowerCase(), (claims.get(legacy.toLowerCase()) ?? 0) + 1);
  };
  for (const table of tables) [table.name, ...table.indexes.map((i) => i.name)].forEach(claim);
  const dropped = new Set<string>();
  for (const table of tables) {
    const legacy = legacyName(table.name, engine);
    const columns = legacy && existing.columns.get(legacy.toLowerCase());
    if (columns && !existing.columns.has(table.name.toLowerCase()) && claims.get(legacy.toLowerCase()) === 1) {
      steps.push({
        description: `rename table ${legacy} to ${table.name} (fitted to 63 bytes)`,
        sql: ddl(sql`ALTER TABLE ${id(legacy)} RENAME TO ${id(table.name)}`),
      });
      adoptedTables.set(table.name, columns);
    }
    for (const index of table.indexes) {
      const old = legacyName(index.name, engine);
      if (!old || !existing.indexes.has(old.toLowerCase()) || existing.indexes.has(index.name.toLowerCase())) continue;
      if (engine === 'postgres' && claims.get(old.toLowerCase()) === 1) {
        steps.push({
          description: `rename index ${old} to ${index.name} (fitted to 63 bytes)`,
          sql: ddl(sql`ALTER INDEX ${id(old)} RENAME TO ${id(index.name)}`),
        });
        adoptedIndexes.add(index.name);
      } else if (!dropped.has(old.toLowerCase())) {
        dropped.add(old.toLowerCase());
        steps.push({ description: `drop index ${old} (made again as ${index.name}, fitted to 63 bytes)`, sql: ddl(sql`DROP INDEX ${id(old)}`) });
      }
    }
  }
  return { steps, tables: adoptedTables, indexes: adoptedIndexes };
}

/**
 * Applies the plan in one transaction: a failing step leaves the database as it was. Without
 * `drafts` (a copy or an import that replaces every row afterwards) draft & publish steps are
 * left out.
 */
export async function applySchemaSync(db: Database, steps: SyncStep[], drafts?: DraftToggleRunner): Promise<void> {
  const ddl = steps.filter((s) => (s.drafts ? drafts : s.sql || s.statements));
  if (ddl.length === 0) return;
  await db.transaction(async (tx) => {
    for (const step of ddl) {
      if (step.drafts) await drafts!(tx, step.drafts);
      else if (step.statements) for (const statement of step.statements) await tx.run(statement);
      else await tx.exec(step.sql!);
    }
  });
}
