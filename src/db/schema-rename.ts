/**
 * `folio migrate --rename article.oldName=newName`: moves what is stored under an attribute's
 * old name to its new one, once the schema files already say the new name. Where data sits
 * depends on the attribute (see db/layout.ts):
 *  - a scalar: the column of the model's table (renamed; its sort index and the `_q` search
 *    objects that name it are dropped, and schema sync makes them again under the new name);
 *  - an owning relation: its link table, named after the attribute (`<table>_<name>_lnk`);
 *  - a component or dynamic zone: the owner-field value of the component rows it owns;
 *  - media: the field of its media links.
 * The inverse side of a relation stores nothing. Every rename of one call runs in one
 * transaction, with the snapshot (db/schema-changes.ts) updated so the next diff sees no
 * removed/added pair.
 */
import type { AnyModel, Registry } from '../registry/types';
import type { Database, ExistingSchema, Queryable } from './database';
import { COMPONENT_OWNER, indexName, linkTableName, MEDIA_LINKS, SYSTEM } from './layout';
import { componentTables, readSnapshot, renameName, writeShape } from './schema-changes';
import { shapeOfAttribute, type Snapshot } from './schema-diff';
import { searchObjectDrops } from './search-index';
import { sql, type Sql } from './sql';

export interface Rename {
  /** As given: `article`, `api::article.article` or a component uid `shared.seo`. */
  model: string;
  from: string;
  to: string;
}

/** A rename the user asked for that cannot be done; the message says why (exit 1, nothing changed). */
export class RenameError extends Error {}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `model.old=new` (the model part may hold dots: `api::article.article`, `shared.seo`). */
export function parseRename(text: string): Rename {
  const match = /^(.+)\.([^.=]+)=([^.=]+)$/.exec(text);
  if (!match || !NAME.test(match[2]) || !NAME.test(match[3])) {
    throw new RenameError(`--rename takes MODEL.OLD=NEW (e.g. article.summary=abstract), not "${text}"`);
  }
  return { model: match[1], from: match[2], to: match[3] };
}

function findModel(registry: Registry, name: string): AnyModel | undefined {
  return (
    registry.contentTypes.find((ct) => ct.uid === name || ct.singularName === name || ct.pluralName === name) ?? registry.components.find((c) => c.uid === name)
  );
}

interface RenameStep {
  description: string;
  statement: Sql;
}

const id = (name: string) => sql.id(name);

async function count(db: Queryable, statement: Sql): Promise<number> {
  return Number((await db.get<{ n: unknown }>(statement))?.n ?? 0);
}

/** The statements moving one attribute's data; throws RenameError when it cannot be done safely. */
async function planOne(db: Queryable, registry: Registry, snapshot: Snapshot | undefined, existing: ExistingSchema, rename: Rename): Promise<RenameStep[]> {
  const { from, to } = rename;
  const model = findModel(registry, rename.model);
  if (!model) throw new RenameError(`--rename ${rename.model}.${from}=${to}: no content type or component "${rename.model}"`);
  const label = `${renameName(model)}.${from}=${to}`;
  const attribute = model.attributes[to];
  if (!attribute) throw new RenameError(`--rename ${label}: ${model.file} has no attribute "${to}"; the schema file must already use the new name`);
  if (model.attributes[from]) throw new RenameError(`--rename ${label}: ${model.file} still declares "${from}"; remove it (rename it to "${to}") first`);
  const was = snapshot?.[model.uid]?.attributes[from];
  const now = shapeOfAttribute(attribute);
  if (was && was.kind !== now.kind)
    throw new RenameError(`--rename ${label}: "${from}" was a ${was.kind} and "${to}" is a ${now.kind}; a rename keeps the kind`);
  const t = model.tableName;
  const columns = existing.columns.get(t.toLowerCase()) ?? new Set<string>();
  const steps: RenameStep[] = [];
  const step = (description: string, statement: Sql) => steps.push({ description, statement });
  const dropIndex = (name: string) => {
    if (existing.indexes.has(name.toLowerCase())) step(`drop index ${name} (made again for the new name)`, sql`DROP INDEX ${id(name)}`);
  };

  switch (attribute.kind) {
    case 'scalar': {
      if (!columns.has(from)) throw new RenameError(`--rename ${label}: table ${t} has no column "${from}"`);
      // A start with the new schema already added an empty column for the new name: it may go, a filled one may not.
      if (columns.has(to)) {
        const n = await count(db, sql`SELECT COUNT(*) AS n FROM ${id(t)} WHERE ${id(to)} IS NOT NULL`);
        if (n > 0) throw new RenameError(`--rename ${label}: ${t}.${to} already holds values in ${n} row(s); nothing was changed`);
      }
      // The `_q` objects and sort indexes naming either column go first: SQLite refuses to drop
      // an indexed or triggered column, and both would otherwise keep the old name.
      for (const drop of await searchObjectDrops(db, t, [from, to])) step(drop.description, sql.raw(drop.sql!));
      dropIndex(indexName(t, `${from}_idx`));
      if (columns.has(to)) {
        dropIndex(indexName(t, `${to}_idx`));
        step(`drop the empty column ${t}.${to}`, sql`ALTER TABLE ${id(t)} DROP COLUMN ${id(to)}`);
      }
      step(`rename column ${t}.${from} to ${to}`, sql`ALTER TABLE ${id(t)} RENAME COLUMN ${id(from)} TO ${id(to)}`);
      break;
    }
    case 'relation': {
      if (!attribute.owner) break; // the owning side's link table holds the links; it is not renamed here
      const old = linkTableName(t, from);
      const fresh = attribute.linkTable;
      if (!existing.columns.has(old.toLowerCase())) throw new RenameError(`--rename ${label}: there is no link table ${old}`);
      if (existing.columns.has(fresh.toLowerCase())) {
        const n = await count(db, sql`SELECT COUNT(*) AS n FROM ${id(fresh)}`);
        if (n > 0) throw new RenameError(`--rename ${label}: ${fresh} already holds ${n} link(s); nothing was changed`);
        for (const suffix of ['source_idx', 'target_idx']) dropIndex(indexName(fresh, suffix));
        step(`drop the empty link table ${fresh}`, sql`DROP TABLE ${id(fresh)}`);
      }
      // Index names follow the table's: the old ones go and schema sync makes the new ones.
      for (const suffix of ['source_idx', 'target_idx']) dropIndex(indexName(old, suffix));
      step(`rename link table ${old} to ${fresh}`, sql`ALTER TABLE ${id(old)} RENAME TO ${id(fresh)}`);
      break;
    }
    case 'component':
    case 'dynamiczone': {
      const shape = was ?? now;
      const known = snapshot ?? Object.fromEntries(registry.components.map((c) => [c.uid, { tableName: c.tableName, attributes: {} }]));
      const o = COMPONENT_OWNER;
      let moved = 0;
      for (const table of componentTables(shape, known, existing)) {
        const owned = (field: string) => sql`${id(o.type)} = ${model.uid} AND ${id(o.field)} = ${field}`;
        const clash = await count(db, sql`SELECT COUNT(*) AS n FROM ${id(table)} WHERE ${owned(to)}`);
        if (clash > 0) throw new RenameError(`--rename ${label}: ${clash} row(s) of ${table} already belong to "${to}"; nothing was changed`);
        moved += await count(db, sql`SELECT COUNT(*) AS n FROM ${id(table)} WHERE ${owned(from)}`);
        step(`move the ${table} rows of ${model.uid}.${from} to ${to}`, sql`UPDATE ${id(table)} SET ${id(o.field)} = ${to} WHERE ${owned(from)}`);
      }
      if (!was && moved === 0) throw new RenameError(`--rename ${label}: nothing is stored under "${from}"`);
      break;
    }
    case 'media': {
      const m = MEDIA_LINKS;
      const owned = (field: string) => sql`${id(m.relatedType)} = ${model.uid} AND ${id(m.field)} = ${field}`;
      const clash = await count(db, sql`SELECT COUNT(*) AS n FROM ${id(m.table)} WHERE ${owned(to)}`);
      if (clash > 0) throw new RenameError(`--rename ${label}: ${clash} media link(s) already belong to "${to}"; nothing was changed`);
      if (!was && (await count(db, sql`SELECT COUNT(*) AS n FROM ${id(m.table)} WHERE ${owned(from)}`)) === 0) {
        throw new RenameError(`--rename ${label}: nothing is stored under "${from}"`);
      }
      step(`move the media links of ${model.uid}.${from} to ${to}`, sql`UPDATE ${id(m.table)} SET ${id(m.field)} = ${to} WHERE ${owned(from)}`);
      break;
    }
    default:
      throw new RenameError(`--rename ${label}: a ${attribute.kind} attribute cannot be renamed yet`);
  }

  // The snapshot follows, so the next diff sees "to" with the shape "from" had (a type change still shows).
  const recorded = snapshot?.[model.uid];
  if (recorded && was) {
    const attributes = Object.fromEntries(Object.entries(recorded.attributes).map(([name, shape]) => [name === from ? to : name, shape]));
    recorded.attributes = attributes;
    const table = id(SYSTEM.schemaSnapshot);
    step(`record ${renameName(model)}.${from} as ${to} in the schema snapshot`, sql`DELETE FROM ${table} WHERE "uid" = ${model.uid}`);
    steps.push({ description: '', statement: writeShape(model.uid, recorded, new Date().toISOString()) });
  }
  return steps;
}

/**
 * Plans every rename (all are checked before any runs) and, unless `dryRun`, applies them in
 * one transaction. Returns the steps' descriptions, as `migrate` prints them.
 */
export async function renameAttributes(db: Database, registry: Registry, renames: Rename[], dryRun: boolean): Promise<string[]> {
  const existing = await db.schema();
  const snapshot = await readSnapshot(db, existing);
  const steps: RenameStep[] = [];
  const seen = new Set<string>();
  for (const rename of renames) {
    const key = `${rename.model}.${rename.from}`;
    if (seen.has(key)) throw new RenameError(`--rename ${key} is given twice`);
    seen.add(key);
    steps.push(...(await planOne(db, registry, snapshot, existing, rename)));
  }
  if (!dryRun) {
    await db.transaction(async (tx) => {
      for (const step of steps) await tx.run(step.statement);
    });
  }
  return steps.filter((s) => s.description).map((s) => s.description);
}
