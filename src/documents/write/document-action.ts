/**
 * The frame of the document actions beyond create/update/delete (./publish.ts,
 * ./unpublish.ts, ./discard-draft.ts), as Strapi 5's document service has them: each runs in
 * one transaction under the document's lock, in one locale or all ('*'), and records its
 * events there. A locale without the version an action starts from is left alone, as Strapi
 * does (unpublishing a draft-only document changes nothing); a document without any version
 * in the locale is null (404). Types without draft & publish have no such actions: Strapi's
 * document service has no publish/unpublish/discardDraft methods for them, so Folio answers a
 * 400 naming the type instead.
 */
import { existingVersions, firstDocumentId } from '../../db/store/versions';
import { ValidationError } from '../../errors';
import type { ContentType } from '../../registry/types';
import { documentLock } from './locks';
import type { VersionKey } from './versions';
import type { WriteContext } from './context';
import { assertDocumentType, LOCKED, type WriteDeps, type WriteOptions, type Written } from './operation';

export type DocumentActionName = 'publish' | 'unpublish' | 'discardDraft';

export type ActionOptions = Pick<WriteOptions, 'locale' | 'actor' | 'within'>;

/** What an action does to one locale of the document. */
export type ActionStep = (deps: WriteDeps, ctx: WriteContext, ct: ContentType, key: VersionKey, now: string) => Promise<void>;

/** Runs `step` on each locale the action names; answers the version it leaves (`answer`), or null. */
export async function runAction(
  deps: WriteDeps,
  ct: ContentType,
  documentId: string | undefined,
  action: DocumentActionName,
  step: ActionStep,
  answer: 'draft' | 'published',
  options: ActionOptions = {},
): Promise<Written | null> {
  assertDocumentType(ct);
  if (!ct.draftAndPublish) {
    throw new ValidationError(`${ct.uid} has no draft & publish, so it cannot ${action === 'discardDraft' ? 'discard a draft' : action}`, { action });
  }
  const defaultLocale = await deps.locales.defaultCode();
  const wanted = !ct.localized ? '' : (options.locale ?? defaultLocale);
  return deps.pipeline.run(
    options,
    async (ctx) => {
      // A single type's lock names the type, so it is taken before its documentId is known.
      await ctx.tx.lock([documentLock(ct, documentId ?? '')]);
      const id = documentId ?? (await firstDocumentId(ctx.tx, ct));
      if (id === undefined) return null;
      const versions = await existingVersions(ctx.tx, ct, [id]);
      const locales = [...new Set(versions.map((v) => v.locale))].filter((l) => wanted === '*' || l === wanted).sort();
      if (locales.length === 0) return null;
      const now = new Date().toISOString();
      for (const locale of locales) await step(deps, ctx, ct, { documentId: id, locale }, now);
      // With '*', the answer is the default locale's version when it has one.
      const locale = locales.includes(defaultLocale) ? defaultLocale : locales[0]!;
      return { documentId: id, locale, status: answer };
    },
    LOCKED,
  );
}
