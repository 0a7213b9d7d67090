/**
 * A new version row of a document (a create, or a new locale of an existing one), and its
 * published copy when the write publishes, with the lifecycle events of each row
 * (beforeCreate/afterCreate, ./hooks.ts).
 *
 * Without lifecycle subscribers for the type, a create that publishes inserts both rows in one
 * statement (./versions.ts insertPublishedDraft). With them, each row is written on its own
 * between its before and after events, as Strapi 5 writes them (the draft, then the published
 * copy); a before handler may change `params.data`, and the row is written with what it holds.
 */
import type { ContentType } from '../../registry/types';
import { readModelInput, type ModelWrite } from './input';
import type { LinkContext } from '../relations/link-keys';
import type { InsertedLinks } from '../relations/writer';
import { insertPublishedDraft, insertVersion, publishDraft, ownedFields, type VersionKey } from './versions';
import { writtenEntry, type WrittenRow } from '../../query/written-entry';
import type { WriteContext } from './context';
import type { LifecycleEvent } from './hooks';
import type { WriteDeps } from './operation';

/** `params.data` of a row's events: the document's keys and its attribute values as written. */
export function eventData(key: VersionKey, scalars: Record<string, unknown>, publishedAt: string | null): Record<string, unknown> {
  return { ...scalars, documentId: key.documentId, ...(key.locale ? { locale: key.locale } : {}), publishedAt };
}

/**
 * The attribute values a before handler set or changed in `params.data`, checked as a body's
 * are and merged into the write (keys that are not attributes are left out, as Strapi's
 * query layer drops them).
 */
export function applyEventData(deps: WriteDeps, ct: ContentType, input: ModelWrite, data: LifecycleEvent['params']['data'], publish: boolean): void {
  if (!data) return;
  const changed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data)) {
    const field = ct.fields[name];
    if (field?.kind === 'scalar' && field.attribute.writable && input.scalars[name] !== value) changed[name] = value;
  }
  if (Object.keys(changed).length === 0) return;
  // Only the changed values are checked (as a partial body): in 'published' mode the attributes
  // left out would count as missing required ones, though the whole input was checked already.
  const checked = readModelInput(deps.registry, ct, changed, { mode: 'draft', creating: false }).scalars;
  if (publish)
    for (const [name, value] of Object.entries(checked))
      if (value === null && ct.fields[name]?.attribute.required) {
        readModelInput(deps.registry, ct, { ...input.scalars, ...changed }, { mode: 'published', creating: true });
      }
  Object.assign(input.scalars, checked);
}

/** A new version (and its published copy): the draft's id, and the version a create answers with, as written. */
export async function insertNew(
  deps: WriteDeps,
  ctx: WriteContext,
  ct: ContentType,
  key: VersionKey,
  input: ModelWrite,
  publish: boolean,
  context: LinkContext,
): Promise<{ draftId: number; answer: WrittenRow; links: InsertedLinks }> {
  const { tx } = ctx;
  const now = new Date().toISOString();
  const row = (rowId: number, publishedAt: string | null): WrittenRow => ({
    rowId,
    ...key,
    createdAt: now,
    updatedAt: now,
    publishedAt,
    scalars: input.scalars,
  });
  const published = ct.draftAndPublish && publish;
  if (!deps.hooks.listensTo(ct)) {
    if (!published) {
      const publishedAt = ct.draftAndPublish ? null : now;
      const { id: draftId, links } = await insertVersion(tx, deps.registry, ct, key, { createdAt: now, updatedAt: now, publishedAt }, input, context);
      return { draftId, answer: row(draftId, publishedAt), links };
    }
    const { draftId, publishedId, links } = await insertPublishedDraft(tx, deps.registry, ct, key, now, input, context);
    return { draftId, answer: row(publishedId, now), links };
  }
  // One row at a time, each between its events.
  const draftPublishedAt = ct.draftAndPublish ? null : now;
  const draftEvent = await deps.hooks.before('Create', ct, { data: eventData(key, input.scalars, draftPublishedAt) });
  applyEventData(deps, ct, input, draftEvent.params.data, publish);
  const { id: draftId, links } = await insertVersion(
    tx,
    deps.registry,
    ct,
    key,
    { createdAt: now, updatedAt: now, publishedAt: draftPublishedAt },
    input,
    context,
  );
  await draftEvent.after(writtenEntry(ct, row(draftId, draftPublishedAt)));
  if (!published) return { draftId, answer: row(draftId, draftPublishedAt), links };
  const publishedEvent = await deps.hooks.before('Create', ct, { data: eventData(key, input.scalars, now) });
  const publishedId = await publishDraft(tx, deps.registry, ct, key, draftId, now, ownedFields(input));
  await publishedEvent.after(writtenEntry(ct, row(publishedId, now)));
  return { draftId, answer: row(publishedId, now), links };
}
