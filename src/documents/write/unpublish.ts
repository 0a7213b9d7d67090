/** Unpublish: the published version goes, the draft stays. Records entry.unpublish with the version that was public. */
import type { ContentType } from '../../registry/types';
import { deleteVersions, versionIds } from './versions';
import { runAction, type ActionOptions, type ActionStep } from './document-action';
import type { WriteDeps, Written } from './operation';
import { rowsDeleted } from './row-events';

export const unpublishStep: ActionStep = async (deps, ctx, ct, key) => {
  const published = await versionIds(ctx.tx, ct, key.documentId, key.locale, 'published');
  if (published.length === 0) return;
  // Read before it goes: the event carries the version that was public.
  await ctx.entries('entry.unpublish', ct, key.documentId, key.locale, 'published');
  const deleted = await rowsDeleted(deps, ctx, ct, key, 'published');
  await deleteVersions(ctx.tx, deps.registry, ct, published);
  await deleted.after();
};

export function unpublish(deps: WriteDeps, ct: ContentType, documentId: string | undefined, options: ActionOptions = {}): Promise<Written | null> {
  return runAction(deps, ct, documentId, 'unpublish', unpublishStep, 'draft', options);
}
