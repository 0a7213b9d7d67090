/**
 * Bulk actions on several documents of one collection type (the admin's list view): delete,
 * publish, unpublish, in ONE transaction, all of them or none. A document without a version in
 * the locale is a 404 naming it, and nothing is changed.
 *
 * There is no second implementation of the actions: each document goes through exactly the
 * operation its single action runs (./delete.ts, ./publish.ts, ./unpublish.ts), joining the
 * bulk's own write (`within`). So each records the events and fires the hooks the single
 * action does, in the same transaction, committed together; listeners are woken once.
 *
 * Locks: every document's names are taken up front in one call (sorted by the engine, so two
 * bulks over overlapping documents wait instead of deadlocking); the single actions' own
 * lock() calls then ask again for names the transaction already holds, which PostgreSQL's
 * transaction-scoped advisory locks grant at once.
 */
import { NotFoundError, ValidationError } from '../../errors';
import type { ContentType } from '../../registry/types';
import { deleteLocks, documentLock, mergeLocks } from './locks';
import { deleteDocument } from './delete';
import { assertDocumentType, LOCKED, type WriteDeps, type WriteOptions } from './operation';
import { publish } from './publish';
import { unpublish } from './unpublish';

export type BulkAction = 'delete' | 'publish' | 'unpublish';

/** The most documents one bulk call takes: one transaction holds all their locks. */
export const BULK_LIMIT = 100;

/**
 * Runs `action` on every document in `documentIds` (distinct, at most BULK_LIMIT) in one
 * locale (undefined: the default; '*': every locale). Returns how many documents it changed.
 */
export async function runBulk(
  deps: WriteDeps,
  ct: ContentType,
  action: BulkAction,
  documentIds: string[],
  options: Pick<WriteOptions, 'locale' | 'actor'> = {},
): Promise<number> {
  assertDocumentType(ct);
  if (ct.kind !== 'collectionType') throw new ValidationError(`${ct.uid} is a single type: bulk actions take collection types`);
  const ids = [...new Set(documentIds)];
  if (ids.length === 0)
    throw new ValidationError('documentIds must name at least one document', {
      errors: [{ path: ['documentIds'], message: 'At least one documentId is required' }],
    });
  if (ids.length > BULK_LIMIT) {
    throw new ValidationError(`At most ${BULK_LIMIT} documents per bulk action (got ${ids.length})`, {
      errors: [{ path: ['documentIds'], message: `At most ${BULK_LIMIT} documentIds` }],
    });
  }
  if (action !== 'delete' && !ct.draftAndPublish) throw new ValidationError(`${ct.uid} has no draft & publish, so it cannot ${action}`, { action });
  // Read before the transaction (it is cached), so the single actions' own look-ups inside it
  // never wait for a second pooled connection.
  await deps.locales.defaultCode();
  const locks = mergeLocks(ids.map((id) => (action === 'delete' ? deleteLocks(ct, id) : { exclusive: [documentLock(ct, id)], shared: [] })));
  return deps.pipeline.run(
    options,
    async (ctx) => {
      await ctx.tx.lock(locks.exclusive, locks.shared);
      const joined = { locale: options.locale, within: ctx };
      for (const id of ids) {
        let done: boolean;
        try {
          done =
            action === 'delete'
              ? (await deleteDocument(deps, ct, id, joined)) > 0
              : (await (action === 'publish' ? publish : unpublish)(deps, ct, id, joined)) !== null;
        } catch (error) {
          // A draft that cannot be published: say which one, as the list shows one message.
          if (error instanceof ValidationError) {
            error.message = `Document "${id}": ${error.message}; nothing was changed`;
            error.details = { ...error.details, documentId: id };
          }
          throw error;
        }
        // Thrown inside the transaction: what the earlier documents did is rolled back.
        if (!done)
          throw new NotFoundError(
            `Document "${id}" not found${options.locale && options.locale !== '*' ? ` in locale "${options.locale}"` : ''}; nothing was changed`,
          );
      }
      return ids.length;
    },
    LOCKED,
  );
}
