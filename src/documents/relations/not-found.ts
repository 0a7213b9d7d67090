import { ValidationError } from '../../errors';

/**
 * A relation to a document that is not there: Strapi's ValidationError, worded to name the
 * relation, the type it points at and the documentId (its locale only when the type has
 * locales: Strapi's `locale "null"` said nothing useful), with those in `details` too.
 */
export function targetNotFound(relation: string, type: string, documentId: string, locale: string): ValidationError {
  const where = locale ? ` in locale "${locale}"` : '';
  return new ValidationError(
    `Document with id "${documentId}" not found${where}: the relation ${relation} points at ${type}, which has no such document${where ? ' in that locale' : ''}`,
    {
      path: [relation],
      type,
      documentId,
      locale: locale || null,
    },
  );
}
