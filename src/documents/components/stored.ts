/**
 * The components and dynamic-zone items a stored version holds, read back as a write body
 * would give them (attribute values, nested components, `__component` for zone items; no
 * ids, relations or media). Publishing checks them like a body: a draft may hold a component
 * that misses a required value (drafts skip those checks), and publishing it, through a PUT
 * that does not resend the component or through the publish action, must be a 400.
 * One query per component table and level, for the fields asked.
 */
import type { Queryable } from '../../db/database';
import { componentValues } from '../../db/store/components';
import type { AnyModel, Registry } from '../../registry/types';

type Body = Record<string, unknown>;

/** The component and dynamic-zone attributes of a model. */
export const componentFieldsOf = (model: AnyModel): string[] =>
  Object.values(model.attributes)
    .filter((a) => a.kind === 'component' || a.kind === 'dynamiczone')
    .map((a) => a.name);

/** `fields` of the row `rowId` of `model` (component and dynamic-zone attributes), as body values. */
export async function storedComponents(tx: Queryable, registry: Registry, model: AnyModel, rowId: number, fields: string[]): Promise<Body> {
  const [body] = await componentBodies(tx, registry, model, [rowId], fields);
  return body!;
}

async function componentBodies(tx: Queryable, registry: Registry, model: AnyModel, rowIds: number[], fields: string[]): Promise<Body[]> {
  const bodies = rowIds.map((): Body => ({}));
  for (const field of fields) {
    const attribute = model.attributes[field];
    if (attribute?.kind !== 'component' && attribute?.kind !== 'dynamiczone') continue;
    const components = attribute.kind === 'component' ? [attribute.componentModel] : attribute.componentModels;
    // Zone items of several tables interleave by their stored place.
    const items: { ownerId: number; order: number; body: Body }[] = [];
    for (const component of components) {
      const rows = await componentValues(tx, component, model.uid, rowIds, field);
      const nested = componentFieldsOf(component);
      const inner = nested.length
        ? await componentBodies(
            tx,
            registry,
            component,
            rows.map((r) => r.id),
            nested,
          )
        : [];
      rows.forEach((row, i) => {
        const body: Body = { ...(attribute.kind === 'dynamiczone' ? { __component: component.uid } : {}), ...row.values, ...inner[i] };
        items.push({ ownerId: row.ownerId, order: row.order, body });
      });
    }
    items.sort((a, b) => a.order - b.order);
    for (const [i, rowId] of rowIds.entries()) {
      const mine = items.filter((item) => item.ownerId === rowId).map((item) => item.body);
      if (attribute.kind === 'component' && !attribute.repeatable) {
        // A required single component the row does not hold is reported as missing (null), as a body's would be.
        if (mine.length) bodies[i]![field] = mine[0];
        else if (attribute.required) bodies[i]![field] = null;
      } else bodies[i]![field] = mine;
    }
  }
  return bodies;
}
