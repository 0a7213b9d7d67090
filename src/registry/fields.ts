/**
 * Which attributes a client may see and select. Private and password attributes never
 * leave the server, so they are neither selectable nor sortable nor filterable.
 */
import type { AnyModel, ScalarAttribute } from './types';

/** Scalar attributes a response may show, in declaration order. */
export function visibleScalars(model: AnyModel): ScalarAttribute[] {
  return Object.values(model.attributes).filter(
    (a): a is ScalarAttribute => a.kind === 'scalar' && !a.private && a.type !== 'password',
  );
}

// Asked once per field, sort key and filter key of every request: built once per model
// (a WeakMap, so a dropped registry's models go with it).
const selectable = new WeakMap<AnyModel, ReadonlySet<string>>();

/** Names `fields` and `sort` may use: shown scalars plus id, documentId and the system timestamps. */
export function selectableFields(model: AnyModel): ReadonlySet<string> {
  let names = selectable.get(model) as Set<string> | undefined;
  if (names) return names;
  names = new Set(['id', ...visibleScalars(model).map((a) => a.name)]);
  if (model.modelType === 'contentType') {
    for (const n of ['documentId', 'createdAt', 'updatedAt', 'publishedAt']) names.add(n);
    if (model.localized) names.add('locale');
  }
  selectable.set(model, names);
  return names;
}
