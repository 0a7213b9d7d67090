/**
 * Update: writes a document's draft in a locale (or its only version, without draft &
 * publish), then republishes it unless `status: 'draft'`; a locale the document does not
 * have yet is created from another locale's shared values (a new locale is a create, as in
 * Strapi). Null when there is no such document.
 */
import { componentFieldsOf, storedComponents } from '../components/stored';
import { VERSION as V } from '../../db/layout';
import { documentVersions, storedValues, updateVersion, valuesOf, type StoredVersion } from '../../db/store/versions';
import type { ContentType } from '../../registry/types';
import { copyComponents, writeOwnedParts } from '../components/rows';
import { hashPasswords, readModelInput, type ModelWrite } from './input';
import type { LinkContext } from '../relations/link-keys';
import { writeLocks } from './locks';
import { copyMedia } from './media';
import { resolveRowIds } from '../relations/row-ids';
import { publishDraft, syncNonLocalized, type VersionKey } from './versions';
import { updatedDraft, writtenEntry, type WrittenRow } from '../../query/written-entry';
import type { WriteContext } from './context';
import { applyEventData, eventData, insertNew } from './new-version';
import {
  assertDocumentType,
  linkContext,
  LOCKED,
  recordWrite,
  take,
  writeInverse,
  writeLocale,
  type WriteDeps,
  type WriteOptions,
  type Written,
} from './operation';
import { rowsReplaced, rowUpdated } from './row-events';
import { assertUnique } from './unique';

export async function update(
  deps: WriteDeps,
  ct: ContentType,
  documentId: string,
  data: Record<string, unknown>,
  options: WriteOptions = {},
): Promise<Written | null> {
  assertDocumentType(ct);
  const { locale, defaultLocale } = await writeLocale(deps.locales, ct, options.locale);
  return deps.pipeline.run(
    options,
    async (ctx) => {
      const body = (await resolveRowIds(ctx.tx, deps.registry, ct, [data]))[0]!;
      await take(ctx.tx, writeLocks(ct, documentId, body));
      ctx.prefetch();
      return updateIn(deps, ctx, ct, documentId, body, locale, defaultLocale, options);
    },
    LOCKED,
  );
}

/** The update itself, inside an open write holding the document's locks (./upsert-single.ts calls it too). */
export async function updateIn(
  deps: WriteDeps,
  ctx: WriteContext,
  ct: ContentType,
  documentId: string,
  data: Record<string, unknown>,
  locale: string,
  defaultLocale: string,
  options: WriteOptions,
): Promise<Written | null> {
  const { tx } = ctx;
  const publish = !ct.draftAndPublish || options.status !== 'draft';
  const mode = publish ? 'published' : 'draft';
  const key = { documentId, locale };
  const context = linkContext(ct, locale, defaultLocale);
  // Every version of the document in one read: the draft's values, the published version it replaces, the other locales.
  const versions = await documentVersions(tx, ct, documentId);
  const drafts = ct.draftAndPublish ? versions.filter((v) => v.status === 'draft') : versions;
  const draft = drafts.find((v) => v.locale === locale);
  const published = ct.draftAndPublish ? versions.find((v) => v.status === 'published' && v.locale === locale) : undefined;
  const now = new Date().toISOString();
  let draftId: number;
  let pendingInverse: ModelWrite | undefined;
  let answer: WrittenRow | undefined; // the update's answer, from what it wrote (query/written-entry.ts)
  if (!draft) {
    if (drafts.length === 0) return null;
    ({ draftId, input: pendingInverse } = await createLocalization(deps, ctx, ct, key, drafts[0]!.id, data, publish, context));
  } else {
    const existing = valuesOf(ct, draft.row);
    const storedWasValid = publish && ct.draftAndPublish ? validWhenPublished(ct, data, existing, published) : undefined;
    const input = readModelInput(deps.registry, ct, data, { mode, creating: false, existing, storedWasValid });
    // A draft unchanged since it was published holds the components that passed then.
    if (publish && ct.draftAndPublish && published?.updatedAt !== draft.updatedAt) await checkStoredComponents(deps, ctx, ct, draft.id, data, existing);
    await hashPasswords(deps.registry, ct, input);
    const event = deps.hooks.listensTo(ct)
      ? await rowUpdated(deps, ct, key, draft.id, eventData(key, input.scalars, draft.row[V.publishedAt] as string | null))
      : undefined;
    if (event) applyEventData(deps, ct, input, event.params.data, publish);
    if (publish) await assertUnique(tx, ct, key, input, existing);
    await updateVersion(tx, ct, draft.id, input.scalars, now);
    await writeOwnedParts(tx, deps.registry, ct, draft.id, input, context);
    draftId = draft.id;
    pendingInverse = input;
    answer = updatedDraft(ct, key, draft, input.scalars, now);
    await event?.after(answer ? writtenEntry(ct, answer) : (await ctx.versions(ct, documentId, locale, ct.draftAndPublish ? 'draft' : 'published'))[0]);
  }
  const others = (status: 'draft' | 'published') =>
    versions.filter((v) => v.locale !== locale && (!ct.draftAndPublish || v.status === status)).map((v) => v.id);
  await syncNonLocalized(tx, deps.registry, ct, draftId, key, ct.draftAndPublish ? 'draft' : 'published', others('draft'));
  if (ct.draftAndPublish && publish) {
    const replaced = await rowsReplaced(deps, ctx, ct, key, 'published');
    const publishedId = await publishDraft(tx, deps.registry, ct, key, draftId, now, undefined, published ? [published.id] : []);
    await syncNonLocalized(tx, deps.registry, ct, publishedId, key, 'published', others('published'));
    if (answer) answer = { ...answer, rowId: publishedId, publishedAt: now }; // the draft's copy: its own id and time
    await replaced.after();
  }
  await writeInverse(tx, ct, key, pendingInverse, publish, defaultLocale);
  // A new locale is a create, as in Strapi.
  await recordWrite(ctx, ct, key, !draft ? 'entry.create' : 'entry.update', publish);
  return { ...key, status: publish ? 'published' : 'draft', answer };
}

/**
 * A required value the draft lacks and the update does not send: if the published version
 * lacks it too, the attribute became required after that version was written (docs/configuration.md
 * "Schema changes"), and an update that never sent it must not start failing. A draft that
 * was never published, or lost a value the published version has, is checked fully. Read
 * only when such a gap exists.
 */
function validWhenPublished(ct: ContentType, data: Record<string, unknown>, existing: Record<string, unknown>, published: StoredVersion | undefined) {
  const gaps = Object.values(ct.attributes).some((a) => a.kind === 'scalar' && a.required && !(a.name in data) && existing[a.name] == null);
  if (!gaps || !published) return undefined;
  const values = valuesOf(ct, published.row);
  return (attribute: string) => values[attribute] == null;
}

/**
 * Publishing through a PUT publishes the stored draft's components the body does not resend:
 * they are checked as a body's would be (a draft may hold one missing a required value).
 */
async function checkStoredComponents(
  deps: WriteDeps,
  ctx: WriteContext,
  ct: ContentType,
  rowId: number,
  data: Record<string, unknown>,
  existing: Record<string, unknown>,
) {
  const left = componentFieldsOf(ct).filter((name) => !(name in data));
  if (left.length === 0) return;
  const stored = await storedComponents(ctx.tx, deps.registry, ct, rowId, left);
  readModelInput(deps.registry, ct, stored, { mode: 'published', creating: false, existing });
}

/** A new locale of an existing document: non-localized values come from another locale. */
async function createLocalization(
  deps: WriteDeps,
  ctx: WriteContext,
  ct: ContentType,
  key: VersionKey,
  baseId: number,
  data: Record<string, unknown>,
  publish: boolean,
  context: LinkContext,
): Promise<{ draftId: number; input: ModelWrite }> {
  const { tx } = ctx;
  const base = await storedValues(tx, ct, baseId);
  const shared = Object.values(ct.attributes).filter((a) => !a.localized);
  const merged: Record<string, unknown> = { ...data };
  for (const a of shared) if (a.kind === 'scalar' && !(a.name in data)) merged[a.name] = base[a.name];
  const input = readModelInput(deps.registry, ct, merged, { mode: publish ? 'published' : 'draft', creating: true });
  await hashPasswords(deps.registry, ct, input);
  // Non-localized components and media the body leaves out are copied, not defaulted.
  const copied = shared.filter((a) => (a.kind === 'component' || a.kind === 'dynamiczone' || a.kind === 'media') && !(a.name in data));
  for (const a of copied) {
    delete input.components[a.name];
    delete input.media[a.name];
  }
  if (publish) await assertUnique(tx, ct, key, input);
  const { draftId } = await insertNew(deps, ctx, ct, key, input, false, context);
  const componentFields = copied.filter((a) => a.kind !== 'media').map((a) => a.name);
  const mediaFields = copied.filter((a) => a.kind === 'media').map((a) => a.name);
  if (componentFields.length) await copyComponents(tx, deps.registry, ct, baseId, draftId, componentFields);
  if (mediaFields.length) await copyMedia(tx, ct, baseId, draftId, mediaFields);
  return { draftId, input };
}
