/**
 * Create many: several new documents in one transaction (`folio import`, seeds), all of them
 * or none, each checked and written as ./create.ts writes one. A batch whose documents allow
 * it is written table by table (./bulk-insert.ts: the same rows, fewer statements); one that
 * does not, or a type with lifecycle subscribers (each row then fires its own events), is
 * written document by document.
 */
import { createDocumentId } from '../document-id';
import type { ContentType } from '../../registry/types';
import { fitsBulk, insertBulk } from './bulk-insert';
import { resolveRowIds } from '../relations/row-ids';
import { createDocuments, lockNewDocuments, readNewDocuments } from './create';
import { assertDocumentType, linkContext, LOCKED, recordWrite, writeLocale, type WriteDeps, type WriteOptions, type Written } from './operation';
import { uniqueLocks } from './unique';

export async function createMany(deps: WriteDeps, ct: ContentType, given: Record<string, unknown>[], options: WriteOptions = {}): Promise<Written[]> {
  assertDocumentType(ct);
  const { locale, defaultLocale } = await writeLocale(deps.locales, ct, options.locale);
  // Relation targets named by row id become documentIds first (../relations/row-ids.ts), in one read per target type.
  const items = await resolveRowIds(deps.db, deps.registry, ct, given);
  const publish = !ct.draftAndPublish || options.status !== 'draft';
  const inputs = await readNewDocuments(deps, ct, items, publish);
  return deps.pipeline.run(
    options,
    async (ctx) => {
      const ids = inputs.map(() => createDocumentId());
      await lockNewDocuments(ctx, ct, ids, items);
      ctx.prefetch();
      if (inputs.length < 2 || deps.hooks.listensTo(ct) || !fitsBulk(ct, inputs)) {
        return createDocuments(deps, ctx, ct, ids, inputs, locale, defaultLocale, publish);
      }
      if (publish) await ctx.tx.lock(uniqueLocks(ct, locale, inputs));
      const { documents: written, links } = await insertBulk(
        ctx.tx,
        deps.registry,
        ct,
        inputs.map((input, i) => ({ documentId: ids[i]!, input })),
        locale,
        publish,
        linkContext(ct, locale, defaultLocale),
      );
      // Asked once for the batch: with no listener, nothing is read back for any document.
      if ((await ctx.wants('entry.create')) || (await ctx.wants('entry.publish'))) {
        for (const [i, { answer, draftId }] of written.entries()) {
          await recordWrite(ctx, ct, { documentId: answer.documentId, locale }, 'entry.create', publish, {
            draftId,
            publishedId: answer.rowId,
            input: inputs[i]!,
            links,
          });
        }
      }
      return written.map(({ answer }): Written => ({ documentId: answer.documentId, locale, status: publish ? 'published' : 'draft', answer }));
    },
    LOCKED,
  );
}
