/**
 * Bulk actions on several documents of one collection type (the admin's list view): delete,
 * publish, unpublish, in ONE transaction, all of them or none. A document without a version in
 * the locale is a 404 naming it, and nothing is changed.
 *
 * There is no second implementation of the actions: each document goes through exactly the
 * code its single action runs (DocumentService.delete, ./actions.ts runAction), handed an
 * Events whose transaction() joins the bulk's own transaction instead of opening one. So each
 * records the events the single action records (entry.delete, entry.publish,
 * entry.unpublish), in the same outbox, committed together; webhooks are woken once.
 *
 * Locks: every document's names are taken up front in one call (sorted by the engine, so two
 * bulks over overlapping documents wait instead of deadlocking); the single actions' own
 * lock() calls then ask again for names the transaction already holds, which PostgreSQL's
 * transaction-scoped advisory locks grant at once.
 */
import type { Queryable } from '../db/database';
import { NotFoundError, ValidationError } from '../errors';
import type { EventLog, Events } from '../events/log';
import type { ContentType } from '../registry/types';
import { runAction } from './actions';
import { deleteLocks, documentLock, mergeLocks } from './locks';
import type { DocumentService } from './service';

export type BulkAction = 'delete' | 'publish' | 'unpublish';

/** The most documents one bulk call takes: one transaction holds all their locks. */
export const BULK_LIMIT = 100;

/** An Events that runs its work inside an open transaction (see the file's comment). */
function joined(tx: Queryable, log: EventLog): Events {
  return { transaction: <T>(fn: (tx: Queryable, log: EventLog) => Promise<T>) => fn(tx, log) } as unknown as Events;
}

/**
 * Runs `action` on every document in `documentIds` (distinct, at most BULK_LIMIT) in one
 * locale (undefined: the default; '*': every locale). Returns how many documents it changed.
 */
export async function runBulk(service: DocumentService, ct: ContentType, action: BulkAction, documentIds: string[], options: { locale?: string } = {}): Promise<number> {
  if (ct.kind !== 'collectionType') throw new ValidationError(`${ct.uid} is a single type: bulk actions take collection types`);
  const ids = [...new Set(documentIds)];
  if (ids.length === 0) throw new ValidationError('documentIds must name at least one document', { errors: [{ path: ['documentIds'], message: 'At least one documentId is required' }] });
  if (ids.length > BULK_LIMIT) {
    throw new ValidationError(`At most ${BULK_LIMIT} documents per bulk action (got ${ids.length})`, { errors: [{ path: ['documentIds'], message: `At most ${BULK_LIMIT} documentIds` }] });
  }
  if (action !== 'delete' && !ct.draftAndPublish) throw new ValidationError(`${ct.uid} has no draft & publish, so it cannot ${action}`, { action });
  // Read before the transaction (it is cached), so the single actions' own look-ups inside it
  // never wait for a second pooled connection.
  await service.locales.defaultCode();
  const locks = mergeLocks(ids.map((id) => (action === 'delete' ? deleteLocks(ct, id) : { exclusive: [documentLock(ct, id)], shared: [] })));
  return service.events.transaction(
    async (tx, log) => {
      await tx.lock(locks.exclusive, locks.shared);
      const events = joined(tx, log);
      // The service with its events joined to this transaction: its delete runs unchanged.
      const inTx = Object.create(service, { events: { value: events } }) as DocumentService;
      for (const id of ids) {
        let done: boolean;
        try {
          done =
            action === 'delete'
              ? (await inTx.delete(ct, id, options)) > 0
              : (await runAction({ registry: service.registry, locales: service.locales, events }, ct, id, action, options)) !== null;
        } catch (error) {
          // A draft that cannot be published: say which one, as the list shows one message.
          if (error instanceof ValidationError) {
            error.message = `Document "${id}": ${error.message}; nothing was changed`;
            error.details = { ...error.details, documentId: id };
          }
          throw error;
        }
        // Thrown inside the transaction: what the earlier documents did is rolled back.
        if (!done) throw new NotFoundError(`Document "${id}" not found${options.locale && options.locale !== '*' ? ` in locale "${options.locale}"` : ''}; nothing was changed`);
      }
      return ids.length;
    },
    { isolation: 'read committed' },
  );
}
