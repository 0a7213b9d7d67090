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

/** Names `fields` and `sort` may use: shown scalars plus id, documentId and the system timestamps. */
export function selectableFields(model: AnyModel): Set<string> {
  const names = new Set(['id', ...visibleScalars(model).map((a) => a.name)]);
  if (model.modelType === 'contentType') {
    for (const n of ['documentId', 'createdAt', 'updatedAt', 'publishedAt']) names.add(n);
    if (model.localized) names.add('locale');
  }
  return names;
}
