/**
 * A version's full content, as a write body would give it back: what content history keeps
 * (src/history/) and what restoring a version writes again as an update.
 *
 *  - every scalar attribute, private ones included (the content API never shows those; history
 *    shows them only in the admin and the CLI); password attributes never (a hash is a secret);
 *  - components and dynamic zones as bodies (`__component` on zone items), with their own
 *    relations and media, nested ones included;
 *  - relations of owning sides as longhand targets `{ documentId, locale?, status? }` (a list
 *    for to-many sides, one object or null for to-one); inverse sides are the other document's;
 *  - polymorphic links of morphTo sides as `{ __type, documentId, locale?, status? }`;
 *  - media as file ids (a list for `multiple`, one id or null otherwise).
 *
 * One statement per attribute and level for all the rows of that level (read through the
 * transaction that wrote them, so a listener sees what it is about to commit).
 */
import type { Queryable } from '../db/database';
import { componentValues } from '../db/store/components';
import { linksOfRows } from '../db/store/links';
import { mediaOfRows } from '../db/store/media';
import { morphLinksOfRows } from '../db/store/morph-links';
import { versionsWithValues, type VersionValues } from '../db/store/versions';
import type { AnyModel, ContentType } from '../registry/types';

type Body = Record<string, unknown>;

/** What a stored row holds of a model's own attributes, before its parts are read. */
interface StoredRow {
  id: number;
  values: Body;
}

/** The status of a document in a locale, as the admin's list shows it. */
export type DocumentStatus = 'draft' | 'published' | 'modified';

export interface DocumentContent {
  /** The draft's content (the only version's, without draft & publish). */
  data: Body;
  /** `draft`: never published; `published`: the draft is what is published; `modified`: saved since. Always `published` without draft & publish. */
  status: DocumentStatus;
}

const pinned = (locale: string, status: string): Body => ({ ...(locale ? { locale } : {}), ...(status ? { status } : {}) });

/** Rows read in one statement per attribute at most (bound parameters stay well under both engines' limits). */
const CHUNK = 500;

/** The full content of rows of one model (a content type's versions or a component's rows), in the order given. */
export async function rowsContent(tx: Queryable, model: AnyModel, rows: StoredRow[]): Promise<Body[]> {
  if (rows.length > CHUNK) {
    const out: Body[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) out.push(...(await rowsContent(tx, model, rows.slice(i, i + CHUNK))));
    return out;
  }
  const bodies: Body[] = rows.map((row) => {
    const body: Body = {};
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind === 'scalar' && attribute.type !== 'password') body[attribute.name] = row.values[attribute.name] ?? null;
    }
    return body;
  });
  if (rows.length === 0) return bodies;
  const ids = rows.map((row) => row.id);
  const at = new Map(ids.map((id, i) => [id, i]));
  const attributes = Object.values(model.attributes);
  // The reads of one level are independent: sent together (PostgreSQL's client pipelines them).
  const reads: Promise<void>[] = [];

  if (attributes.some((a) => a.kind === 'media')) {
    reads.push(
      mediaOfRows(tx, model.uid, ids).then((links) => {
        const files = new Map<string, number[]>();
        for (const link of links) {
          const key = `${link.rowId}\u0000${link.field}`;
          files.set(key, [...(files.get(key) ?? []), link.fileId]);
        }
        for (const attribute of attributes) {
          if (attribute.kind !== 'media') continue;
          ids.forEach((id, i) => {
            const list = files.get(`${id}\u0000${attribute.name}`) ?? [];
            bodies[i]![attribute.name] = attribute.multiple ? list : (list[0] ?? null);
          });
        }
      }),
    );
  }

  for (const attribute of attributes) {
    if (attribute.kind === 'relation' && attribute.owner) {
      reads.push(
        linksOfRows(tx, attribute, ids).then((links) => {
          const lists = ids.map((): Body[] => []);
          for (const link of links) lists[at.get(link.sourceId)!]!.push({ documentId: link.documentId, ...pinned(link.locale, link.status) });
          lists.forEach((list, i) => (bodies[i]![attribute.name] = attribute.toMany ? list : (list[0] ?? null)));
        }),
      );
    } else if (attribute.kind === 'morph' && attribute.owner) {
      reads.push(
        morphLinksOfRows(tx, attribute, ids).then((links) => {
          const lists = ids.map((): Body[] => []);
          for (const link of links) lists[at.get(link.sourceId)!]!.push({ __type: link.type, documentId: link.documentId, ...pinned(link.locale, link.status) });
          lists.forEach((list, i) => (bodies[i]![attribute.name] = attribute.toMany ? list : (list[0] ?? null)));
        }),
      );
    } else if (attribute.kind === 'component' || attribute.kind === 'dynamiczone') {
      const components = attribute.kind === 'component' ? [attribute.componentModel] : attribute.componentModels;
      reads.push(
        Promise.all(
          components.map(async (component) => {
            const stored = await componentValues(tx, component, model.uid, ids, attribute.name);
            const inner = await rowsContent(tx, component, stored.map((row) => ({ id: row.id, values: row.values })));
            return stored.map((row, i) => ({
              owner: row.ownerId,
              order: row.order,
              body: attribute.kind === 'dynamiczone' ? { __component: component.uid, ...inner[i] } : inner[i]!,
            }));
          }),
        ).then((perComponent) => {
          // Zone items of several tables interleave by their stored place.
          const items = perComponent.flat().sort((a, b) => a.order - b.order);
          const byOwner = new Map<number, Body[]>();
          for (const item of items) byOwner.set(item.owner, [...(byOwner.get(item.owner) ?? []), item.body]);
          ids.forEach((id, i) => {
            const mine = byOwner.get(id) ?? [];
            bodies[i]![attribute.name] = attribute.kind === 'component' && !attribute.repeatable ? (mine[0] ?? null) : mine;
          });
        }),
      );
    }
  }
  await Promise.all(reads);
  return bodies;
}

/**
 * The full content of some documents of one type, each in one locale ('' without i18n), and
 * their status there, keyed `documentId + NUL + locale`; a document without a version in
 * the locale is not in the answer. A constant number of statements for any number of documents.
 */
export async function documentContents(tx: Queryable, ct: ContentType, keys: { documentId: string; locale: string }[]): Promise<Map<string, DocumentContent>> {
  const wanted = new Set(keys.map((k) => `${k.documentId}\u0000${k.locale}`));
  const drafts = new Map<string, VersionValues>();
  const published = new Map<string, VersionValues>();
  for (const version of await versionsWithValues(tx, ct, keys.map((k) => k.documentId))) {
    const key = `${version.documentId}\u0000${version.locale}`;
    if (!wanted.has(key)) continue;
    if (ct.draftAndPublish && version.status === 'published') published.set(key, version);
    else if (!drafts.has(key)) drafts.set(key, version);
  }
  const entries = [...drafts.entries()];
  const data = await rowsContent(tx, ct, entries.map(([, v]) => ({ id: v.id, values: v.values })));
  const out = new Map<string, DocumentContent>();
  entries.forEach(([key, draft], i) => {
    const live = published.get(key);
    const status: DocumentStatus = !ct.draftAndPublish ? 'published' : !live ? 'draft' : live.updatedAt === draft.updatedAt ? 'published' : 'modified';
    out.set(key, { data: data[i]!, status });
  });
  return out;
}
