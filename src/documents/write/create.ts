/**
 * Create: a new document's draft, then (unless `status: 'draft'`) its published copy, in
 * one transaction (Strapi 5's document service create). The body is checked before the
 * transaction opens (every problem at once, with paths), relation targets named by row id
 * become documentIds first (../relations/row-ids.ts), and the write takes its locks before it reads.
 * ./create-many.ts creates several documents in one transaction through the same steps.
 */
import { createDocumentId } from '../document-id';
import type { ContentType } from '../../registry/types';
import { hashPasswords, readModelInput, type ModelWrite } from './input';
import { mergeLocks, writeLocks } from './locks';
import { resolveRowIds } from '../relations/row-ids';
import { linksByRow } from '../relations/writer';
import type { WriteContext } from './context';
import { insertNew } from './new-version';
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
import { assertUnique, uniqueLocks } from './unique';

/** The checked inputs of new documents, hashed passwords included: what a create writes. */
export async function readNewDocuments(deps: WriteDeps, ct: ContentType, items: Record<string, unknown>[], publish: boolean): Promise<ModelWrite[]> {
  const inputs: ModelWrite[] = [];
  for (const data of items) {
    const input = readModelInput(deps.registry, ct, data, { mode: publish ? 'published' : 'draft', creating: true });
    await hashPasswords(deps.registry, ct, input);
    inputs.push(input);
  }
  return inputs;
}

/** Creates one document; answers the version it produced (the published one when it publishes). */
export async function create(deps: WriteDeps, ct: ContentType, data: Record<string, unknown>, options: WriteOptions = {}): Promise<Written> {
  assertDocumentType(ct);
  const { locale, defaultLocale } = await writeLocale(deps.locales, ct, options.locale);
  const [item] = await resolveRowIds(deps.db, deps.registry, ct, [data]);
  const publish = !ct.draftAndPublish || options.status !== 'draft';
  const [input] = await readNewDocuments(deps, ct, [item!], publish);
  return deps.pipeline.run(
    options,
    async (ctx) => {
      const documentId = createDocumentId();
      await lockNewDocuments(ctx, ct, [documentId], [item!]);
      ctx.prefetch();
      return (await createDocuments(deps, ctx, ct, [documentId], [input!], locale, defaultLocale, publish))[0]!;
    },
    LOCKED,
  );
}

/**
 * Writes new documents one by one inside an open write: unique values checked (their locks
 * taken in one call first), each version inserted with its owned parts, the inverse sides of
 * its relations, then Strapi's events.
 */
export async function createDocuments(
  deps: WriteDeps,
  ctx: WriteContext,
  ct: ContentType,
  ids: string[],
  inputs: ModelWrite[],
  locale: string,
  defaultLocale: string,
  publish: boolean,
): Promise<Written[]> {
  if (publish) await ctx.tx.lock(uniqueLocks(ct, locale, inputs));
  const context = linkContext(ct, locale, defaultLocale);
  const written: Written[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const key = { documentId: ids[i]!, locale };
    if (publish) await assertUnique(ctx.tx, ct, key, inputs[i]!, undefined, false);
    const { draftId, answer, links } = await insertNew(deps, ctx, ct, key, inputs[i]!, publish, context);
    await writeInverse(ctx.tx, ct, key, inputs[i]!, publish, defaultLocale);
    await recordWrite(ctx, ct, key, 'entry.create', publish, { draftId, publishedId: answer.rowId, input: inputs[i]!, links: linksByRow(links) });
    written.push({ ...key, status: publish ? 'published' : 'draft', answer });
  }
  return written;
}

/** The locks of new documents' bodies, in one call (SQLite takes none: not worth computing there). */
export async function lockNewDocuments(ctx: WriteContext, ct: ContentType, ids: string[], items: Record<string, unknown>[]) {
  if (ctx.tx.dialect.takesLocks) await take(ctx.tx, mergeLocks(items.map((data, i) => writeLocks(ct, ids[i]!, data, true))));
}
