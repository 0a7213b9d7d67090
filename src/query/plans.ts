/**
 * Read plans built in code, for Folio's own reads (no query string, nothing to check): the
 * write pipeline reads back what a write produced through these, as the REST API would show
 * it, without going through the REST parser.
 */
import { scalarFieldOf } from '../registry/fields';
import type { ContentType } from '../registry/types';
import type { ReadQuery, Status } from './types';

/** Enough rows for every locale and status of one document. */
const ALL_VERSIONS = 1000;

/**
 * Every version of one document in a status, in one locale or all of them ('*' or undefined),
 * with every shown attribute and no populate: what an event carries.
 */
export function versionsPlan(ct: ContentType, documentId: string, locale: string | undefined, status: Status): ReadQuery {
  return {
    status: ct.draftAndPublish ? status : 'published',
    locale: ct.localized ? (locale ?? '*') : '*',
    filters: { kind: 'compare', field: scalarFieldOf(ct, 'documentId')!, op: '=', value: documentId },
    sort: [],
    pagination: { mode: 'offset', start: 0, limit: ALL_VERSIONS, withCount: false },
    populate: {},
  };
}
