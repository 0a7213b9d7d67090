/**
 * Draft & publish turned off or on for a content type whose versions are stored (Strapi 5's
 * draft-publish migrations; schema sync plans the step, db/schema-changes.ts, and runs this
 * in its transaction, the composition root passing it in). Strapi's links join rows, so
 * which links survive follows from which rows go or come; Folio's name documents, so the
 * same outcome is written out here:
 *  - off: every draft goes with everything it owns (components, links, media), a document
 *    never published with it; the published versions stay. Links to the type's drafts go:
 *    pinned to a draft, or held by the drafts of a type with draft & publish or by the
 *    components under them (drafts link drafts); pins to its published versions become plain
 *    links (it has one version now). The type's own links (and its components') to targets
 *    with draft & publish pin their published versions (a published row linked published rows);
 *  - on: every published version without a draft gets one, a full copy (Strapi runs
 *    discardDraft per document and locale); the type's links pin nothing any more (drafts
 *    link drafts, published versions published ones): a published version's link pinned to
 *    a draft goes (no reader sees it), the other pins become plain links.
 * No lifecycle event, webhook or history entry: a migration, as in Strapi. Totals (folio_counts)
 * and the `_q` index follow the rows through their triggers.
 */
import type { Queryable } from '../../db/database';
import type { DraftToggle } from '../../db/schema-sync';
import { deleteLinksPinning, repinLinks } from '../../db/store/links';
import { rowsUnder } from '../../db/store/components';
import { rowIdsOfStatus } from '../../db/store/versions';
import type { AnyModel, ContentType, MorphAttribute, RelationAttribute, Registry } from '../../registry/types';
import { copyVersion, deleteVersions } from './versions';

/** Versions read and written per round: a large type is not read whole. */
const BATCH = 500;

export async function applyDraftToggle(tx: Queryable, registry: Registry, toggle: DraftToggle): Promise<void> {
  const ct = registry.contentType(toggle.uid);
  if (!ct) throw new Error(`draft & publish changed for ${toggle.uid}, which is not a content type`);
  if (toggle.turn === 'off') await deleteDrafts(tx, registry, ct);
  else await makeDrafts(tx, registry, ct);
}

/** The owned relation and polymorphic attributes of every model that owns links (users and components too). */
function* ownedLinks(registry: Registry): Generator<{ model: AnyModel; attribute: RelationAttribute | MorphAttribute }> {
  for (const model of [...registry.contentTypes, ...registry.systemTypes, ...registry.components]) {
    for (const attribute of Object.values(model.attributes)) {
      if ((attribute.kind === 'relation' || attribute.kind === 'morph') && attribute.owner) yield { model, attribute };
    }
  }
}

async function deleteDrafts(tx: Queryable, registry: Registry, ct: ContentType): Promise<void> {
  const withDrafts = registry.contentTypes.filter((t) => t.draftAndPublish);
  // Links to the drafts go first, found while the rows (and the component rows under them) are there.
  for (const { model, attribute } of ownedLinks(registry)) {
    const toType = attribute.kind === 'morph' ? { types: [ct.uid] } : attribute.target === ct.uid ? {} : undefined;
    if (!toType) continue;
    await deleteLinksPinning(tx, attribute, 'draft', toType);
    for (const root of withDrafts) {
      const sources = rowsUnder(registry, root, 'draft', model);
      if (sources) await deleteLinksPinning(tx, attribute, '', { ...toType, sources });
    }
    await repinLinks(tx, attribute, ['published'], '', toType);
  }
  for (let ids = await rowIdsOfStatus(tx, ct, 'draft', BATCH); ids.length; ids = await rowIdsOfStatus(tx, ct, 'draft', BATCH)) {
    await deleteVersions(tx, registry, ct, ids);
  }
  // What is left of the type, and its components, pins the published versions of targets with draft & publish.
  const types = withDrafts.map((t) => t.uid);
  for (const { model, attribute } of ownedLinks(registry)) {
    const sources = rowsUnder(registry, ct, 'published', model);
    if (!sources) continue;
    if (attribute.kind === 'relation' && attribute.targetType.draftAndPublish) await repinLinks(tx, attribute, [''], 'published', { sources });
    if (attribute.kind === 'morph' && types.length) await repinLinks(tx, attribute, [''], 'published', { sources, types });
  }
}

async function makeDrafts(tx: Queryable, registry: Registry, ct: ContentType): Promise<void> {
  // Each round's versions have a draft afterwards: the next round reads the next ones.
  for (let ids = await rowIdsOfStatus(tx, ct, 'published', BATCH, true); ids.length; ids = await rowIdsOfStatus(tx, ct, 'published', BATCH, true)) {
    for (const id of ids) await copyVersion(tx, registry, ct, id, { publishedAt: null });
  }
  for (const { model, attribute } of ownedLinks(registry)) {
    const published = rowsUnder(registry, ct, 'published', model);
    const drafts = rowsUnder(registry, ct, 'draft', model);
    if (!published || !drafts) continue;
    // A published version's link to a draft reaches nothing any reader sees now (Strapi's row keeps it, unseen).
    await deleteLinksPinning(tx, attribute, 'draft', { sources: published });
    await repinLinks(tx, attribute, ['draft', 'published'], '', { sources: published });
    await repinLinks(tx, attribute, ['draft', 'published'], '', { sources: drafts });
  }
}
