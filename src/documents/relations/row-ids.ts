/**
 * Relation targets named by row id. Strapi 5 accepts a row id beside documentIds (`category: 2`,
 * `{ id: 2 }`, `connect: [2]`, `position: { before: 3 }`; its own templates' seed data uses
 * them). A row id names one version row of the target; Strapi links exactly that row, so Folio
 * takes the row's documentId, locale and status (the link writer, ./writer.ts, then applies the usual rules: a
 * localized source links its own locale, a source with draft & publish links status to status).
 *
 * The document service rewrites a body's ids into longhand targets before it names its locks
 * (../write/locks.ts names them by documentId) or parses it, so the rest of the write sees documentIds
 * only. A row's documentId, locale and status never change, so reading them before the locks
 * is safe; whether the version still exists is checked again when the links are written.
 * One statement per target type for the whole request (every body of a bulk create at once).
 */
import type { Queryable } from '../../db/database';
import { versionsByRowId } from '../../db/store/links';
import { ValidationError } from '../../errors';
import type { AnyModel, Attribute, Component, ContentType, Registry, RelationAttribute } from '../../registry/types';
import { mapRowIds, type RowTarget } from './input';
import { isObject } from '../../json';

type Path = (string | number)[];
type Visit = (attribute: RelationAttribute, target: ContentType, value: unknown, at: Path) => unknown;

/** Per model: its attributes that hold relations, directly or in their components (the rest is never walked). */
const bearingCache = new WeakMap<AnyModel, Map<string, Attribute>>();

function relationBearing(registry: Registry, model: AnyModel, seen = new Set<AnyModel>()): Map<string, Attribute> {
  const cached = bearingCache.get(model);
  if (cached) return cached;
  seen.add(model);
  // A component met again is answered from the cache; one still being walked is a cycle, holding nothing more.
  const reaches = (component: Component) => {
    if (seen.has(component) && !bearingCache.has(component)) return false;
    return relationBearing(registry, component, seen).size > 0;
  };
  const bearing = new Map<string, Attribute>();
  for (const attribute of Object.values(model.attributes)) {
    const holds =
      attribute.kind === 'relation' ||
      (attribute.kind === 'component' && reaches(attribute.componentModel)) ||
      (attribute.kind === 'dynamiczone' && attribute.componentModels.some(reaches));
    if (holds) bearing.set(attribute.name, attribute);
  }
  bearingCache.set(model, bearing);
  return bearing;
}

/**
 * A copy of `data` with each relation value replaced by `visit`'s answer (components and dynamic
 * zones included). `copy` false only visits (the first pass of a bulk import's thousand bodies).
 */
function mapRelations(registry: Registry, model: AnyModel, data: unknown, at: Path, visit: Visit, copy = true): unknown {
  if (!isObject(data)) return data;
  const out: Record<string, unknown> = copy ? { ...data } : data;
  const set = (name: string, value: unknown) => {
    if (copy) out[name] = value;
  };
  const bearing = relationBearing(registry, model);
  for (const name of Object.keys(data)) {
    const attribute = bearing.get(name);
    if (!attribute) continue;
    const value = data[name];
    if (attribute.kind === 'relation') {
      const target = attribute.targetType;
      if (target) set(name, visit(attribute, target, value, [...at, name]));
    } else if (attribute.kind === 'component') {
      const component = attribute.componentModel;
      set(
        name,
        Array.isArray(value)
          ? value.map((item, i) => mapRelations(registry, component, item, [...at, name, i], visit, copy))
          : mapRelations(registry, component, value, [...at, name], visit, copy),
      );
    } else if (attribute.kind === 'dynamiczone' && Array.isArray(value)) {
      set(
        name,
        value.map((item, i) => {
          const uid = isObject(item) ? item.__component : undefined;
          const component = typeof uid === 'string' ? attribute.componentModels.find((c) => c.uid === uid) : undefined;
          return component ? mapRelations(registry, component, item, [...at, name, i], visit, copy) : item;
        }),
      );
    }
  }
  return out;
}

/**
 * What each row id of `target` names: its documentId, and its locale and status where the type
 * has them. An id that names no row is Strapi's 400 (its entity validator's relation check),
 * with the path of the first such id when the caller knows it.
 */
export async function rowTargets(
  tx: Queryable,
  target: ContentType,
  ids: number[],
  pathOf: (id: number) => Path | undefined = () => undefined,
): Promise<Map<number, RowTarget>> {
  const rows = await versionsByRowId(tx, target, ids);
  const missing = [...new Set(ids)].filter((id) => !rows.has(id));
  if (missing.length) {
    const path = pathOf(missing[0]!);
    throw new ValidationError(`${missing.length} relation(s) of type ${target.uid} associated with this entity do not exist`, {
      ...(path ? { path } : {}),
      ids: missing,
    });
  }
  const targets = new Map<number, RowTarget>();
  for (const [id, row] of rows) {
    targets.set(id, {
      documentId: row.documentId,
      locale: target.localized ? row.locale : undefined,
      status: target.draftAndPublish ? row.status : undefined,
    });
  }
  return targets;
}

/** A documentId (never all digits: ids start with a letter) or a list of them: the common value, with no row id to look for. */
const documentIdsOnly = (value: unknown): boolean => {
  const one = (v: unknown) => typeof v === 'string' && !(v.charCodeAt(0) >= 48 && v.charCodeAt(0) <= 57);
  return one(value) || (Array.isArray(value) && value.every(one));
};

/** `bodies` with every relation target given by row id rewritten to its version's documentId, locale and status. */
export async function resolveRowIds<T>(tx: Queryable, registry: Registry, ct: ContentType, bodies: T[]): Promise<T[]> {
  const wanted = new Map<ContentType, Map<number, Path>>();
  for (const body of bodies) {
    mapRelations(
      registry,
      ct,
      body,
      [],
      (_attribute, target, value, at) =>
        documentIdsOnly(value)
          ? undefined
          : mapRowIds(value, at, (id, where) => {
              const ids = wanted.get(target) ?? new Map<number, Path>();
              if (!ids.has(id)) ids.set(id, where);
              wanted.set(target, ids);
              return undefined;
            }),
      false,
    );
  }
  if (wanted.size === 0) return bodies;

  const found = new Map<ContentType, Map<number, RowTarget>>();
  for (const [target, ids] of wanted) found.set(target, await rowTargets(tx, target, [...ids.keys()], (id) => ids.get(id)));
  return bodies.map((body) => mapRelations(registry, ct, body, [], (_a, target, value, at) => mapRowIds(value, at, (id) => found.get(target)?.get(id))) as T);
}
