/**
 * Publish: the draft becomes the published version (the old one is replaced by a fresh copy
 * of the draft), as a PUT without `status=draft` publishes; required and unique attributes
 * are checked as they are for publishing. Records entry.publish.
 */
import { componentFieldsOf, storedComponents } from '../components/stored';
import { storedValues } from '../../db/store/versions';
import type { ContentType } from '../../registry/types';
import { readModelInput } from './input';
import { publishDraft, syncNonLocalized, versionIds, type VersionKey } from './versions';
import type { WriteContext } from './context';
import { runAction, type ActionOptions, type ActionStep } from './document-action';
import type { WriteDeps, Written } from './operation';
import { rowsReplaced } from './row-events';
import { assertUnique } from './unique';

export const publishStep: ActionStep = async (deps, ctx, ct, key, now) => {
  const [draftId] = await versionIds(ctx.tx, ct, key.documentId, key.locale, 'draft');
  if (draftId === undefined) return;
  await checkPublishable(deps, ctx, ct, key, draftId);
  const replaced = await rowsReplaced(deps, ctx, ct, key, 'published');
  const publishedId = await publishDraft(ctx.tx, deps.registry, ct, key, draftId, now);
  await syncNonLocalized(ctx.tx, deps.registry, ct, publishedId, key, 'published');
  await replaced.after();
  await ctx.entries('entry.publish', ct, key.documentId, key.locale, 'published');
};

/** `documentId` undefined: the single type's document. Null: no such document or locale. */
export function publish(deps: WriteDeps, ct: ContentType, documentId: string | undefined, options: ActionOptions = {}): Promise<Written | null> {
  return runAction(deps, ct, documentId, 'publish', publishStep, 'published', options);
}

/**
 * What publishing through a PUT checks, on the stored draft: required attributes, and unique
 * values against the other published documents of the locale (under the value's lock).
 */
async function checkPublishable(deps: WriteDeps, ctx: WriteContext, ct: ContentType, key: VersionKey, draftId: number) {
  const existing = await storedValues(ctx.tx, ct, draftId);
  const components = await storedComponents(ctx.tx, deps.registry, ct, draftId, componentFieldsOf(ct));
  readModelInput(deps.registry, ct, components, { mode: 'published', creating: false, existing });
  await assertUnique(ctx.tx, ct, key, undefined, existing);
}
