/**
 * Relation targets named by row id. Strapi 5 accepts a row id beside documentIds (`category: 2`,
 * `{ id: 2 }`, `connect: [2]`, `position: { before: 3 }`; its own templates' seed data uses
 * them). A row id names one version row of the target; Strapi links exactly that row, so Folio
 * takes the row's documentId, locale and status (links.ts then applies the usual rules: a
 * localized source links its own locale, a source with draft & publish links status to status).
 *
 * The document service rewrites a body's ids into longhand targets before it names its locks
 * (./locks.ts names them by documentId) or parses it, so the rest of the write sees documentIds
 * only. A row's documentId, locale and status never change, so reading them before the locks
 * is safe; whether the version still exists is checked again when the links are written.
 * One statement per target type for the whole request (every body of a bulk create at once).
 */
import type { Queryable } from '../db/database';
import { versionsByRowId } from '../db/store/links';
import { ValidationError } from '../errors';
import type { AnyModel, ContentType, Registry, RelationAttribute } from '../registry/types';
import { mapRowIds, type RowTarget } from './relation-input';
import { isObject } from '../json';

type Path = (string | number)[];
type Visit = (attribute: RelationAttribute, target: ContentType, value: unknown, at: Path) => unknown;


/** A copy of `data` with each relation value replaced by `visit`'s answer (components and dynamic zones included). */
function mapRelations(registry: Registry, model: AnyModel, data: unknown, at: Path, visit: Visit): unknown {
  if (!isObject(data)) return data;
  const out: Record<string, unknown> = { ...data };
  for (const [name, value] of Object.entries(data)) {
    const attribute = model.attributes[name];
    if (attribute?.kind === 'relation') {
      const target = registry.contentType(attribute.target);
      if (target) out[name] = visit(attribute, target, value, [...at, name]);
    } else if (attribute?.kind === 'component') {
      const component = registry.component(attribute.component)!;
      out[name] = Array.isArray(value)
        ? value.map((item, i) => mapRelations(registry, component, item, [...at, name, i], visit))
        : mapRelations(registry, component, value, [...at, name], visit);
    } else if (attribute?.kind === 'dynamiczone' && Array.isArray(value)) {
      out[name] = value.map((item, i) => {
        const uid = isObject(item) ? item.__component : undefined;
        const component = typeof uid === 'string' && attribute.components.includes(uid) ? registry.component(uid) : undefined;
        return component ? mapRelations(registry, component, item, [...at, name, i], visit) : item;
      });
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
  tx: Queryable, target: ContentType, ids: number[], pathOf: (id: number) => Path | undefined = () => undefined,
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

/** `bodies` with every relation target given by row id rewritten to its version's documentId, locale and status. */
export async function resolveRowIds<T>(tx: Queryable, registry: Registry, ct: ContentType, bodies: T[]): Promise<T[]> {
  const wanted = new Map<ContentType, Map<number, Path>>();
  for (const body of bodies) {
    mapRelations(registry, ct, body, [], (_attribute, target, value, at) =>
      mapRowIds(value, at, (id, where) => {
        const ids = wanted.get(target) ?? new Map<number, Path>();
        if (!ids.has(id)) ids.set(id, where);
        wanted.set(target, ids);
        return undefined;
      }),
    );
  }
  if (wanted.size === 0) return bodies;

  const found = new Map<ContentType, Map<number, RowTarget>>();
  for (const [target, ids] of wanted) found.set(target, await rowTargets(tx, target, [...ids.keys()], (id) => ids.get(id)));
  return bodies.map((body) => mapRelations(registry, ct, body, [], (_a, target, value, at) => mapRowIds(value, at, (id) => found.get(target)?.get(id))) as T);
}
