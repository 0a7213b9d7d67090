/**
 * Upsert of a single type: updates its one document, or creates it when it does not exist
 * yet. Looked up under the type's lock, so concurrent first writes create it once.
 */
import { firstDocumentId } from '../../db/store/versions';
import type { ContentType } from '../../registry/types';
import { createDocumentId } from '../document-id';
import { writeLocks } from './locks';
import { resolveRowIds } from '../relations/row-ids';
import { createDocuments, readNewDocuments } from './create';
import { assertDocumentType, LOCKED, take, writeLocale, type WriteDeps, type WriteOptions, type Written } from './operation';
import { updateIn } from './update';

export async function upsertSingle(deps: WriteDeps, ct: ContentType, given: Record<string, unknown>, options: WriteOptions = {}): Promise<Written> {
  assertDocumentType(ct);
  const { locale, defaultLocale } = await writeLocale(deps.locales, ct, options.locale);
  const publish = !ct.draftAndPublish || options.status !== 'draft';
  return deps.pipeline.run(
    options,
    async (ctx) => {
      const data = (await resolveRowIds(ctx.tx, deps.registry, ct, [given]))[0]!;
      const documentId = createDocumentId();
      // A single type's locks name the type, whichever documentId it turns out to have.
      await take(ctx.tx, writeLocks(ct, documentId, data));
      const existing = await firstDocumentId(ctx.tx, ct);
      if (existing) {
        const written = await updateIn(deps, ctx, ct, existing, data, locale, defaultLocale, options);
        if (written) return written;
      }
      const [input] = await readNewDocuments(deps, ct, [data], publish);
      return (await createDocuments(deps, ctx, ct, [documentId], [input!], locale, defaultLocale, publish))[0]!;
    },
    LOCKED,
  );
}
