/**
 * Delete: every version of a document in a locale (all locales with '*'), with everything
 * they own; links pointing at them go too, the documents holding those links stay. One
 * entry.delete per version, read before it goes (as Strapi emits them), and beforeDelete /
 * afterDelete for each row. Answers how many rows went.
 */
import type { ContentType } from '../../registry/types';
import { deleteLocks } from './locks';
import { deleteLinksTo } from '../relations/deleted-targets';
import { deleteVersions, versionIds } from './versions';
import { assertDocumentType, LOCKED, take, type WriteDeps, type WriteOptions } from './operation';
import { rowsDeleted } from './row-events';

export async function deleteDocument(
  deps: WriteDeps,
  ct: ContentType,
  documentId: string,
  options: Pick<WriteOptions, 'locale' | 'actor' | 'within'> = {},
): Promise<number> {
  assertDocumentType(ct);
  const locale = ct.localized ? (options.locale === '*' ? undefined : (options.locale ?? (await deps.locales.defaultCode()))) : undefined;
  return deps.pipeline.run(
    options,
    async (ctx) => {
      await take(ctx.tx, deleteLocks(ct, documentId));
      const ids = await versionIds(ctx.tx, ct, documentId, locale);
      const statuses = ct.draftAndPublish ? (['draft', 'published'] as const) : (['published'] as const);
      // Nothing to delete, no event (a keys-only listener would otherwise hear of a delete that removed nothing).
      if (ids.length) for (const status of statuses) await ctx.entries('entry.delete', ct, documentId, locale, status);
      const pending = [];
      for (const status of statuses) pending.push(await rowsDeleted(deps, ctx, ct, { documentId, locale }, status));
      await deleteVersions(ctx.tx, deps.registry, ct, ids);
      const remaining = locale === undefined ? [] : await versionIds(ctx.tx, ct, documentId, undefined);
      // Links pointing at the deleted versions go too; the documents holding them stay.
      await deleteLinksTo(ctx.tx, deps.registry, ct, documentId, remaining.length ? locale : undefined);
      for (const rows of pending) await rows.after();
      return ids.length;
    },
    LOCKED,
  );
}
