/**
 * Discard draft: the draft is replaced by a copy of the published version, components,
 * relations and media included. Records entry.draft-discard (Strapi's name).
 */
import type { ContentType } from '../../registry/types';
import { replaceVersion, syncNonLocalized, versionIds } from './versions';
import { runAction, type ActionOptions, type ActionStep } from './document-action';
import type { WriteDeps, Written } from './operation';
import { rowsReplaced } from './row-events';

export const discardDraftStep: ActionStep = async (deps, ctx, ct, key) => {
  const [publishedId] = await versionIds(ctx.tx, ct, key.documentId, key.locale, 'published');
  if (publishedId === undefined) return;
  const drafts = await versionIds(ctx.tx, ct, key.documentId, key.locale, 'draft');
  const replaced = await rowsReplaced(deps, ctx, ct, key, 'draft');
  const draftId = await replaceVersion(ctx.tx, deps.registry, ct, publishedId, drafts, { publishedAt: null });
  // Non-localized values are shared by the drafts of every locale: they go back together.
  await syncNonLocalized(ctx.tx, deps.registry, ct, draftId, key, 'draft');
  await replaced.after();
  await ctx.entries('entry.draft-discard', ct, key.documentId, key.locale, 'draft');
};

export function discardDraft(deps: WriteDeps, ct: ContentType, documentId: string | undefined, options: ActionOptions = {}): Promise<Written | null> {
  return runAction(deps, ct, documentId, 'discardDraft', discardDraftStep, 'draft', options);
}
