/**
 * The part of schema sync that looks at data: compares the schema files with the snapshot
 * of the schema last synced (db/schema-diff.ts, table from migration 0008) and with what the
 * tables hold, and plans
 *  - warnings about what could lose or hide data (an attribute removed while its storage
 *    holds values, one that looks renamed, a new `required` that rows lack, a new `unique`
 *    that rows repeat, a type change);
 *  - the clean type conversions (PostgreSQL changes the column type; SQLite's values
 *    already fit the column's affinity), and a refusal, naming the file and attribute, of
 *    every other type change;
 *  - the default of a new required attribute written into the rows that lack it;
 *  - draft & publish turned off or on for a content type (Strapi 5's draft-publish
 *    migrations): its drafts deleted, or a draft made of every published version; the steps
 *    name what they do, the document layer does it (SyncStep `drafts`, run by applySchemaSync);
 *  - the new snapshot, last.
 */
import { compileField, type ScalarField } from '../registry/fields';
import { SchemaError, type AnyModel, type ContentType, type Registry, type ScalarAttribute } from '../registry/types';
import type { ExistingSchema, Queryable } from './database';
import { COMPONENT_ID, COMPONENT_OWNER, linkTableName, MEDIA_LINKS, SYSTEM, VERSION } from './layout';
import { CLEAN_CONVERSIONS, diffSnapshots, snapshotOf, type AttributeShape, type ModelDiff, type Snapshot } from './schema-diff';
import { sql, type Sql } from './sql';
import type { SyncStep } from './schema-sync';
import { statusIs, unpairedVersions } from './store/versions';

const id = (name: string) => sql.id(name);
/** How many documentIds a warning names. */
const SHOWN = 5;

/** The snapshot last written, or undefined when there is none (a new installation, or one that predates 0008). */
export async function readSnapshot(db: Queryable, existing: ExistingSchema): Promise<Snapshot | undefined> {
  if (!existing.columns.has(SYSTEM.schemaSnapshot)) return undefined;
  const rows = await db.all<{ uid: string; shape: string }>(sql`SELECT "uid", "shape" FROM ${id(SYSTEM.schemaSnapshot)}`);
  if (rows.length === 0) return undefined;
  return Object.fromEntries(rows.map((r) => [r.uid, JSON.parse(r.shape)]));
}

/** The statement writing one model's shape (`migrate --rename` rewrites one too). */
export const writeShape = (uid: string, shape: unknown, now: string): Sql =>
  sql`INSERT INTO ${id(SYSTEM.schemaSnapshot)} ("uid", "shape", "syncedAt") VALUES (${uid}, ${JSON.stringify(shape)}, ${now})`;

/** The name `migrate --rename` takes for a model: a content type's singularName, a component's uid. */
export const renameName = (model: AnyModel) => (model.modelType === 'contentType' ? model.singularName : model.uid);

async function count(db: Queryable, statement: Sql): Promise<number> {
  const row = await db.get<{ n: unknown }>(statement);
  return Number(row?.n ?? 0);
}

const describe = (shape: AttributeShape) => (shape.kind === 'scalar' ? shape.type! : shape.target ? `${shape.kind} (${shape.target})` : shape.kind);

/** A field for a scalar type the schema no longer declares (to know its column type). */
const scalarOf = (name: string, type: string) =>
  compileField({
    kind: 'scalar',
    name,
    type,
    required: false,
    private: false,
    localized: false,
    writable: true,
    unique: false,
  } as ScalarAttribute) as ScalarField;

export interface ChangePlan {
  /** Before the tables' own steps: type conversions. */
  before: SyncStep[];
  /** After them (new columns exist): defaults written, drafts deleted or made, then the new snapshot. */
  after: SyncStep[];
  /** Content types whose draft & publish changed: their sort indexes, partial with it, are made again. */
  toggled: Set<string>;
}

export async function planSchemaChanges(db: Queryable, registry: Registry, existing: ExistingSchema): Promise<ChangePlan> {
  const plan: ChangePlan = { before: [], after: [], toggled: new Set() };
  const warn = (text: string) => plan.before.push({ description: `warning: ${text}`, warning: true });
  const previous = await readSnapshot(db, existing);
  const columnsOf = (model: AnyModel) => existing.columns.get(model.tableName.toLowerCase());

  // Leftover columns holding values: at every start, as long as the data stays hidden there.
  for (const model of [...registry.contentTypes, ...registry.components]) {
    const have = columnsOf(model);
    if (!have) continue;
    const system: string[] = model.modelType === 'contentType' ? Object.values(VERSION) : [COMPONENT_ID, ...Object.values(COMPONENT_OWNER)];
    for (const column of have) {
      if (system.includes(column) || model.fields[column]?.columnType(db.dialect.name) !== undefined) continue;
      const n = await count(db, sql`SELECT COUNT(*) AS n FROM ${id(model.tableName)} WHERE ${id(column)} IS NOT NULL`);
      if (n > 0) {
        warn(
          `${renameName(model)}.${column} is no longer in ${model.file}, but its column ${model.tableName}.${column} still holds values in ${n} row(s): kept, not served`,
        );
      }
    }
  }

  const diffs = previous ? diffSnapshots(previous, snapshotOf(registry)) : [];
  for (const diff of diffs) {
    const model = registry.get(diff.uid)!;
    const before = previous![diff.uid];
    await removedStorage(db, model, diff, previous!, existing, warn);
    for (const [from, to] of diff.renamed) {
      warn(
        `${renameName(model)}: "${from}" is gone from ${model.file} and "${to}" is new, both ${describe(before.attributes[from])}. ` +
          `If it is a rename, move the data with: folio migrate --rename ${renameName(model)}.${from}=${to}`,
      );
    }
    for (const change of diff.typeChanged) {
      const { name, from, to } = change;
      const what = `changed from ${describe(from)} to ${describe(to)}`;
      if (change.conversion === 'refuse') {
        throw new SchemaError(
          model.file,
          name,
          `${what}, which Folio cannot convert without losing or misreading stored values (clean conversions: ${CLEAN_CONVERSIONS}). ` +
            `Restore the type, or declare a new attribute under another name`,
        );
      }
      const column = model.fields[name] as ScalarField;
      const type = column.columnType(db.dialect.name);
      const old = scalarOf(name, from.type!).columnType(db.dialect.name);
      const t = model.tableName;
      // SQLite keeps whatever a value is under the column's affinity: an INTEGER column holds the
      // reals a float writes, TEXT any text. PostgreSQL's column must change type.
      if (db.dialect.name === 'postgres' && type !== old && columnsOf(model)?.has(name)) {
        const statement = `ALTER TABLE ${id(t)} ALTER COLUMN ${id(name)} TYPE ${type} USING ${id(name)}::${type}`;
        plan.before.push({ description: `convert ${t}.${name} from ${from.type} to ${to.type}`, sql: statement });
      } else {
        plan.before.push({ description: `convert ${t}.${name} from ${from.type} to ${to.type} (stored values already fit)` });
      }
      warn(`${renameName(model)}.${name} ${what}: stored values convert`);
    }
    for (const name of diff.newlyRequired) await newlyRequired(db, model, name, columnsOf(model)?.has(name) ?? false, plan, warn);
    if (model.modelType === 'contentType') {
      for (const name of diff.newlyUnique) if (columnsOf(model)?.has(name)) await newlyUnique(db, model, name, warn);
    }
  }

  for (const ct of registry.contentTypes) {
    const steps = columnsOf(ct) ? await draftToggle(db, ct, previous?.[ct.uid]?.draftAndPublish, existing) : [];
    if (steps.length) plan.toggled.add(ct.uid);
    plan.after.push(...steps);
  }

  const next = snapshotOf(registry);
  if (!previous || JSON.stringify(sortedByUid(previous)) !== JSON.stringify(sortedByUid(next))) {
    const now = new Date().toISOString();
    const statements = [sql`DELETE FROM ${id(SYSTEM.schemaSnapshot)}`, ...Object.entries(next).map(([uid, shape]) => writeShape(uid, shape, now))];
    plan.after.push({
      description: `record the schema of ${Object.keys(next).length} model(s) (what the next start compares with)`,
      statements,
      sql: `-- ${statements.length} statement(s) into ${SYSTEM.schemaSnapshot}`,
    });
  }
  return plan;
}

/** Snapshots compare as text: the stored one comes back in the engine's row order, so both are put in uid order. */
function sortedByUid(snapshot: Snapshot): Snapshot {
  return Object.fromEntries(Object.entries(snapshot).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Relations, components and media removed while rows still hold them (a scalar's column is warned about above). */
async function removedStorage(db: Queryable, model: AnyModel, diff: ModelDiff, previous: Snapshot, existing: ExistingSchema, warn: (text: string) => void) {
  for (const name of diff.removed) {
    const shape = previous[model.uid].attributes[name];
    let n = 0;
    let where = '';
    if (shape.kind === 'relation') {
      const table = linkTableName(model.tableName, name);
      if (!existing.columns.has(table.toLowerCase())) continue;
      n = await count(db, sql`SELECT COUNT(*) AS n FROM ${id(table)}`);
      where = `its link table ${table}`;
    } else if (shape.kind === 'component' || shape.kind === 'dynamiczone') {
      n = await componentRows(db, model.uid, name, shape, previous, existing);
      where = 'component rows';
    } else if (shape.kind === 'media') {
      n = await count(
        db,
        sql`SELECT COUNT(*) AS n FROM ${id(MEDIA_LINKS.table)} WHERE ${id(MEDIA_LINKS.relatedType)} = ${model.uid} AND ${id(MEDIA_LINKS.field)} = ${name}`,
      );
      where = 'media links';
    }
    if (n > 0) warn(`${renameName(model)}.${name} (${describe(shape)}) is no longer in ${model.file}, but ${n} of ${where} still hold it: kept, not served`);
  }
}

/** Component rows owned by `uid`.`field`, over every component table the shape names that exists. */
async function componentRows(db: Queryable, uid: string, field: string, shape: AttributeShape, previous: Snapshot, existing: ExistingSchema): Promise<number> {
  let n = 0;
  for (const table of componentTables(shape, previous, existing)) {
    n += await count(db, sql`SELECT COUNT(*) AS n FROM ${id(table)} WHERE ${id(COMPONENT_OWNER.type)} = ${uid} AND ${id(COMPONENT_OWNER.field)} = ${field}`);
  }
  return n;
}

/** The tables of the components a component attribute or dynamic zone held (as last synced), those that exist. */
export function componentTables(shape: AttributeShape, previous: Snapshot, existing: ExistingSchema): string[] {
  const tables = (shape.target ?? '').split(',').map((uid) => previous[uid]?.tableName);
  return tables.filter((t): t is string => !!t && existing.columns.has(t.toLowerCase()));
}

async function newlyRequired(db: Queryable, model: AnyModel, name: string, hasColumn: boolean, plan: ChangePlan, warn: (text: string) => void) {
  const field = model.fields[name];
  if (field?.kind !== 'scalar') return;
  const t = id(model.tableName);
  const lacking = hasColumn ? sql`${id(name)} IS NULL` : sql`1 = 1`;
  const fallback = field.attribute.default;
  if (fallback !== undefined && fallback !== null) {
    const n = await count(db, sql`SELECT COUNT(*) AS n FROM ${t} WHERE ${lacking}`);
    if (n === 0) return;
    const value = field.toColumn(field.normalise(fallback));
    const statement = sql`UPDATE ${t} SET ${id(name)} = ${value} WHERE ${id(name)} IS NULL`;
    plan.after.push({
      description: `write the default of new required ${renameName(model)}.${name} into ${n} row(s)`,
      statements: [statement],
      sql: statement.toString(),
    });
    return;
  }
  // Drafts may lack a required value; what must hold it is what is published.
  const ct = model.modelType === 'contentType' ? (model as ContentType) : undefined;
  const published = ct?.draftAndPublish ? sql` AND ${id(VERSION.publishedAt)} IS NOT NULL` : sql.empty;
  if (!ct) {
    const n = await count(db, sql`SELECT COUNT(*) AS n FROM ${t} WHERE ${lacking}`);
    if (n > 0) warn(`${model.uid}.${name} is now required, but ${n} component row(s) have no value`);
    return;
  }
  const n = await count(db, sql`SELECT COUNT(DISTINCT ${id(VERSION.documentId)}) AS n FROM ${t} WHERE ${lacking}${published}`);
  if (n === 0) return;
  const rows = await db.all<{ d: string }>(
    sql`SELECT DISTINCT ${id(VERSION.documentId)} AS d FROM ${t} WHERE ${lacking}${published} ORDER BY ${id(VERSION.documentId)} LIMIT ${SHOWN}`,
  );
  warn(
    `${renameName(model)}.${name} is now required (${model.file}), but ${n} document(s) have no value: ${rows.map((r) => r.d).join(', ')}${n > SHOWN ? ', …' : ''}. ` +
      'Give it a "default" to fill them, or set them; updates that do not send it still succeed',
  );
}

async function newlyUnique(db: Queryable, model: AnyModel, name: string, warn: (text: string) => void) {
  const ct = model as ContentType;
  const published = ct.draftAndPublish ? sql` AND ${id(VERSION.publishedAt)} IS NOT NULL` : sql.empty;
  // Unique holds per locale among published versions, as the write path checks it.
  const groups = await db.all<{ v: unknown; n: unknown }>(
    sql`SELECT ${id(name)} AS v, COUNT(*) AS n FROM ${id(ct.tableName)} WHERE ${id(name)} IS NOT NULL${published}
        GROUP BY ${id(VERSION.locale)}, ${id(name)} HAVING COUNT(*) > 1 ORDER BY COUNT(*) DESC LIMIT ${SHOWN}`,
  );
  if (groups.length === 0) return;
  const shown = groups.map((g) => `${JSON.stringify(String(g.v))} (${Number(g.n)} times)`).join(', ');
  warn(
    `${renameName(model)}.${name} is now unique (${model.file}), but published documents repeat values: ${shown}. Writes of these documents will be refused until the values differ`,
  );
}

/**
 * Draft & publish turned off or on for a content type since the last sync (Strapi 5's
 * draft-publish migrations). Off: every draft goes (a document never published with it),
 * the published versions stay. On: every published version gets a draft, a full copy.
 * `was` is what the snapshot recorded; a snapshot from before it was recorded tells by the
 * rows: drafts in a type without draft & publish, or published versions without a draft in
 * one with it (which draft & publish never leaves).
 */
async function draftToggle(db: Queryable, ct: ContentType, was: boolean | undefined, existing: ExistingSchema): Promise<SyncStep[]> {
  const t = id(ct.tableName);
  if (was === ct.draftAndPublish) return [];
  if (!ct.draftAndPublish) {
    const n = await count(db, sql`SELECT COUNT(*) AS n FROM ${t} WHERE ${statusIs('draft')}`);
    if (was === undefined && n === 0) return [];
    const steps: SyncStep[] = [];
    const lost = n ? await count(db, sql`SELECT COUNT(*) AS n ${unpairedVersions(ct, 'draft')}`) : 0;
    if (lost) {
      steps.push({
        description: `warning: draft & publish is off for ${ct.uid} now (${ct.file}): ${lost} version(s) never published go with the drafts`,
        warning: true,
      });
    }
    steps.push({
      description: `delete ${n} drafts of ${ct.uid} (draft & publish turned off: the published versions stay)`,
      sql: `-- ${n} draft row(s) of ${ct.tableName} with their components, links and media; links pinned to a draft`,
      drafts: { uid: ct.uid, turn: 'off' },
    });
    // A type without draft & publish cannot be in a release: Strapi's content-releases removes its entries too.
    const entries = existing.columns.has(SYSTEM.releaseEntries)
      ? await count(db, sql`SELECT COUNT(*) AS n FROM ${id(SYSTEM.releaseEntries)} WHERE "uid" = ${ct.uid}`)
      : 0;
    if (entries) {
      const statement = sql`DELETE FROM ${id(SYSTEM.releaseEntries)} WHERE "uid" = ${ct.uid}`;
      steps.push({
        description: `remove ${entries} release entries of ${ct.uid} (draft & publish turned off)`,
        statements: [statement],
        sql: statement.toString(),
      });
    }
    return steps;
  }
  const n = await count(db, sql`SELECT COUNT(*) AS n ${unpairedVersions(ct, 'published')}`);
  if (was === undefined && n === 0) return [];
  return [
    {
      description: `make drafts of ${n} published versions of ${ct.uid} (draft & publish turned on)`,
      sql: `-- ${n} copies of published rows of ${ct.tableName} with their components, links and media`,
      drafts: { uid: ct.uid, turn: 'on' },
    },
  ];
}
