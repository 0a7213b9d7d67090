/**
 * Keeps content tables in step with the content types: creates what is missing
 * (tables, columns, indexes, link tables) and never drops or rewrites anything.
 * A removed attribute keeps its column and data; the plan says so.
 *
 * Storage model (see README "Storage"):
 *  - one table per content type, one row per version: (documentId, locale, draft|published);
 *  - one table per component, each row owned by (ownerType, ownerId, ownerField) in order;
 *  - one link table per owning relation attribute; a link belongs to the source version
 *    and names the target by documentId (+ locale/status), ordered by fractional keys on
 *    both sides.
 */
import type { Database } from './database';
import type { ContentType, Model, Registry } from '../registry/types';

export interface SyncStep {
  /** One line for humans (`migrate` prints it). */
  description: string;
  /** DDL to run; absent for notes that change nothing. */
  sql?: string;
}

interface ColumnSpec {
  name: string;
  definition: string;
}

interface TableSpec {
  name: string;
  columns: ColumnSpec[];
  /** Extra table constraints (UNIQUE, FOREIGN KEY) used only when the table is created. */
  constraints: string[];
  indexes: { name: string; sql: string }[];
  /** Columns that belonged to attributes; others are system columns. */
  attributeColumns: Set<string>;
}

/** System tables Folio owns; a content type or component may not reuse their names. */
export const SYSTEM_TABLE_PREFIX = 'folio_';
const SYSTEM_TABLES = new Set(['files', 'files_related_mph']);

export const COMPONENT_OWNER_COLUMNS = {
  type: '__ownerType',
  id: '__ownerId',
  field: '__ownerField',
  order: '__order',
} as const;

function attributeColumns(db: Database, model: Model): ColumnSpec[] {
  const columns: ColumnSpec[] = [];
  for (const attribute of Object.values(model.attributes)) {
    const type = db.dialect.columnType(attribute);
    if (type) columns.push({ name: attribute.name, definition: type });
  }
  return columns;
}

/** Attribute types a front end typically filters and sorts on (not long text, JSON or booleans). */
const SORTABLE_TYPES = new Set(['string', 'email', 'uid', 'enumeration', 'integer', 'biginteger', 'float', 'decimal', 'date', 'time', 'datetime', 'timestamp']);

/**
 * One index per sortable column, led by the locale, so a filtered and sorted page reads
 * its rows in order and stops after the page instead of sorting the table. With draft &
 * publish it covers the published versions only (what the public API reads), which keeps
 * draft writes cheap; the query's `"publishedAt" IS NOT NULL` lets the planner use it.
 */
function sortIndexes(db: Database, ct: ContentType): { name: string; sql: string }[] {
  const q = db.dialect.quote;
  const t = ct.tableName;
  const columns = [
    // The default order (`id`): the first page of a list stops after 25 rows.
    'id',
    ...Object.values(ct.attributes)
      .filter((a) => a.kind === 'scalar' && (SORTABLE_TYPES.has(a.type) || a.unique) && !a.private && a.type !== 'password')
      .map((a) => a.name),
    'createdAt',
    'updatedAt',
    ...(ct.draftAndPublish ? ['publishedAt'] : []),
  ];
  const where = ct.draftAndPublish ? ` WHERE ${q('publishedAt')} IS NOT NULL` : '';
  return columns.map((column) => ({
    name: `${t}_${column}_idx`,
    sql: `CREATE INDEX ${q(`${t}_${column}_idx`)} ON ${q(t)} (${q('locale')}, ${q(column)})${where}`,
  }));
}

/** Every table the registry needs, as the engine should create it. */
export function desiredTables(db: Database, registry: Registry): TableSpec[] {
  const q = db.dialect.quote;
  const text = db.dialect.textType;
  const tables: TableSpec[] = [];
  const ownerTables: { model: Model }[] = [];

  for (const ct of registry.contentTypes) {
    const attrs = attributeColumns(db, ct);
    const t = ct.tableName;
    tables.push({
      name: t,
      columns: [
        { name: 'id', definition: db.dialect.idColumn },
        { name: 'documentId', definition: `${text} NOT NULL` },
        // '' for types without i18n, so (documentId, locale, status) stays a usable unique key.
        { name: 'locale', definition: `${text} NOT NULL DEFAULT ''` },
        { name: 'createdAt', definition: `${text} NOT NULL` },
        { name: 'updatedAt', definition: `${text} NOT NULL` },
        // NULL marks the draft version of a draft & publish type.
        { name: 'publishedAt', definition: text },
        ...attrs,
      ],
      constraints: [],
      indexes: [
        {
          name: `${t}_version_uq`,
          sql: `CREATE UNIQUE INDEX ${q(`${t}_version_uq`)} ON ${q(t)} (${q('documentId')}, ${q('locale')}, (${q('publishedAt')} IS NULL))`,
        },
        {
          name: `${t}_list_idx`,
          sql: `CREATE INDEX ${q(`${t}_list_idx`)} ON ${q(t)} (${q('locale')}, ${q('publishedAt')})`,
        },
        ...sortIndexes(db, ct),
      ],
      attributeColumns: new Set(attrs.map((c) => c.name)),
    });
    ownerTables.push({ model: ct });
  }

  for (const component of registry.components) {
    const attrs = attributeColumns(db, component);
    const t = component.tableName;
    const o = COMPONENT_OWNER_COLUMNS;
    tables.push({
      name: t,
      columns: [
        { name: 'id', definition: db.dialect.idColumn },
        { name: o.type, definition: `${text} NOT NULL` },
        { name: o.id, definition: 'INTEGER NOT NULL' },
        { name: o.field, definition: `${text} NOT NULL` },
        { name: o.order, definition: 'INTEGER NOT NULL' },
        ...attrs,
      ],
      constraints: [],
      indexes: [
        {
          name: `${t}_owner_idx`,
          sql: `CREATE INDEX ${q(`${t}_owner_idx`)} ON ${q(t)} (${q(o.type)}, ${q(o.id)}, ${q(o.field)}, ${q(o.order)})`,
        },
      ],
      attributeColumns: new Set(attrs.map((c) => c.name)),
    });
    ownerTables.push({ model: component });
  }

  for (const { model } of ownerTables) {
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind !== 'relation' || !attribute.owner) continue;
      const t = attribute.linkTable;
      const key = db.dialect.orderKeyType;
      tables.push({
        name: t,
        columns: [
          { name: 'id', definition: db.dialect.idColumn },
          { name: 'sourceId', definition: `INTEGER NOT NULL REFERENCES ${q(model.tableName)}(${q('id')}) ON DELETE CASCADE` },
          { name: 'targetDocumentId', definition: `${text} NOT NULL` },
          // '' when the target has no i18n.
          { name: 'targetLocale', definition: `${text} NOT NULL DEFAULT ''` },
          // '' = the version matching the reader's status; 'draft'/'published' pins one.
          { name: 'targetStatus', definition: `${text} NOT NULL DEFAULT ''` },
          { name: 'position', definition: `${key} NOT NULL` },
          { name: 'inversePosition', definition: `${key} NOT NULL` },
        ],
        constraints: [`UNIQUE (${['sourceId', 'targetDocumentId', 'targetLocale', 'targetStatus'].map(q).join(', ')})`],
        indexes: [
          { name: `${t}_source_idx`, sql: `CREATE INDEX ${q(`${t}_source_idx`)} ON ${q(t)} (${q('sourceId')}, ${q('position')})` },
          {
            name: `${t}_target_idx`,
            sql: `CREATE INDEX ${q(`${t}_target_idx`)} ON ${q(t)} (${q('targetDocumentId')}, ${q('targetLocale')}, ${q('inversePosition')})`,
          },
        ],
        attributeColumns: new Set(),
      });
    }
  }

  for (const table of tables) {
    if (table.name.startsWith(SYSTEM_TABLE_PREFIX) || SYSTEM_TABLES.has(table.name)) {
      throw new Error(`Table name "${table.name}" is reserved for Folio's system tables; choose another collectionName`);
    }
  }
  return tables;
}

/** What syncing would do, step by step; empty when the database already matches. */
export async function planSchemaSync(db: Database, registry: Registry): Promise<SyncStep[]> {
  const q = db.dialect.quote;
  const existing = await db.schema();
  const steps: SyncStep[] = [];
  for (const table of desiredTables(db, registry)) {
    const have = existing.columns.get(table.name.toLowerCase());
    if (!have) {
      const body = [...table.columns.map((c) => `${q(c.name)} ${c.definition}`), ...table.constraints].join(',\n  ');
      steps.push({ description: `create table ${table.name}`, sql: `CREATE TABLE ${q(table.name)} (\n  ${body}\n)` });
    } else {
      for (const column of table.columns) {
        if (have.has(column.name)) continue;
        steps.push({
          description: `add column ${table.name}.${column.name}`,
          sql: `ALTER TABLE ${q(table.name)} ADD COLUMN ${q(column.name)} ${column.definition}`,
        });
      }
      const wanted = new Set(table.columns.map((c) => c.name));
      for (const column of have) {
        if (!wanted.has(column)) {
          steps.push({ description: `keep column ${table.name}.${column} (no attribute uses it any more; data kept)` });
        }
      }
    }
    for (const index of table.indexes) {
      if (!existing.indexes.has(index.name.toLowerCase())) {
        steps.push({ description: `create index ${index.name}`, sql: index.sql });
      }
    }
  }
  return steps;
}

/** Applies the plan in one transaction: a failing step leaves the database as it was. */
export async function applySchemaSync(db: Database, steps: SyncStep[]): Promise<void> {
  const ddl = steps.filter((s) => s.sql);
  if (ddl.length === 0) return;
  await db.transaction(async (tx) => {
    for (const step of ddl) await tx.exec(step.sql!);
  });
}
