/**
 * Draft & publish turned off or on for a content type whose versions are stored (Strapi 5's
 * draft-publish migrations; schema sync plans the step, db/schema-changes.ts, and runs this
 * in its transaction, the composition root passing it in):
 *  - off: every draft goes with everything it owns (components, links, media), a document
 *    never published with it; the published versions stay. Links other rows pin to a draft go
 *    (Strapi's links to the draft rows go with them), pins to the published version become
 *    plain links (a type without draft & publish has one version);
 *  - on: every published version without a draft gets one, a full copy (Strapi runs
 *    discardDraft per document and locale), and the type's own links stop pinning their
 *    targets' status (a source with draft & publish links draft to draft, published to published).
 * No lifecycle event, webhook or history entry: a migration, as in Strapi. Totals (folio_counts)
 * and the `_q` index follow the rows through their triggers.
 */
import type { Queryable } from '../../db/database';
import type { DraftToggle } from '../../db/schema-sync';
import { unpinTargets } from '../../db/store/links';
import { rowIdsOfStatus } from '../../db/store/versions';
import type { ContentType, Registry } from '../../registry/types';
import { copyVersion, deleteVersions } from './versions';

/** Versions read and written per round: a large type is not read whole. */
const BATCH = 500;

export async function applyDraftToggle(tx: Queryable, registry: Registry, toggle: DraftToggle): Promise<void> {
  const ct = registry.contentType(toggle.uid);
  if (!ct) throw new Error(`draft & publish changed for ${toggle.uid}, which is not a content type`);
  if (toggle.turn === 'off') await deleteDrafts(tx, registry, ct);
  else await makeDrafts(tx, registry, ct);
}

async function deleteDrafts(tx: Queryable, registry: Registry, ct: ContentType): Promise<void> {
  for (let ids = await rowIdsOfStatus(tx, ct, 'draft', BATCH); ids.length; ids = await rowIdsOfStatus(tx, ct, 'draft', BATCH)) {
    await deleteVersions(tx, registry, ct, ids);
  }
  // Users and components own links too.
  for (const model of [...registry.contentTypes, ...registry.systemTypes, ...registry.components]) {
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind === 'relation' && attribute.owner && attribute.target === ct.uid) await unpinTargets(tx, attribute, 'draft');
    }
  }
  for (const model of registry.contentTypes) {
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind === 'morph' && attribute.owner) await unpinTargets(tx, attribute, 'draft', ct.uid);
    }
  }
}

async function makeDrafts(tx: Queryable, registry: Registry, ct: ContentType): Promise<void> {
  // Each round's versions have a draft afterwards: the next round reads the next ones.
  for (let ids = await rowIdsOfStatus(tx, ct, 'published', BATCH, true); ids.length; ids = await rowIdsOfStatus(tx, ct, 'published', BATCH, true)) {
    for (const id of ids) await copyVersion(tx, registry, ct, id, { publishedAt: null });
  }
  for (const attribute of Object.values(ct.attributes)) {
    if ((attribute.kind === 'relation' || attribute.kind === 'morph') && attribute.owner) await unpinTargets(tx, attribute);
  }
}
