/**
 * Relation links. A link row belongs to the source version (or component row) on the
 * owning side and names its target by documentId (+ locale, + pinned status). Reads
 * resolve the target version matching the reader's status and locale, so publishing
 * the source or the target never drops a link.
 *
 * Order lives in fractional keys (`position` on the owning side, `inversePosition` on
 * the other): placing an item between two others writes one row and renumbers nothing.
 * A key is computed from the list as committed, so the caller holds the list's lock
 * (./locks.ts: the source's document for `position`, the target's incoming links for
 * `inversePosition`) for the whole transaction.
 */
import { randomInt } from 'node:crypto';
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Queryable } from '../db/database';
import { ValidationError } from '../errors';
import type { AnyModel, ContentType, Registry, RelationAttribute } from '../registry/types';
import type { RelationTarget, RelationWrite } from './input';
import { inverseIsToOne, linksToLock } from './locks';

/** Where the written row sits: the locale and status of the content version that owns it. */
export interface LinkContext {
  /** Content type of the version being written (components inherit it). */
  contentType: ContentType;
  locale: string;
  status: 'draft' | 'published';
  defaultLocale: string;
}

interface LinkKey {
  targetDocumentId: string;
  targetLocale: string;
  targetStatus: string;
}

interface LinkRow extends LinkKey {
  id: number;
  position: string;
}

const sameLink = (a: LinkKey, b: LinkKey) =>
  a.targetDocumentId === b.targetDocumentId && a.targetLocale === b.targetLocale && a.targetStatus === b.targetStatus;

/** Maps a written target to the stored key, following Strapi's i18n and draft & publish rules. */
function linkKey(registry: Registry, attribute: RelationAttribute, target: RelationTarget, context: LinkContext): LinkKey {
  const targetType = registry.contentType(attribute.target)!;
  let targetLocale = '';
  if (targetType.localized) {
    targetLocale = context.contentType.localized ? context.locale : (target.locale ?? context.defaultLocale);
  }
  // A source with draft & publish links draft to draft and published to published;
  // only a source without it may pin the target's status.
  const targetStatus = targetType.draftAndPublish && !context.contentType.draftAndPublish ? (target.status ?? '') : '';
  return { targetDocumentId: target.documentId, targetLocale, targetStatus };
}

async function assertTargetsExist(tx: Queryable, registry: Registry, attribute: RelationAttribute, keys: LinkKey[]) {
  const targetType = registry.contentType(attribute.target)!;
  const q = tx.dialect.quote;
  for (const key of keys) {
    let sql = `SELECT 1 AS found FROM ${q(targetType.tableName)} WHERE ${q('documentId')} = ? AND ${q('locale')} = ?`;
    if (key.targetStatus === 'published') sql += ` AND ${q('publishedAt')} IS NOT NULL`;
    if (key.targetStatus === 'draft') sql += ` AND ${q('publishedAt')} IS NULL`;
    const found = await tx.get(sql + ' LIMIT 1', [key.targetDocumentId, key.targetLocale]);
    if (!found) {
      const locale = `"${key.targetLocale || 'null'}"`;
      throw new ValidationError(`Document with id "${key.targetDocumentId}", locale ${locale} not found`);
    }
  }
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Next inverse key for a target: after the last link pointing at it. Writers appending to
 * one target's list run side by side (they share its lock, ./locks.ts) and may read the same
 * last key, so the key gets a random fraction: still after every key the writer saw and
 * before the next whole key, and (8 base-62 digits, the last never 0) distinct from theirs.
 */
async function nextInversePosition(tx: Queryable, table: string, key: LinkKey): Promise<string> {
  const q = tx.dialect.quote;
  const last = await tx.get<{ p: string | null }>(
    `SELECT MAX(${q('inversePosition')}) AS p FROM ${q(table)} WHERE ${q('targetDocumentId')} = ? AND ${q('targetLocale')} = ?`,
    [key.targetDocumentId, key.targetLocale],
  );
  let fraction = '';
  for (let i = 0; i < 7; i++) fraction += DIGITS[randomInt(62)];
  return generateKeyBetween(last?.p ?? null, null) + fraction + DIGITS[1 + randomInt(61)];
}

/**
 * When the other side is to-one, a target may be linked from one document only: linking it
 * here unlinks it from other documents' versions of the same status.
 */
async function dropOtherOwners(tx: Queryable, model: AnyModel, attribute: RelationAttribute, sourceId: number, key: LinkKey) {
  const q = tx.dialect.quote;
  const owner = q(model.tableName);
  await tx.run(
    `DELETE FROM ${q(attribute.linkTable)} WHERE ${q('targetDocumentId')} = ? AND ${q('targetLocale')} = ? AND ${q('sourceId')} IN (
       SELECT o.id FROM ${owner} o JOIN ${owner} me ON me.id = ?
       WHERE o.${q('documentId')} <> me.${q('documentId')} AND (o.${q('publishedAt')} IS NULL) = (me.${q('publishedAt')} IS NULL))`,
    [key.targetDocumentId, key.targetLocale, sourceId],
  );
}

async function insertLink(tx: Queryable, table: string, sourceId: number, key: LinkKey, position: string) {
  const q = tx.dialect.quote;
  await tx.run(
    `INSERT INTO ${q(table)} (${q('sourceId')}, ${q('targetDocumentId')}, ${q('targetLocale')}, ${q('targetStatus')}, ${q('position')}, ${q('inversePosition')}) VALUES (?, ?, ?, ?, ?, ?)`,
    [sourceId, key.targetDocumentId, key.targetLocale, key.targetStatus, position, await nextInversePosition(tx, table, key)],
  );
}

/** Applies relation writes of the owning side to one source row. */
export async function writeOwnedLinks(
  tx: Queryable,
  registry: Registry,
  model: AnyModel,
  sourceId: number,
  relations: Record<string, RelationWrite>,
  context: LinkContext,
): Promise<void> {
  for (const [name, write] of Object.entries(relations)) {
    const attribute = model.attributes[name] as RelationAttribute;
    // The inverse side's links belong to the other documents (see inverse-links.ts).
    if (!attribute.owner) continue;
    if (write.op === 'set') await setLinks(tx, registry, model, attribute, sourceId, write.targets, context);
    else await patchLinks(tx, registry, model, attribute, sourceId, write.connect, write.disconnect, context);
  }
}

async function currentLinks(tx: Queryable, table: string, sourceId: number): Promise<LinkRow[]> {
  const q = tx.dialect.quote;
  return tx.all<LinkRow>(
    `SELECT id, ${q('targetDocumentId')}, ${q('targetLocale')}, ${q('targetStatus')}, ${q('position')} FROM ${q(table)} WHERE ${q('sourceId')} = ? ORDER BY ${q('position')}`,
    [sourceId],
  );
}

function rejectDuplicates(keys: LinkKey[]) {
  keys.forEach((key, i) => {
    if (keys.findIndex((other) => sameLink(other, key)) !== i) {
      throw new ValidationError(
        `The relation with id ${key.targetDocumentId} is already connected. You cannot connect the same relation twice.`,
      );
    }
  });
}

async function setLinks(
  tx: Queryable,
  registry: Registry,
  model: AnyModel,
  attribute: RelationAttribute,
  sourceId: number,
  targets: RelationTarget[],
  context: LinkContext,
) {
  let keys = targets.map((t) => linkKey(registry, attribute, t, context));
  rejectDuplicates(keys);
  if (!attribute.toMany) keys = keys.slice(-1);
  await assertTargetsExist(tx, registry, attribute, keys);
  const q = tx.dialect.quote;
  const table = attribute.linkTable;
  const existing = await currentLinks(tx, table, sourceId);
  const positions = generateNKeysBetween(null, null, keys.length);
  // Links that stay keep their row (and so their place on the inverse side).
  for (const old of existing) {
    if (!keys.some((k) => sameLink(k, old))) await tx.run(`DELETE FROM ${q(table)} WHERE id = ?`, [old.id]);
  }
  for (let i = 0; i < keys.length; i++) {
    const old = existing.find((o) => sameLink(o, keys[i]!));
    if (old) await tx.run(`UPDATE ${q(table)} SET ${q('position')} = ? WHERE id = ?`, [positions[i]!, old.id]);
    else await insertLink(tx, table, sourceId, keys[i]!, positions[i]!);
  }
  if (inverseIsToOne(registry, attribute)) for (const key of keys) await dropOtherOwners(tx, model, attribute, sourceId, key);
}

async function patchLinks(
  tx: Queryable,
  registry: Registry,
  model: AnyModel,
  attribute: RelationAttribute,
  sourceId: number,
  connect: RelationTarget[],
  disconnect: RelationTarget[],
  context: LinkContext,
) {
  const q = tx.dialect.quote;
  const table = attribute.linkTable;
  const connectKeys = connect.map((t) => linkKey(registry, attribute, t, context));
  rejectDuplicates(connectKeys);
  const disconnectKeys = disconnect.map((t) => linkKey(registry, attribute, t, context));
  await assertTargetsExist(tx, registry, attribute, [...connectKeys, ...disconnectKeys]);

  if (!attribute.toMany) {
    // A to-one side holds one link: the last connected target wins.
    const last = connectKeys.at(-1);
    const existing = await currentLinks(tx, table, sourceId);
    for (const old of existing) {
      const dropped = disconnectKeys.some((k) => sameLink(k, old));
      if ((last && !sameLink(last, old)) || dropped) await tx.run(`DELETE FROM ${q(table)} WHERE id = ?`, [old.id]);
    }
    if (last && !existing.some((o) => sameLink(o, last))) await insertLink(tx, table, sourceId, last, generateKeyBetween(null, null));
    if (last && inverseIsToOne(registry, attribute)) await dropOtherOwners(tx, model, attribute, sourceId, last);
    return;
  }

  let list = await currentLinks(tx, table, sourceId);
  for (const key of disconnectKeys) {
    if (connectKeys.some((k) => sameLink(k, key))) continue;
    const old = list.find((o) => sameLink(o, key));
    if (!old) continue;
    await tx.run(`DELETE FROM ${q(table)} WHERE id = ?`, [old.id]);
    list = list.filter((o) => o !== old);
  }
  for (let i = 0; i < connect.length; i++) {
    const key = connectKeys[i]!;
    const position = connect[i]!.position ?? { end: true };
    const without = list.filter((o) => !sameLink(o, key));
    let index: number;
    if ('start' in position) index = 0;
    else if ('end' in position) index = without.length;
    else {
      const anchorId = 'before' in position ? position.before : position.after;
      const anchorKey = linkKey(registry, attribute, { ...connect[i]!, documentId: anchorId }, context);
      const at = without.findIndex((o) => sameLink(o, anchorKey));
      if (at < 0) {
        throw new ValidationError(
          `There was a problem connecting relation with id ${key.targetDocumentId} at position ${JSON.stringify(position)}. The relation with id ${anchorId} needs to be connected first.`,
        );
      }
      index = 'before' in position ? at : at + 1;
    }
    const keyBetween = generateKeyBetween(without[index - 1]?.position ?? null, without[index]?.position ?? null);
    const old = list.find((o) => sameLink(o, key));
    if (old) {
      await tx.run(`UPDATE ${q(table)} SET ${q('position')} = ? WHERE id = ?`, [keyBetween, old.id]);
      old.position = keyBetween;
      without.splice(index, 0, old);
    } else {
      await insertLink(tx, table, sourceId, key, keyBetween);
      if (inverseIsToOne(registry, attribute)) await dropOtherOwners(tx, model, attribute, sourceId, key);
      without.splice(index, 0, { id: -1, ...key, position: keyBetween });
      // The new row's id is only needed if a later element of this request moves it again.
      const inserted = await tx.get<{ id: number }>(
        `SELECT id FROM ${q(table)} WHERE ${q('sourceId')} = ? AND ${q('targetDocumentId')} = ? AND ${q('targetLocale')} = ? AND ${q('targetStatus')} = ?`,
        [sourceId, key.targetDocumentId, key.targetLocale, key.targetStatus],
      );
      without[index]!.id = inserted!.id;
    }
    list = without;
  }
}

/** Copies the owning-side links of one row to another (publish, new locale copies). */
export async function copyOwnedLinks(tx: Queryable, model: AnyModel, fromId: number, toId: number, registry?: Registry, fields?: string[]): Promise<void> {
  const q = tx.dialect.quote;
  const cols = ['targetDocumentId', 'targetLocale', 'targetStatus', 'position', 'inversePosition'].map(q).join(', ');
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.kind !== 'relation' || !attribute.owner) continue;
    if (fields && !fields.includes(attribute.name)) continue;
    const toOne = registry !== undefined && inverseIsToOne(registry, attribute);
    if (toOne) {
      // The copy takes each target from its other owners, as connecting it would: under the same
      // locks (a second lock call: the targets are known only now; a rare deadlock is retried).
      const target = registry.contentType(attribute.target)!;
      const keys = await currentLinks(tx, attribute.linkTable, fromId);
      await tx.lock(keys.map((key) => linksToLock(target, key.targetDocumentId)));
    }
    await tx.run(
      `INSERT INTO ${q(attribute.linkTable)} (${q('sourceId')}, ${cols}) SELECT ?, ${cols} FROM ${q(attribute.linkTable)} WHERE ${q('sourceId')} = ?`,
      [toId, fromId],
    );
    if (toOne) {
      for (const key of await currentLinks(tx, attribute.linkTable, toId)) await dropOtherOwners(tx, model, attribute, toId, key);
    }
  }
}

/** Removes every link pointing at a document (in one locale, or all when `locale` is undefined). */
export async function deleteLinksTo(tx: Queryable, registry: Registry, target: ContentType, documentId: string, locale?: string) {
  const q = tx.dialect.quote;
  for (const model of [...registry.contentTypes, ...registry.components]) {
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind !== 'relation' || !attribute.owner || attribute.target !== target.uid) continue;
      const byLocale = locale === undefined ? '' : ` AND ${q('targetLocale')} = ?`;
      await tx.run(
        `DELETE FROM ${q(attribute.linkTable)} WHERE ${q('targetDocumentId')} = ?${byLocale}`,
        locale === undefined ? [documentId] : [documentId, locale],
      );
    }
  }
}
