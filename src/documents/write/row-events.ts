/**
 * Lifecycle events (./hooks.ts) around version rows that an operation removes or replaces as
 * a whole: delete and unpublish remove rows (beforeDelete/afterDelete for each), publish
 * replaces the published row with a copy of the draft and discard-draft the draft with a
 * copy of the published one (Delete for each row replaced, Create for the copy), as Strapi 5's
 * document service fires them. Each row's before event fires before anything changes, its
 * after event once the operation's step is done; with no subscriber for the type, nothing is
 * read.
 */
import type { ContentType } from '../../registry/types';
import type { VersionKey } from './versions';
import type { WriteContext } from './context';
import type { RowLifecycle } from './hooks';
import type { WriteDeps } from './operation';

type Status = 'draft' | 'published';

/** The events still to fire once the step is done. */
export interface PendingRows {
  after(): Promise<void>;
}

const NOTHING: PendingRows = { after: async () => {} };

/** Fires beforeDelete for each version of `key` in `status` (every locale when `key.locale` is undefined); `after` fires afterDelete for each, with the row as it was. */
export async function rowsDeleted(
  deps: WriteDeps,
  ctx: WriteContext,
  ct: ContentType,
  key: { documentId: string; locale: string | undefined },
  status: Status,
): Promise<PendingRows> {
  if (!deps.hooks.listensTo(ct)) return NOTHING;
  const going: [RowLifecycle, Record<string, unknown>][] = [];
  for (const row of await ctx.versions(ct, key.documentId, key.locale, status))
    going.push([await deps.hooks.before('Delete', ct, { where: { id: row.id } }), row]);
  return {
    async after() {
      for (const [event, row] of going) await event.after(row);
    },
  };
}

/**
 * A copy replacing the versions of `key` in `status` (publish: the draft over the published
 * version; discard draft: the published version over the draft). Strapi deletes the old rows,
 * then creates the copy: Delete fires for each old row, then beforeCreate for the copy, before
 * anything changes (Folio writes the copy before it removes the old rows, reading what they
 * own once); `after` fires afterCreate with the copy as written.
 */
export async function rowsReplaced(deps: WriteDeps, ctx: WriteContext, ct: ContentType, key: VersionKey, status: Status): Promise<PendingRows> {
  if (!deps.hooks.listensTo(ct)) return NOTHING;
  const deleted = await rowsDeleted(deps, ctx, ct, key, status);
  await deleted.after();
  const [source] = await ctx.versions(ct, key.documentId, key.locale, status === 'published' ? 'draft' : 'published');
  const { id: _id, ...data } = source ?? {};
  const create = await deps.hooks.before('Create', ct, { data: { ...data, publishedAt: status === 'published' ? new Date().toISOString() : null } });
  return {
    async after() {
      const [made] = await ctx.versions(ct, key.documentId, key.locale, status);
      await create.after(made);
    },
  };
}

/** Fires beforeUpdate for a draft row being updated in place (`where: { id }`, as Strapi's); `after` gives it the row as written. */
export async function rowUpdated(deps: WriteDeps, ct: ContentType, _key: VersionKey, id: number, data: Record<string, unknown>): Promise<RowLifecycle> {
  return deps.hooks.before('Update', ct, { data, where: { id } });
}
