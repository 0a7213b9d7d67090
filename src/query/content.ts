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
 * Read level by level (a level: the rows' media, links and component rows; the next: those
 * component rows' own parts), each level in one step for all the rows of that level: one
 * UNION ALL on SQLite, its statements sent together on PostgreSQL (./union-reads.ts). Read
 * through the transaction that wrote them, so a listener sees what it is about to commit. Rows
 * a write just inserted are read only where it wrote something (WrittenParts).
 */
import type { Queryable } from '../db/database';
import { COMPONENT_ID, COMPONENT_OWNER as O, LINK as L, linkTableOf, MEDIA_LINKS as M, MORPH_LINK as ML, tableOf } from '../db/layout';
import { sql, type Sql } from '../db/sql';
import { columnFields, scalarValues } from '../db/store/columns';
import type { NewLink } from '../db/store/links';
import { versionsWithValues, type VersionValues } from '../db/store/versions';
import type { AnyModel, Component, ContentType, MorphAttribute, RelationAttribute } from '../registry/types';
import { readBranches, type Branch } from './union-reads';

type Body = Record<string, unknown>;

/** What a stored row holds of a model's own attributes, before its parts are read. */
export interface StoredRow {
  id: number;
  values: Body;
}

/**
 * What rows the recorded write inserted may hold beyond their own columns: per model (the
 * content type, each component it wrote rows of), the relation, polymorphic, media and
 * component attributes it gave a value. A model or attribute left out holds nothing for
 * those rows (they are new), so nothing is read for it.
 */
export type WrittenParts = ReadonlyMap<AnyModel, ReadonlySet<string>>;

/** The status of a document in a locale, as the admin's list shows it. */
export type DocumentStatus = 'draft' | 'published' | 'modified';

export interface DocumentContent {
  /** The draft's content (the only version's, without draft & publish). */
  data: Body;
  /** `draft`: never published; `published`: the draft is what is published; `modified`: saved since. Always `published` without draft & publish. */
  status: DocumentStatus;
}

/** A link's target as a body holds it: `{ documentId, locale?, status? }` (a morph link's with its `__type` first). */
function target(documentId: unknown, locale: string, status: string, type?: unknown): Body {
  const body: Body = type === undefined ? { documentId } : { __type: type, documentId };
  if (locale) body.locale = locale;
  if (status) body.status = status;
  return body;
}

/** Rows named in one branch at most (bound parameters stay well under both engines' limits). */
const CHUNK = 500;

/** Rows of one model whose parts a level reads: their bodies are filled as the reads come back. */
interface Group {
  model: AnyModel;
  ids: number[];
  bodies: Body[];
  /** Which attributes may hold parts (undefined: any). */
  parts?: WrittenParts;
  /** Row id → its index in `ids` (made once, for all the group's reads). */
  at?: Map<number, number>;
}

/** A read of a level: its branches (one per chunk of rows), and what it does with their rows. */
interface Read {
  branches: Branch[];
  take(rows: unknown[][]): void;
}

const id = (name: string) => sql.id(name);
const SYSTEM_COLUMNS = [id(COMPONENT_ID), id(O.id), id(O.order)];
const LINK_COLUMNS = [L.sourceId, L.targetDocumentId, L.targetLocale, L.targetStatus, L.position].map(id);
const MORPH_COLUMNS = [ML.sourceId, ML.targetType, ML.targetDocumentId, ML.targetLocale, ML.targetStatus, ML.position].map(id);
const MEDIA_COLUMNS = [M.relatedId, M.field, M.position, M.fileId].map(id);

/** One branch per chunk of `ids`, each reading `columns` from what `from` makes of its chunk. */
function chunked(ids: number[], columns: Sql[], from: (chunk: number[]) => Sql, fixed = 0): Branch[] {
  const branches: Branch[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    branches.push({ columns, from: from(chunk), bound: chunk.length + fixed });
  }
  return branches;
}

/** Byte order of ASCII keys (order keys, field names), numbers as numbers: the order the engines' ORDER BY gave. */
function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const sortBy = (rows: unknown[][], keys: number[]) =>
  rows.sort((a, b) => {
    for (const k of keys) {
      const c = compare(k === 0 ? Number(a[k]) : a[k], k === 0 ? Number(b[k]) : b[k]);
      if (c !== 0) return c;
    }
    return 0;
  });

/** An attribute's place in a body: a scalar's value, or a part's empty value until read (a list or null). */
interface Slot {
  name: string;
  scalar: boolean;
  list: boolean;
}

/** Each model's slots, in body order (a version or component row body is laid out per row: thousands per import batch). */
const layouts = new WeakMap<AnyModel, Slot[]>();

/** Scalar attributes (passwords never), then media, then the other parts (owned links, components, zones), as bodies hold them. */
function layoutOf(model: AnyModel): Slot[] {
  let slots = layouts.get(model);
  if (slots) return slots;
  slots = [];
  const attributes = Object.values(model.attributes);
  for (const a of attributes) if (a.kind === 'scalar' && a.type !== 'password') slots.push({ name: a.name, scalar: true, list: false });
  for (const a of attributes) if (a.kind === 'media') slots.push({ name: a.name, scalar: false, list: a.multiple });
  for (const a of attributes) {
    if ((a.kind === 'relation' || a.kind === 'morph') && a.owner) slots.push({ name: a.name, scalar: false, list: a.toMany });
    else if (a.kind === 'component') slots.push({ name: a.name, scalar: false, list: a.repeatable });
    else if (a.kind === 'dynamiczone') slots.push({ name: a.name, scalar: false, list: true });
  }
  layouts.set(model, slots);
  return slots;
}

/** Scalar attributes (passwords never) of a row, then its other attributes empty until read, in that order; a zone item's `__component` first. */
function bodyOf(model: AnyModel, values: Body, zoneItem = false): Body {
  const body: Body = zoneItem ? { __component: model.uid } : {};
  for (const slot of layoutOf(model)) body[slot.name] = slot.scalar ? (values[slot.name] ?? null) : slot.list ? [] : null;
  return body;
}

/** Each row's list of what `rows` (sorted, row id first) hold for it, set as the attribute's value (one value for a to-one side). */
function attach(group: Group, name: string, toMany: boolean, rows: unknown[][], item: (row: unknown[]) => unknown) {
  if (rows.length === 0) return;
  const at = (group.at ??= new Map(group.ids.map((rowId, i) => [rowId, i])));
  const lists = new Map<number, unknown[]>();
  for (const row of rows) {
    const i = at.get(Number(row[0]))!;
    let list = lists.get(i);
    if (!list) lists.set(i, (list = []));
    list.push(item(row));
  }
  for (const [i, list] of lists) group.bodies[i]![name] = toMany ? list : (list[0] ?? null);
}

/**
 * Reads the parts of some groups of rows level by level (a level: the groups' media, links
 * and component rows; the next: those component rows' own parts), each level in one step
 * (one UNION ALL on SQLite, statements sent together elsewhere).
 */
async function readParts(tx: Queryable, groups: Group[]): Promise<void> {
  let level = groups.filter((g) => g.ids.length > 0);
  while (level.length > 0) {
    const reads: Read[] = [];
    // The component rows found this level, per component (and parts filter): the next level's groups.
    const next = new Map<WrittenParts | undefined, Map<Component, Group>>();
    const finish: (() => void)[] = [];
    for (const group of level) {
      const { model, ids } = group;
      const wanted = (name: string) => !group.parts || group.parts.get(model)?.has(name) === true;
      const attributes = Object.values(model.attributes);
      const media = attributes.filter((a) => a.kind === 'media' && wanted(a.name));
      if (media.length > 0) {
        reads.push({
          branches: chunked(
            ids,
            MEDIA_COLUMNS,
            (chunk) => sql`${id(M.table)} WHERE ${id(M.relatedType)} = ${model.uid} AND ${id(M.relatedId)} IN (${sql.list(chunk)})`,
            1,
          ),
          take(rows) {
            sortBy(rows, [0, 1, 2]);
            for (const attribute of media) {
              if (attribute.kind !== 'media') continue;
              attach(
                group,
                attribute.name,
                attribute.multiple,
                rows.filter((r) => r[1] === attribute.name),
                (r) => Number(r[3]),
              );
            }
          },
        });
      }
      for (const attribute of attributes) {
        if (!wanted(attribute.name)) continue;
        if (attribute.kind === 'relation' && attribute.owner) reads.push(linksRead(group, attribute));
        else if (attribute.kind === 'morph' && attribute.owner) reads.push(morphRead(group, attribute));
        else if (attribute.kind === 'component' || attribute.kind === 'dynamiczone') {
          const zone = attribute.kind === 'dynamiczone';
          const all = attribute.kind === 'component' ? [attribute.componentModel] : attribute.componentModels;
          // New rows hold rows only of the components the write wrote (a zone's other tables hold nothing).
          const components = group.parts ? all.filter((c) => group.parts!.has(c)) : all;
          const items: { owner: number; order: number; body: Body }[] = [];
          for (const component of components) {
            const fields = columnFields(component, tx.dialect.name);
            const columns = [...SYSTEM_COLUMNS, ...fields.map((f) => (f.readAsText ? sql`CAST(${id(f.name)} AS TEXT)` : id(f.name)))];
            const owned = (chunk: number[]) =>
              sql`${tableOf(component)} WHERE ${id(O.type)} = ${model.uid} AND ${id(O.field)} = ${attribute.name} AND ${id(O.id)} IN (${sql.list(chunk)})`;
            reads.push({
              branches: chunked(ids, columns, owned, 2),
              take(rows) {
                let byComponent = next.get(group.parts);
                if (!byComponent) next.set(group.parts, (byComponent = new Map()));
                let child = byComponent.get(component);
                if (!child) byComponent.set(component, (child = { model: component, ids: [], bodies: [], parts: group.parts }));
                for (const row of rows) {
                  const stored: Body = {};
                  fields.forEach((f, k) => (stored[f.name] = row[3 + k]));
                  // The body itself goes to the next level, which fills its parts in.
                  const body = bodyOf(component, scalarValues(component, stored), zone);
                  child.ids.push(Number(row[0]));
                  child.bodies.push(body);
                  items.push({ owner: Number(row[1]), order: Number(row[2]), body });
                }
              },
            });
          }
          finish.push(() => {
            // Zone items of several tables interleave by their stored place (owner, then order).
            items.sort((a, b) => a.owner - b.owner || a.order - b.order);
            const single = attribute.kind === 'component' && !attribute.repeatable;
            attach(
              group,
              attribute.name,
              !single,
              items.map((item) => [item.owner, item.body]),
              (r) => r[1],
            );
          });
        }
      }
    }
    const results = await readBranches(
      tx,
      reads.flatMap((r) => r.branches),
    );
    let at = 0;
    for (const read of reads) {
      const rows = results.slice(at, at + read.branches.length).flat();
      at += read.branches.length;
      read.take(rows);
    }
    for (const done of finish) done();
    level = [...next.values()].flatMap((byComponent) => [...byComponent.values()]).filter((g) => g.ids.length > 0);
  }
}

function linksRead(group: Group, attribute: RelationAttribute): Read {
  return {
    branches: chunked(group.ids, LINK_COLUMNS, (chunk) => sql`${linkTableOf(attribute)} WHERE ${id(L.sourceId)} IN (${sql.list(chunk)})`),
    take(rows) {
      sortBy(rows, [0, 4]);
      attach(group, attribute.name, attribute.toMany, rows, (r) => target(r[1], r[2] as string, r[3] as string));
    },
  };
}

function morphRead(group: Group, attribute: MorphAttribute): Read {
  return {
    branches: chunked(group.ids, MORPH_COLUMNS, (chunk) => sql`${linkTableOf(attribute)} WHERE ${id(ML.sourceId)} IN (${sql.list(chunk)})`),
    take(rows) {
      sortBy(rows, [0, 5]);
      attach(group, attribute.name, attribute.toMany, rows, (r) => target(r[2], r[3] as string, r[4] as string, r[1]));
    },
  };
}

/**
 * The full content of rows of one model (a content type's versions or a component's rows), in
 * the order given; `parts`: the rows are new, and hold only what it names (see WrittenParts).
 */
export async function rowsContent(tx: Queryable, model: AnyModel, rows: StoredRow[], parts?: WrittenParts): Promise<Body[]> {
  const group: Group = { model, ids: rows.map((row) => row.id), bodies: rows.map((row) => bodyOf(model, row.values)), parts };
  await readParts(tx, [group]);
  return group.bodies;
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
  for (const version of await versionsWithValues(
    tx,
    ct,
    keys.map((k) => k.documentId),
  )) {
    const key = `${version.documentId}\u0000${version.locale}`;
    if (!wanted.has(key)) continue;
    if (ct.draftAndPublish && version.status === 'published') published.set(key, version);
    else if (!drafts.has(key)) drafts.set(key, version);
  }
  const entries = [...drafts.entries()];
  const data = await rowsContent(
    tx,
    ct,
    entries.map(([, v]) => ({ id: v.id, values: v.values })),
  );
  const out = new Map<string, DocumentContent>();
  entries.forEach(([key, draft], i) => {
    const live = published.get(key);
    const status: DocumentStatus = !ct.draftAndPublish ? 'published' : !live ? 'draft' : live.updatedAt === draft.updatedAt ? 'published' : 'modified';
    out.set(key, { data: data[i]!, status });
  });
  return out;
}

/** A component row a write inserted from its input, with nothing of its own but its columns: its component, its values as stored (JSON form). */
export interface KnownComponentRow {
  component: Component;
  values: Body;
}

/**
 * What a new row holds beside its columns that the write that inserted it knows without
 * reading (documents/write/inserted.ts knownParts): all its relation links (the link rows it
 * inserted for the row, any order), and its component attributes whose rows own nothing but
 * their columns (their rows in order; none: the attribute is empty). The rest is read (WrittenParts).
 */
export interface KnownParts {
  links: ReadonlyMap<RelationAttribute, readonly NewLink[]>;
  components: Readonly<Record<string, readonly KnownComponentRow[]>>;
}

/** A version the recorded write inserted: its row, its values as stored (JSON form), its status, what it holds known without reading. */
export interface InsertedContent {
  rowId: number;
  values: Body;
  status: DocumentStatus;
  known: KnownParts;
}

/** Sets on a new row's body what its write knew it holds (KnownParts), as readParts would read it back. */
function setKnown(model: AnyModel, body: Body, known: KnownParts): void {
  for (const [attribute, rows] of known.links) {
    if (rows.length === 0) continue;
    // As linksRead shows them: in the order of their keys (a new row's are inserted so, but the keys decide).
    const ordered = rows.every((row, i) => i === 0 || compare(rows[i - 1]!.rank, row.rank) <= 0) ? rows : [...rows].sort((a, b) => compare(a.rank, b.rank));
    const targets = ordered.map((row) => target(row.key.documentId, row.key.locale, row.key.status));
    body[attribute.name] = attribute.toMany ? targets : targets[0]!;
  }
  for (const name in known.components) {
    const rows = known.components[name]!;
    const attribute = model.attributes[name];
    if (rows.length === 0 || (attribute?.kind !== 'component' && attribute?.kind !== 'dynamiczone')) continue;
    const zone = attribute.kind === 'dynamiczone';
    const bodies = rows.map(({ component, values }) => bodyOf(component, values, zone));
    body[name] = attribute.kind === 'component' && !attribute.repeatable ? bodies[0]! : bodies;
  }
}

/**
 * The full content of versions the recorded write inserted (history of a create), in the order
 * given: their values are what the write stored, their known parts what it wrote, and of their
 * other parts only what `parts` names is read (the rows are new: nothing else exists). A batch
 * whose parts are all known reads nothing.
 */
export async function insertedContents(tx: Queryable, ct: ContentType, versions: InsertedContent[], parts: WrittenParts): Promise<DocumentContent[]> {
  const data = await rowsContent(
    tx,
    ct,
    versions.map((v) => ({ id: v.rowId, values: v.values })),
    parts,
  );
  return versions.map((v, i) => {
    setKnown(ct, data[i]!, v.known);
    return { data: data[i]!, status: v.status };
  });
}
