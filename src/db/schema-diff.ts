/**
 * What changed between the schema the tables were last synced with (the snapshot kept in
 * `folio_schema_snapshot`, migration 0008) and the schema files read now. Pure: no
 * database, so it is unit-tested on its own (test/unit/db/schema-diff.test.ts).
 *
 * Column types alone cannot tell these changes apart (string, text and enumeration are all
 * TEXT, integer and boolean both INTEGER on SQLite), hence a record of each attribute's kind
 * and type as last applied.
 */
import type { Attribute, Registry } from '../registry/types';

/** An attribute as the snapshot records it: enough to recognise a rename or a type change. */
export interface AttributeShape {
  kind: Attribute['kind'];
  /** Scalar type (`string`, `integer`…). */
  type?: string;
  /** Relation target uid, component uid, or the dynamic zone's component uids joined by `,`. */
  target?: string;
  /** Relation kind (`manyToOne`…); `multiple` for media. */
  relation?: string;
  multiple?: boolean;
  required?: boolean;
  unique?: boolean;
}

export interface ModelShape {
  tableName: string;
  attributes: Record<string, AttributeShape>;
  /** A content type's `options.draftAndPublish` (absent for components, and in snapshots written before it was recorded). */
  draftAndPublish?: boolean;
}

/** Model uid → shape. */
export type Snapshot = Record<string, ModelShape>;

export function shapeOfAttribute(a: Attribute): AttributeShape {
  const shape: AttributeShape = { kind: a.kind };
  switch (a.kind) {
    case 'scalar':
      shape.type = a.type;
      if (a.unique) shape.unique = true;
      break;
    case 'relation':
      shape.target = a.target;
      shape.relation = a.relation;
      break;
    case 'component':
      shape.target = a.component;
      shape.multiple = a.repeatable;
      break;
    case 'dynamiczone':
      shape.target = a.components.join(',');
      break;
    case 'media':
      shape.multiple = a.multiple;
      break;
    default:
      // Polymorphic relations: their kind is enough to pair a rename.
      shape.relation = (a as { relation?: string }).relation;
  }
  if (a.required) shape.required = true;
  return shape;
}

/** The snapshot of the schema files as loaded now: every content type and component with a table. */
export function snapshotOf(registry: Registry): Snapshot {
  const snapshot: Snapshot = {};
  for (const model of [...registry.contentTypes, ...registry.components]) {
    const attributes: Record<string, AttributeShape> = {};
    for (const [name, a] of Object.entries(model.attributes)) attributes[name] = shapeOfAttribute(a);
    snapshot[model.uid] = { tableName: model.tableName, attributes };
    if (model.modelType === 'contentType') snapshot[model.uid].draftAndPublish = model.draftAndPublish;
  }
  return snapshot;
}

/** Two attributes hold the same kind of data: a removed one and an added one may be a rename. */
export function sameKind(a: AttributeShape, b: AttributeShape): boolean {
  return a.kind === b.kind && a.type === b.type && a.target === b.target && a.relation === b.relation && !!a.multiple === !!b.multiple;
}

/**
 * How stored values of one scalar type become another's:
 *  - `same`: nothing to do (same type);
 *  - `convert`: every value converts cleanly (a wider number, a longer kind of text);
 *  - `refuse`: values could be lost or misread (text to number, number to boolean, …).
 */
export type Conversion = 'same' | 'convert' | 'refuse';

const CLEAN: Record<string, readonly string[]> = {
  integer: ['biginteger', 'decimal', 'float'],
  // Both are stored as double precision: only the name differs.
  float: ['decimal'],
  decimal: ['float'],
  string: ['text', 'richtext'],
  text: ['richtext'],
  richtext: ['text'],
  enumeration: ['string', 'text'],
  email: ['string', 'text'],
  uid: ['string', 'text'],
};

export function conversionOf(from: string, to: string): Conversion {
  if (from === to) return 'same';
  return CLEAN[from]?.includes(to) ? 'convert' : 'refuse';
}

/** The clean conversions, for the message of a refused one. */
export const CLEAN_CONVERSIONS = Object.entries(CLEAN)
  .map(([from, to]) => `${from} → ${to.join('/')}`)
  .join(', ');

export interface TypeChange {
  name: string;
  from: AttributeShape;
  to: AttributeShape;
  /** For scalar → scalar; a change of kind (scalar → relation…) is always `refuse`. */
  conversion: Conversion;
}

export interface ModelDiff {
  uid: string;
  removed: string[];
  added: string[];
  /** [old, new]: one removed and one added attribute of the same kind (the only such pair in the model). */
  renamed: [string, string][];
  typeChanged: TypeChange[];
  /** Attributes required now that were not (or did not exist) before. */
  newlyRequired: string[];
  /** Unique scalar attributes that were not unique before (new attributes start empty and are left out). */
  newlyUnique: string[];
}

/**
 * Per model present in both snapshots, what changed. A model new in `next` has no rows
 * to worry about; a model gone from `next` keeps its table (schema sync never drops one).
 */
export function diffSnapshots(previous: Snapshot, next: Snapshot): ModelDiff[] {
  const diffs: ModelDiff[] = [];
  for (const [uid, model] of Object.entries(next)) {
    const before = previous[uid];
    if (!before) continue;
    const diff: ModelDiff = { uid, removed: [], added: [], renamed: [], typeChanged: [], newlyRequired: [], newlyUnique: [] };
    for (const name of Object.keys(before.attributes)) if (!model.attributes[name]) diff.removed.push(name);
    for (const [name, now] of Object.entries(model.attributes)) {
      const was = before.attributes[name];
      if (!was) {
        diff.added.push(name);
        if (now.required) diff.newlyRequired.push(name);
        continue;
      }
      if (now.required && !was.required) diff.newlyRequired.push(name);
      if (now.kind === 'scalar' && now.unique && !was.unique) diff.newlyUnique.push(name);
      if (was.kind !== now.kind) diff.typeChanged.push({ name, from: was, to: now, conversion: 'refuse' });
      else if (was.kind === 'scalar' && was.type !== now.type) {
        diff.typeChanged.push({ name, from: was, to: now, conversion: conversionOf(was.type!, now.type!) });
      }
    }
    // A rename looks like one removed and one added attribute of the same kind; with two
    // candidates on either side there is no telling which goes with which, so none is named.
    for (const old of diff.removed) {
      const was = before.attributes[old];
      const added = diff.added.filter((n) => sameKind(was, model.attributes[n]));
      const removed = diff.removed.filter((n) => sameKind(was, before.attributes[n]));
      if (added.length === 1 && removed.length === 1) diff.renamed.push([old, added[0]]);
    }
    if (Object.values(diff).some((v) => Array.isArray(v) && v.length)) diffs.push(diff);
  }
  return diffs;
}
