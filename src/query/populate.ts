/**
 * Populate: loads relations, components, dynamic zones, media and localizations for a
 * page of rows with one query per attribute and level (statements from query/populate.ts),
 * never one per row, and attaches what it finds to the parents.
 */
import type { Queryable } from '../db/database';
import type { AnyModel, Component, ContentType, MorphAttribute, Registry, RelationAttribute } from '../registry/types';
import { REQUEST_LIMITS, limitExceeded } from './limits';
import type { Row } from './row-reader';
import {
  componentStatement,
  inverseRelationStatement,
  localizationsStatement,
  mediaSelect,
  morphSourcesStatement,
  morphTargetsStatement,
  morphTypesStatement,
  owningRelationStatement,
  orderUnionRows,
  paramSources,
  rowLocalesStatement,
  selectStatement,
  slotName,
  unionGroups,
  unionStatement,
  type ParamSource,
  type PopulateRead,
  type PopulateSelect,
} from './populate-statements';
import type { SqlValue } from '../db/database';
import type { Sql } from '../db/sql';
import type { VersionScope } from './resolve';
import type { PopulateMap, PopulateSpec } from './types';
// The upload plugin owns the file object's shape; populated media answer the same one.
import { FILE_COLUMNS } from '../db/layout';
import { parseFileRow } from '../db/store/files';
import { FILE_MODEL } from '../registry/file-model';

/** The reader's status and locale (the default locale when none was asked). */
export type PopulateScope = VersionScope;

function group(rows: Row[], key: string): Map<unknown, Row[]> {
  const groups = new Map<unknown, Row[]>();
  for (const row of rows) {
    const k = row[key];
    delete row[key];
    let list = groups.get(k);
    if (!list) groups.set(k, (list = []));
    list.push(row);
  }
  return groups;
}

/** Rows by their parent's key (a parallel list): the rows never carry the key, so nothing is deleted from them. */
function groupBy(rows: Row[], parents: unknown[]): Map<unknown, Row[]> {
  const groups = new Map<unknown, Row[]>();
  for (let i = 0; i < rows.length; i++) {
    const k = parents[i];
    const list = groups.get(k);
    if (list) list.push(rows[i]!);
    else groups.set(k, [rows[i]!]);
  }
  return groups;
}

/**
 * One populated attribute of a level: the reads it needs (run together with the level's
 * others, see fetchAll), then what it does with their rows. Morph sides read on their own.
 */
interface Job {
  selects: PopulateSelect[];
  finish(results: Fetched[]): Promise<void>;
}

/**
 * A read's rows as they came (union slots or named columns): `keys[i]` is the key of the
 * read's column after its leading `__` ones, which come as parallel lists in `meta`. Jobs
 * build each response object once from these (RowReader.readAt, or `named` for media).
 */
interface Fetched {
  raws: Row[];
  keys: string[];
  names: string[];
  meta: unknown[][];
}

const META_COLUMNS = new Set(['__parent', '__locale', '__order']);

/** `raws` of select `s` (column k keyed `keyOf(k)`) → its rows and their meta columns. */
function split(s: PopulateSelect, raws: Row[], keyOf: (k: number) => string): Fetched {
  let m = 0;
  while (m < s.columns.length && META_COLUMNS.has(s.columns[m]![0])) m++;
  const meta: unknown[][] = [];
  for (let k = 0; k < m; k++) {
    const key = keyOf(k);
    const list = new Array<unknown>(raws.length);
    for (let i = 0; i < raws.length; i++) list[i] = raws[i]![key];
    meta.push(list);
  }
  const keys: string[] = [];
  const names: string[] = [];
  for (let k = m; k < s.columns.length; k++) {
    keys.push(keyOf(k));
    names.push(s.columns[k]![0]);
  }
  return { raws, keys, names, meta };
}

/** A read's rows keyed by their column names. */
function named({ raws, keys, names }: Fetched): Row[] {
  return raws.map((raw) => {
    const row: Row = {};
    for (let k = 0; k < keys.length; k++) row[names[k]!] = raw[keys[k]!];
    return row;
  });
}

/** SQLite allows 32,766 bound values per statement; a union repeats the parents' ids in every branch. */
const UNION_MAX_VALUES = 20_000;

/**
 * The parents of one level as its reads bind them: one array of ids and one of documentIds,
 * shared by every read of the level, so a kept statement knows which parameters are theirs.
 */
interface Level {
  ids: number[];
  documentIds: string[];
}

/**
 * A level's statements as SQLite runs them: its reads in unions of branches close in width
 * (unionGroups), a group of one as that read's own statement (a nested populate's second
 * level). Kept per populate map (a plan's, kept by query/caches.ts for its query text) and per
 * what else shapes the text: the model, the reader's status and locale, the number of parents,
 * whether their documents are distinct. Each statement's text and where each parameter comes
 * from: the next page of the same request binds its own parents and skips building and
 * compiling ~8 KB of SQL (and hashing it to find the prepared statement).
 */
interface LevelStatement {
  text: string;
  params: ParamSource[];
  /** The reads it answers (indexes into the level's), in its branches' order. */
  reads: number[];
  /** A union's sort keys per branch (orderUnionRows); undefined for one read's own statement. */
  keys?: string[][];
}
interface KeptLevel {
  statements: LevelStatement[];
  /** How many reads the level has. */
  reads: number;
}
const levelStatements = new WeakMap<PopulateMap, Map<string, KeptLevel>>();
/** Shapes kept per populate map: page sizes × statuses × locales a client asks for, bounded. */
const LEVEL_SHAPES = 32;

/** A group of a level's reads as one statement (their union, or the one read's own). */
function groupStatement(selects: PopulateSelect[], reads: number[]): { statement: Sql; keys?: string[][] } {
  if (reads.length === 1) return { statement: selectStatement(selects[reads[0]!]!) };
  return unionStatement(reads.map((r) => selects[r]!));
}

/** The rows of a level statement's reads, each read's own as it alone would return them. */
function fetchedOf(selects: PopulateSelect[], statement: { reads: number[]; keys?: string[][] }, raws: Row[], out: Fetched[]) {
  if (!statement.keys) {
    const s = selects[statement.reads[0]!]!;
    out[statement.reads[0]!] = split(s, raws, (k) => s.columns[k]![0]);
    return;
  }
  const branches = orderUnionRows(raws, statement.keys);
  statement.reads.forEach((r, b) => (out[r] = split(selects[r]!, branches[b]!, slotName)));
}

/**
 * Runs a level's reads: on SQLite as unions (a statement costs more than its rows here);
 * elsewhere all at once, so PostgreSQL's client sends them together (pipelined on
 * one connection, or spread over the pool) instead of a round trip each, one after the
 * other. Each read's rows come back as it alone would return them, in the reads' order.
 * `kept` names where the level's statements may be kept (see LevelStatement), when they may.
 */
async function fetchAll(
  db: Queryable,
  selects: PopulateSelect[],
  parents: number,
  level: Level,
  kept?: { populate: PopulateMap; shape: string },
): Promise<Fetched[]> {
  if (selects.length === 0) return [];
  const unions = db.dialect.unionReads && parents * selects.length <= UNION_MAX_VALUES;
  if (!unions || (selects.length === 1 && !kept)) {
    return Promise.all(selects.map(async (s) => split(s, await db.all<Row>(selectStatement(s)), (k) => s.columns[k]![0])));
  }
  const out = new Array<Fetched>(selects.length);
  if (!kept) {
    for (const reads of unionGroups(selects)) {
      const { statement, keys } = groupStatement(selects, reads);
      fetchedOf(selects, { reads, keys }, await db.all<Row>(statement), out);
    }
    return out;
  }
  let shapes = levelStatements.get(kept.populate);
  if (!shapes) levelStatements.set(kept.populate, (shapes = new Map()));
  let keptLevel = shapes.get(kept.shape);
  if (!keptLevel || keptLevel.reads !== selects.length) {
    const statements = unionGroups(selects).map((reads): LevelStatement => {
      const { statement, keys } = groupStatement(selects, reads);
      return { text: statement.compile('question').text, params: paramSources(statement, [level.ids, level.documentIds]), reads, keys };
    });
    keptLevel = { statements, reads: selects.length };
    if (shapes.size >= LEVEL_SHAPES) shapes.clear();
    shapes.set(kept.shape, keptLevel);
  }
  const lists: readonly SqlValue[][] = [level.ids, level.documentIds];
  for (const statement of keptLevel.statements) {
    const params = statement.params.map((p) => ('value' in p ? p.value : lists[p.list]![p.at]!));
    fetchedOf(selects, statement, await db.all<Row>(statement.text, params), out);
  }
  return out;
}

export async function populateRows(
  db: Queryable,
  registry: Registry,
  model: AnyModel,
  rows: Row[],
  populate: PopulateMap,
  scope: PopulateScope,
): Promise<void> {
  if (rows.length === 0) return;
  const level: Level = { ids: rows.map((r) => r.id as number), documentIds: rows.map((r) => r.documentId as string) };
  const distinct = new Set(level.documentIds).size === rows.length;
  const jobs: Job[] = [];
  // `key` is where each row gets the entry; it names the attribute read unless `spec.attribute` does.
  for (const [key, spec] of Object.entries(populate)) {
    const name = spec.attribute ?? key;
    if (name === 'localizations' && !model.attributes[name]) {
      jobs.push(localizationsJob(db, registry, model as ContentType, rows, level, distinct, spec, scope, key));
      continue;
    }
    const attribute = model.attributes[name]!;
    switch (attribute.kind) {
      case 'relation':
        jobs.push(await relationJob(db, registry, model, attribute, rows, level, spec, scope, key));
        break;
      case 'morph':
        jobs.push({
          selects: [],
          finish: () =>
            attribute.owner
              ? populateMorphTargets(db, registry, attribute, rows, spec, scope, key)
              : populateMorphSources(db, registry, model as ContentType, attribute, rows, spec, scope, key),
        });
        break;
      case 'component':
        jobs.push(componentsJob(db, registry, model, name, [attribute.componentModel], rows, level, spec, scope, !attribute.repeatable, key));
        break;
      case 'dynamiczone':
        jobs.push(componentsJob(db, registry, model, name, attribute.componentModels, rows, level, spec, scope, false, key));
        break;
      case 'media':
        jobs.push(mediaJob(db, registry, model, name, attribute.multiple, rows, level, spec, scope, key));
        break;
    }
  }
  // A list over every locale reads its parents' locales, which shape the statement: not kept.
  const kept = scope.locale === '*' ? undefined : { populate, shape: `${model.uid}\0${scope.status}\0${scope.locale}\0${rows.length}\0${distinct}` };
  const results = await fetchAll(
    db,
    jobs.flatMap((j) => j.selects),
    rows.length,
    level,
    kept,
  );
  // Attached in the populate map's order: the response's keys follow it.
  let at = 0;
  for (const job of jobs) {
    await job.finish(results.slice(at, at + job.selects.length));
    at += job.selects.length;
  }
}

/**
 * Refuses a populated page that would serialise more than `limit` entries. A populated target
 * is one object shared by every parent that links to it, so articles → author → articles →
 * author… costs a query per level but multiplies the response (124 MB at 8 levels on 100
 * articles). Each distinct object is weighed once, so this costs no more than the rows read.
 */
const tooLarge = (limit: number) =>
  limitExceeded('populate', `the response would hold more than ${limit} entries; populate fewer levels or ask for a smaller page`, limit);

/**
 * Every row a populate query finds is attached to a parent, so it is serialised at least once:
 * past the limit, stop before reading the next level (whose `IN (…)` list it would become).
 */
function checkFound(found: Row[], spec: PopulateSpec) {
  if (!spec.count && found.length > REQUEST_LIMITS.responseEntries) throw tooLarge(REQUEST_LIMITS.responseEntries);
}

export function checkResponseSize(rows: Row[], populate: PopulateMap, limit: number = REQUEST_LIMITS.responseEntries): void {
  // Without populate a page holds its own rows only, far below the limit.
  if (rows.length <= limit && Object.keys(populate).length === 0) return;
  const weights = new Map<Row, number>();
  // Each populate map's entries, listed once rather than for every row it applies to.
  const specs = new Map<PopulateMap, [string, PopulateSpec][]>();
  const entriesOf = (map: PopulateMap) => specs.get(map) ?? (specs.set(map, Object.entries(map)), specs.get(map)!);
  const weigh = (row: Row, populate: PopulateMap | undefined): number => {
    // A row that populates nothing weighs itself: the common leaf costs no lookup.
    if (!populate) return 1;
    const entries = entriesOf(populate);
    if (entries.length === 0) return 1;
    let weight = weights.get(row);
    if (weight !== undefined) return weight;
    weight = 1;
    for (const [name, spec] of entries) {
      const value = row[name];
      if (spec.count || !value || typeof value !== 'object') continue;
      for (const child of (Array.isArray(value) ? value : [value]) as Row[]) {
        // Dynamic-zone items follow their component's fragment (see populateComponents).
        weight += weigh(child, spec.on ? spec.on[child.__component as string]?.populate : spec.populate);
        if (weight > limit) throw tooLarge(limit);
      }
    }
    weights.set(row, weight);
    return weight;
  };
  let total = 0;
  for (const row of rows) if ((total += weigh(row, populate)) > limit) throw tooLarge(limit);
}

/** Puts grouped children on their parents: an object or null for to-one, a list otherwise. */
function attach(rows: Row[], name: string, parentKey: string | ((row: Row) => unknown), groups: Map<unknown, Row[]>, single: boolean, spec: PopulateSpec) {
  const keyOf = typeof parentKey === 'string' ? (row: Row) => row[parentKey] : parentKey;
  for (const row of rows) {
    const children = groups.get(keyOf(row)) ?? [];
    if (spec.count) row[name] = { count: children.length };
    else row[name] = single ? (children[0] ?? null) : children;
  }
}

async function relationJob(
  db: Queryable,
  registry: Registry,
  model: AnyModel,
  attribute: RelationAttribute,
  rows: Row[],
  level: Level,
  spec: PopulateSpec,
  scope: PopulateScope,
  key: string,
): Promise<Job> {
  const target = attribute.targetType;
  let parentKey: string | ((row: Row) => unknown) = 'id';
  let compiled: PopulateRead;
  if (attribute.owner) {
    compiled = owningRelationStatement(db.dialect, registry, attribute, level.ids, spec, scope);
  } else {
    const parentType = model as ContentType;
    const localeOf = await parentLocales(db, parentType, rows, scope.locale);
    parentKey = (row) => `${row.documentId}\0${localeOf(row)}`;
    const locales = [...new Set(rows.map(localeOf))];
    compiled = inverseRelationStatement(db.dialect, registry, parentType, attribute, level.documentIds, locales, spec, scope);
  }
  return {
    selects: [compiled.select],
    async finish([{ raws, keys, meta }]) {
      const found = raws!.map((raw) => compiled.reader.readAt(raw, keys!));
      // Inverse sides name their parent by documentId and locale.
      const parents = meta[1] ? meta[0]!.map((p, i) => `${p}\0${meta[1]![i]}`) : meta[0]!;
      checkFound(found, spec);
      if (spec.populate && !spec.count) await populateRows(db, registry, target, found, spec.populate, scope);
      attach(rows, key, parentKey, groupBy(found, parents), !attribute.toMany, spec);
    },
  };
}

/**
 * The targets of a morphTo side: one query for the types the page links to, then one per
 * type. Each item carries `__type` (after its own keys, as Strapi puts it), and items of
 * several types interleave in their stored order. Types the caller may not read, or that
 * `on` does not name, are left out.
 */
async function populateMorphTargets(
  db: Queryable,
  registry: Registry,
  attribute: MorphAttribute,
  rows: Row[],
  spec: PopulateSpec,
  scope: PopulateScope,
  key: string,
) {
  const ids = rows.map((r) => r.id as number);
  const linked = (await db.all<{ t: string }>(morphTypesStatement(attribute, ids))).map((r) => r.t);
  const all: Row[] = [];
  for (const uid of linked) {
    const type = registry.contentType(uid);
    // A type gone from the schema, one the caller may not read, or one `on` leaves out.
    if (!type || (spec.types && !spec.types.includes(uid)) || (spec.on && !spec.on[uid])) continue;
    const sub = spec.on?.[uid] ?? {};
    const { statement, reader } = morphTargetsStatement(db.dialect, registry, attribute, type, ids, sub, scope);
    const found = (await db.all<Row>(statement)).map((r) => ({ __parent: r.__parent, __order: r.__order, ...reader.read(r), __type: uid }));
    all.push(...found);
    checkFound(all, spec);
    if (sub.populate && !spec.count) await populateRows(db, registry, type, found, sub.populate, scope);
  }
  // Parents by id, then each parent's links by their fractional keys (plain ASCII: code-unit order is the stored order).
  const byOrder = (a: Row, b: Row) => ((a.__order as string) < (b.__order as string) ? -1 : (a.__order as string) > (b.__order as string) ? 1 : 0);
  all.sort((a, b) => (a.__parent as number) - (b.__parent as number) || byOrder(a, b));
  for (const row of all) delete row.__order;
  attach(rows, key, 'id', group(all, '__parent'), !attribute.toMany, spec);
}

/** The documents of a morphOne / morphMany side: those of its target whose morphTo links name each row's document. */
async function populateMorphSources(
  db: Queryable,
  registry: Registry,
  model: ContentType,
  attribute: MorphAttribute,
  rows: Row[],
  spec: PopulateSpec,
  scope: PopulateScope,
  key: string,
) {
  const localeOf = await parentLocales(db, model, rows, scope.locale);
  const locales = [...new Set(rows.map(localeOf))];
  const compiled = morphSourcesStatement(
    db.dialect,
    registry,
    model,
    attribute,
    rows.map((r) => r.documentId as string),
    locales,
    spec,
    scope,
  );
  const found = (await db.all<Row>(compiled.statement)).map((r) => {
    const row: Row = { ...compiled.reader.read(r), __parent: `${r.__parent}\0${r.__locale}` };
    return row;
  });
  checkFound(found, spec);
  const groups = group(found, '__parent');
  if (spec.populate && !spec.count) await populateRows(db, registry, attribute.targetType!, found, spec.populate, scope);
  attach(rows, key, (row) => `${row.documentId}\0${localeOf(row)}`, groups, !attribute.toMany, spec);
}

/** Each row's locale ('' for types without i18n), looked up when `fields` left it out. */
async function parentLocales(db: Queryable, ct: ContentType, rows: Row[], locale: string): Promise<(row: Row) => string> {
  if (!ct.localized) return () => '';
  if (locale !== '*') return () => locale;
  if (rows.every((r) => typeof r.locale === 'string')) return (row) => row.locale as string;
  const found = await db.all<{ id: number; locale: string }>(
    rowLocalesStatement(
      ct,
      rows.map((r) => r.id as number),
    ),
  );
  const byId = new Map(found.map((r) => [r.id, r.locale]));
  return (row) => byId.get(row.id as number) ?? '';
}

function componentsJob(
  db: Queryable,
  registry: Registry,
  owner: AnyModel,
  field: string,
  components: Component[],
  rows: Row[],
  level: Level,
  spec: PopulateSpec,
  scope: PopulateScope,
  single: boolean,
  key: string,
): Job {
  const dynamic = owner.attributes[field]?.kind === 'dynamiczone';
  const ids = level.ids;
  const reads: { component: Component; compiled: PopulateRead; sub: PopulateSpec | undefined }[] = [];
  for (const component of components) {
    const { uid } = component;
    const sub = dynamic ? (spec.on?.[uid] ?? (spec.on ? undefined : spec)) : spec;
    if (dynamic && spec.on && !spec.on[uid]) continue;
    // A dynamic zone keeps its stored order across component types; a component field may be sorted.
    const options = dynamic ? { fields: sub?.fields } : spec;
    reads.push({ component, compiled: componentStatement(db.dialect, registry, owner, field, component, ids, options, scope), sub });
  }
  return {
    selects: reads.map((r) => r.compiled.select),
    async finish(results) {
      const all: Row[] = [];
      const parents: unknown[] = [];
      const orders: number[] = [];
      for (let i = 0; i < reads.length; i++) {
        const { component, compiled, sub } = reads[i]!;
        const { raws, keys, meta } = results[i]!;
        const found = raws.map((r) => {
          const out = compiled.reader.readAt(r, keys);
          if (dynamic) out.__component = component.uid;
          return out;
        });
        for (let j = 0; j < found.length; j++) {
          all.push(found[j]!);
          parents.push(meta[0]![j]);
          orders.push(meta[1]![j] as number);
        }
        checkFound(all, spec);
        if (sub?.populate) await populateRows(db, registry, component, found, sub.populate, scope);
      }
      if (!dynamic) return attach(rows, key, 'id', groupBy(all, parents), single, spec);
      // The rows of several component types interleave by their stored order (a stable sort keeps ties as read).
      const index = all.map((_, i) => i).sort((a, b) => orders[a]! - orders[b]!);
      attach(
        rows,
        key,
        'id',
        groupBy(
          index.map((i) => all[i]!),
          index.map((i) => parents[i]),
        ),
        single,
        spec,
      );
    },
  };
}

function mediaJob(
  db: Queryable,
  registry: Registry,
  owner: AnyModel,
  field: string,
  multiple: boolean,
  rows: Row[],
  level: Level,
  spec: PopulateSpec,
  scope: PopulateScope,
  key: string,
): Job {
  const columns = spec.fields ? FILE_COLUMNS.filter((c) => c === 'id' || c === 'documentId' || spec.fields!.includes(c)) : FILE_COLUMNS;
  const filter = spec.filters || spec.sort?.length ? { dialect: db.dialect, registry, file: FILE_MODEL, spec, scope } : undefined;
  return {
    selects: [mediaSelect(owner, field, level.ids, columns, filter)],
    async finish([fetched]) {
      const found = named(fetched!).map(parseFileRow);
      const meta = fetched!.meta;
      checkFound(found, spec);
      attach(rows, key, 'id', groupBy(found, meta[0]!), !multiple, spec);
    },
  };
}

/** The other locales of the same document, in the same status. */
function localizationsJob(
  db: Queryable,
  registry: Registry,
  ct: ContentType,
  rows: Row[],
  level: Level,
  distinct: boolean,
  spec: PopulateSpec,
  scope: PopulateScope,
  key: string,
): Job {
  const { select, reader } = localizationsStatement(db.dialect, registry, ct, level.documentIds, distinct ? level.ids : [], spec, scope);
  return {
    selects: [select],
    async finish([{ raws, keys, meta }]) {
      const found = raws!.map((raw) => reader.readAt(raw, keys!));
      checkFound(found, spec);
      if (spec.populate) await populateRows(db, registry, ct, found, spec.populate, scope);
      const groups = groupBy(found, meta[0]!);
      for (const row of rows) {
        const others = (groups.get(row.documentId) ?? []).filter((o) => o.id !== row.id);
        // Strapi 5.54.0 answers the other locales themselves even when a count is asked for.
        row[key] = others;
      }
    },
  };
}
