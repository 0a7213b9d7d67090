/**
 * Polymorphic links (morphToOne / morphToMany): the rules of ./links.ts for targets of any
 * content type. A link names its target's type and document; which version it reaches
 * follows the relation rules (a localized source links its own locale, a source with draft &
 * publish links status to status, a source without it may pin the target's status), so
 * publishing either side never drops a link. Order is a fractional key in the source's list;
 * there is no inverse order to keep (Strapi keeps none either).
 */
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Queryable } from '../../db/database';
import * as store from '../../db/store/morph-links';
import type { MorphKey, StoredMorphLink } from '../../db/store/morph-links';
import { existingVersions } from '../../db/store/versions';
import { ValidationError } from '../../errors';
import { targetNotFound } from './not-found';
import type { AnyModel, ContentType, MorphAttribute, Registry } from '../../registry/types';
import type { LinkContext } from './links';
import type { MorphTarget, MorphWrite } from './morph-input';
import { rowTargets } from './row-ids';

const sameKey = (a: MorphKey, b: MorphKey) => a.type === b.type && a.documentId === b.documentId && a.locale === b.locale && a.status === b.status;

/** A link without a pinned status stands for both versions, so it overlaps either pin (as in links.ts). */
const overlaps = (a: MorphKey, b: MorphKey) =>
  a.type === b.type && a.documentId === b.documentId && a.locale === b.locale && (a.status === b.status || a.status === '' || b.status === '');

/** Targets named by row id get their version's documentId (and that version's locale and status, unless given). */
async function resolveRowIds(tx: Queryable, registry: Registry, targets: MorphTarget[]): Promise<void> {
  const byType = new Map<string, number[]>();
  for (const t of targets) if (t.id !== undefined) byType.set(t.type, [...(byType.get(t.type) ?? []), t.id]);
  for (const [uid, ids] of byType) {
    const rows = await rowTargets(tx, registry.contentType(uid)!, ids);
    for (const t of targets) {
      if (t.type !== uid || t.id === undefined) continue;
      const row = rows.get(t.id)!;
      if (t.documentId && t.documentId !== row.documentId) {
        throw new ValidationError(`Invalid relation: id ${t.id} is not a version of document "${t.documentId}"`);
      }
      t.documentId = row.documentId;
      t.locale ??= row.locale;
      t.status ??= row.status;
    }
  }
}

function keyOf(registry: Registry, target: MorphTarget, context: LinkContext): MorphKey {
  const type = registry.contentType(target.type)!;
  let locale = '';
  if (type.localized) locale = context.contentType.localized ? context.locale : (target.locale ?? context.defaultLocale);
  const status = type.draftAndPublish && !context.contentType.draftAndPublish ? (target.status ?? '') : '';
  return { type: target.type, documentId: target.documentId, locale, status };
}

/** Every key must name an existing version (of its pinned status). */
async function assertTargetsExist(tx: Queryable, registry: Registry, relation: string, keys: MorphKey[]): Promise<void> {
  for (const uid of new Set(keys.map((k) => k.type))) {
    const ofType = keys.filter((k) => k.type === uid);
    const versions = await existingVersions(
      tx,
      registry.contentType(uid)!,
      ofType.map((k) => k.documentId),
    );
    for (const key of ofType) {
      if (!versions.some((v) => v.documentId === key.documentId && v.locale === key.locale && (key.status === '' || v.status === key.status))) {
        throw targetNotFound(relation, uid, key.documentId, key.locale);
      }
    }
  }
}

function rejectDuplicates(keys: MorphKey[]): void {
  keys.forEach((key, i) => {
    if (keys.findIndex((other) => overlaps(other, key)) !== i) {
      throw new ValidationError(`The relation with id ${key.documentId} is already connected. You cannot connect the same relation twice.`);
    }
  });
}

/** Applies the polymorphic writes of one source row. */
export async function writeMorphLinks(
  tx: Queryable,
  registry: Registry,
  model: AnyModel,
  rowId: number,
  morphs: Record<string, MorphWrite>,
  context: LinkContext,
): Promise<void> {
  for (const [name, write] of Object.entries(morphs)) {
    const attribute = model.attributes[name] as MorphAttribute;
    const targets = write.op === 'set' ? write.targets : [...write.connect, ...write.disconnect];
    await resolveRowIds(tx, registry, targets);
    if (write.op === 'set')
      await setLinks(
        tx,
        registry,
        attribute,
        rowId,
        write.targets.map((t) => keyOf(registry, t, context)),
      );
    else {
      const connect = write.connect.map((t) => keyOf(registry, t, context));
      const disconnect = write.disconnect.map((t) => keyOf(registry, t, context));
      await patchLinks(tx, registry, attribute, rowId, connect, disconnect);
    }
  }
}

async function setLinks(tx: Queryable, registry: Registry, attribute: MorphAttribute, rowId: number, keys: MorphKey[]) {
  rejectDuplicates(keys);
  if (!attribute.toMany) keys = keys.slice(-1);
  await assertTargetsExist(tx, registry, attribute.name, keys);
  await store.deleteMorphLinks(
    tx,
    attribute,
    (await store.morphLinksFrom(tx, attribute, rowId)).map((l) => l.id),
  );
  const ranks = generateNKeysBetween(null, null, keys.length);
  for (let i = 0; i < keys.length; i++) await store.insertMorphLink(tx, attribute, rowId, keys[i]!, ranks[i]!);
}

async function patchLinks(tx: Queryable, registry: Registry, attribute: MorphAttribute, rowId: number, connect: MorphKey[], disconnect: MorphKey[]) {
  rejectDuplicates(connect);
  await assertTargetsExist(tx, registry, attribute.name, [...connect, ...disconnect]);
  let list: StoredMorphLink[] = await store.morphLinksFrom(tx, attribute, rowId);
  const gone = list.filter((link) => disconnect.some((key) => overlaps(link, key) && (key.status === '' || key.status === link.status)));
  if (!attribute.toMany && connect.length) gone.push(...list.filter((link) => !sameKey(link, connect.at(-1)!)));
  await store.deleteMorphLinks(
    tx,
    attribute,
    [...new Set(gone)].map((l) => l.id),
  );
  list = list.filter((link) => !gone.includes(link));
  // A to-one side holds one link: the last connected target wins. A connected link already held keeps its place.
  for (const key of attribute.toMany ? connect : connect.slice(-1)) {
    if (list.some((link) => sameKey(link, key))) continue;
    const rank = generateKeyBetween(list.at(-1)?.rank ?? null, null);
    const id = await store.insertMorphLink(tx, attribute, rowId, key, rank);
    list.push({ id, rank, ...key });
  }
}

/** Copies the polymorphic links of one row to another (publish, a new locale's copy). */
export async function copyMorphLinks(tx: Queryable, model: AnyModel, fromId: number, toId: number, fields?: string[]): Promise<void> {
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.kind !== 'morph' || !attribute.owner) continue;
    if (fields && !fields.includes(attribute.name)) continue;
    await store.copyMorphLinks(tx, attribute, fromId, toId);
  }
}

/** Removes every polymorphic link naming a document (in one locale, or in all). */
export async function deleteMorphLinksTo(tx: Queryable, registry: Registry, target: ContentType, documentId: string, locale?: string): Promise<void> {
  for (const model of registry.contentTypes) {
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind === 'morph' && attribute.owner) await store.deleteMorphLinksTo(tx, attribute, target.uid, documentId, locale);
    }
  }
}
