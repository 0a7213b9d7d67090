/**
 * The first step of writing links (./writer.ts): from the relation and polymorphic writes of
 * one or many source rows, what the write asks for, per source and attribute: the keys to
 * connect (in order, each with its place) or to set, the keys to disconnect, the keys whose
 * targets must exist; and what must be read for it (./read.ts): the target documents per
 * attribute (per type for polymorphic links) and the lists of the rows that are not new.
 * Writes on inverse sides (`tag.articles`) are planned likewise (planInverse): the owner
 * documents to link, unlink or check. Pure: nothing is read or written here, and nothing is
 * refused (./apply.ts decides, in the order one write at a time would meet the errors).
 */
import type { AnyModel, ContentType, MorphAttribute, Registry, RelationAttribute } from '../../registry/types';
import type { RelationTarget, RelationWrite } from './input';
import { type Key, keyFor, type LinkContext, type Named, type Place, placeOf } from './link-keys';
import type { MorphTarget, MorphWrite } from './morph-input';

/** A source row of links, and what the write asks of them. */
export interface LinkSource {
  /** The row written, then the rows inserted beside it that get the same links (a new document's published copy). */
  rowIds: number[];
  /** Inserted by this write: its lists start empty, so none is read. */
  fresh: boolean;
  relations: Record<string, RelationWrite>;
  morphs?: Record<string, MorphWrite>;
}

export type LinkAttribute = RelationAttribute | MorphAttribute;

/** One connected (or set) target: its key, where it goes, and the position as written (for messages). */
export interface PlannedConnect {
  key: Key;
  place: Place;
  position: RelationTarget['position'];
}

/** One attribute's write on one source. */
export interface PlannedWrite {
  source: LinkSource;
  attribute: LinkAttribute;
  op: 'set' | 'patch';
  /** set: its targets; patch: its connects; in order (duplicates are refused among these). */
  connect: PlannedConnect[];
  disconnect: Key[];
  /** The keys whose targets must exist (a to-one set: its last target only). */
  checked: Key[];
}

export interface LinkPlan {
  writes: PlannedWrite[];
  /** Documents whose versions are read, per relation attribute (with each one's last inverse key). */
  targets: Map<RelationAttribute, Set<string>>;
  /** Documents whose versions are read, per type of polymorphic targets. */
  morphTargets: Map<ContentType, Set<string>>;
  /** The rows whose current list is read, per attribute (sources not fresh). */
  lists: Map<LinkAttribute, number[]>;
}

/** Plans the owning-side relation writes and the polymorphic writes of `sources` (inverse sides: planInverse). */
export function planLinks(registry: Registry, model: AnyModel, sources: LinkSource[], context: LinkContext): LinkPlan {
  const plan: LinkPlan = { writes: [], targets: new Map(), morphTargets: new Map(), lists: new Map() };
  const add = <T>(map: Map<T, Set<string>>, at: T, keys: Key[]) => {
    const ids = map.get(at) ?? new Set<string>();
    for (const key of keys) ids.add(key.documentId);
    map.set(at, ids);
  };
  for (const source of sources) {
    for (const [name, write] of Object.entries(source.relations)) {
      const attribute = model.attributes[name] as RelationAttribute;
      if (!attribute.owner) continue;
      const keyOf = (t: Named) => keyFor(attribute.targetType, t, context);
      const planned = planWrite(source, attribute, write, keyOf);
      if (!planned) continue;
      plan.writes.push(planned);
      add(plan.targets, attribute, planned.checked);
      if (!source.fresh) plan.lists.set(attribute, [...(plan.lists.get(attribute) ?? []), source.rowIds[0]!]);
    }
    for (const [name, write] of Object.entries(source.morphs ?? {})) {
      const attribute = model.attributes[name] as MorphAttribute;
      const keyOf = (t: Named) => {
        const type = (t as MorphTarget).type;
        return keyFor(registry.contentType(type)!, t, context, type);
      };
      const planned = planWrite(source, attribute, write, keyOf);
      if (!planned) continue;
      plan.writes.push(planned);
      for (const key of planned.checked) add(plan.morphTargets, registry.contentType(key.type!)!, [key]);
      if (!source.fresh) plan.lists.set(attribute, [...(plan.lists.get(attribute) ?? []), source.rowIds[0]!]);
    }
  }
  return plan;
}

/**
 * One write's plan, or none when it changes nothing: a new row with nothing to connect. A row
 * that is not new is planned whatever it asks (an empty set clears its list).
 */
function planWrite(source: LinkSource, attribute: LinkAttribute, write: RelationWrite | MorphWrite, keyOf: (target: Named) => Key): PlannedWrite | undefined {
  const connectOf = (t: RelationTarget | MorphTarget): PlannedConnect => {
    const position = 'position' in t ? t.position : undefined;
    const key = keyOf(t);
    // An anchor names a document of the connected target's own type.
    return { key, place: placeOf({ ...t, position }, (anchor) => keyOf({ ...t, ...anchor })), position };
  };
  if (write.op === 'set') {
    const connect = write.targets.map(connectOf);
    const keys = connect.map((c) => c.key);
    const checked = attribute.toMany ? keys : keys.slice(-1);
    if (source.fresh && checked.length === 0) return undefined;
    return { source, attribute, op: 'set', connect, disconnect: [], checked };
  }
  const connect = write.connect.map(connectOf);
  const disconnect = write.disconnect.map(keyOf);
  const checked = [...connect.map((c) => c.key), ...disconnect];
  if (source.fresh && checked.length === 0) return undefined;
  return { source, attribute, op: 'patch', connect, disconnect, checked };
}

/** A document written on inverse sides (`tag.articles`, mapped by `article.tags`): the target of the links it asks for. */
export interface InverseSource {
  contentType: ContentType;
  documentId: string;
  locale: string;
  defaultLocale: string;
  /** Owner versions to touch: the drafts only, or drafts and published versions. */
  statuses: ('draft' | 'published')[];
  relations: Record<string, RelationWrite>;
}

/** One inverse attribute's write: owner documents (keyed by documentId and the owner's locale) to link, unlink or check. */
export interface PlannedInverse {
  attribute: RelationAttribute;
  /** The owning type and its attribute holding the links. */
  owner: ContentType;
  ownerToMany: boolean;
  /** What the links point at: this document in its locale ('' when its type has none). */
  self: { documentId: string; locale: string };
  /** The owner versions a draft-only write may touch (undefined: all). */
  touched?: 'draft' | 'published';
  op: 'set' | 'patch';
  /** set: its targets; patch: its connects (keys pin no status; places name owner documents). */
  connect: PlannedConnect[];
  disconnect: Key[];
  checked: Key[];
}

/** Plans the inverse-side writes of a document: the owner versions they touch are read (./read.ts readInverse), then decided (./apply.ts). */
export function planInverse(source: InverseSource): PlannedInverse[] {
  const planned: PlannedInverse[] = [];
  const { contentType } = source;
  for (const [name, write] of Object.entries(source.relations)) {
    const attribute = contentType.attributes[name] as RelationAttribute;
    if (attribute.owner) continue;
    const owner = attribute.targetType;
    const ownerAttribute = owner.attributes[attribute.ownerAttribute!] as RelationAttribute;
    // An owner document's versions in the locale the write names (its own locale when both types have locales).
    const keyOf = (t: Named): Key => ({
      documentId: t.documentId,
      locale: owner.localized ? (contentType.localized ? source.locale : (t.locale ?? source.defaultLocale)) : '',
      status: '',
    });
    // The inverse list shows each owner document once: an anchor names a document.
    const connectOf = (t: RelationTarget): PlannedConnect => ({
      key: keyOf(t),
      place: placeOf(t, (anchor) => ({ documentId: anchor.documentId, locale: '', status: '' })),
      position: t.position,
    });
    const touched = owner.draftAndPublish && source.statuses.length === 1 ? source.statuses[0] : undefined;
    const common = {
      attribute,
      owner,
      ownerToMany: ownerAttribute.toMany,
      self: { documentId: source.documentId, locale: contentType.localized ? source.locale : '' },
      touched,
    };
    if (write.op === 'set') {
      const connect = write.targets.map(connectOf);
      const keys = connect.map((c) => c.key);
      planned.push({ ...common, op: 'set', connect, disconnect: [], checked: attribute.toMany ? keys : keys.slice(-1) });
    } else {
      const connect = write.connect.map(connectOf);
      const disconnect = write.disconnect.map(keyOf);
      planned.push({ ...common, op: 'patch', connect, disconnect, checked: [...connect.map((c) => c.key), ...disconnect] });
    }
  }
  return planned;
}
