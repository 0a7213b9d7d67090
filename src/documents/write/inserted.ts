/**
 * What a create tells the write's listeners about a version it inserted (./context.ts
 * EntryRecord.inserted): the row, the checked input it was written from and the relation link
 * rows it inserted for the row. The row is new, so it holds what the input wrote and nothing
 * else: content history takes the row's values from the input, its relation links from the rows
 * inserted, its components whose rows own nothing but their columns from the input
 * (knownParts), and reads only the other tables the input wrote rows into (writtenParts) instead
 * of reading the whole content back. One create and a bulk batch (./bulk-insert.ts) hand the
 * same.
 */
import { insertedValues } from '../../db/store/columns';
import type { KnownComponentRow, KnownParts } from '../../query/content';
import type { Engine } from '../../registry/fields/field';
import type { AnyModel, ContentType } from '../../registry/types';
import type { InsertedLinks } from '../relations/writer';
import { flatComponent } from './bulk-insert';
import type { ComponentWrite, ModelWrite } from './input';

export interface InsertedVersion {
  rowId: number;
  input: ModelWrite;
  /**
   * The relation link rows the create inserted for the version's own attributes: all its
   * relation links (a published copy's are its draft's, the same keys). Its components' are not here.
   */
  links: InsertedLinks;
}

const NO_LINKS: InsertedLinks = new Map();

const itemsOf = (value: ComponentWrite | ComponentWrite[] | null) => (value === null ? [] : Array.isArray(value) ? value : [value]);

/** Whether writing `input` for rows of `model` changes links other documents own (an inverse side's targets). */
function reachesOthers(model: AnyModel, input: ModelWrite): boolean {
  for (const name in input.relations) {
    const attribute = model.attributes[name];
    if (attribute?.kind === 'relation' && !attribute.owner) return true;
  }
  for (const name in input.components) for (const item of itemsOf(input.components[name]!)) if (reachesOthers(item.component, item.input)) return true;
  return false;
}

/**
 * The version a create inserted as its listeners may take it, or undefined when its input
 * also writes inverse sides: those change other documents' links (possibly another document
 * this same transaction created), so what the transaction wrote must be read back. `links`:
 * the row's own link rows (undefined: it has none).
 */
export function insertedVersion(ct: ContentType, rowId: number, input: ModelWrite, links: InsertedLinks | undefined): InsertedVersion | undefined {
  return reachesOthers(ct, input) ? undefined : { rowId, input, links: links ?? NO_LINKS };
}

/** A component attribute's items whose rows own nothing but their columns: the input is all they hold (none at all included). */
const known = (items: ComponentWrite[]) => items.every(flatComponent);

/**
 * What a version holds beside its columns and needs no reading (query/content.ts KnownParts):
 * its relation links, and its component attributes whose items are flat, their rows from the
 * input with values as stored.
 */
export function knownParts(version: InsertedVersion, engine: Engine): KnownParts {
  const components: Record<string, KnownComponentRow[]> = {};
  for (const name in version.input.components) {
    const items = itemsOf(version.input.components[name]!);
    if (known(items))
      components[name] = items.map((item) => ({ component: item.component, values: insertedValues(item.component, engine, item.input.scalars) }));
  }
  return { links: version.links, components };
}

/**
 * Per model (the type, and every component the inputs wrote rows of that is read), the
 * polymorphic, media, component and (in components) relation attributes some input gave a
 * value and knownParts does not give: nothing else of the rows written from these inputs
 * holds anything that must be read.
 */
export function writtenParts(ct: ContentType, inputs: ModelWrite[]): Map<AnyModel, Set<string>> {
  const parts = new Map<AnyModel, Set<string>>();
  const add = (model: AnyModel, input: ModelWrite, version: boolean) => {
    let names = parts.get(model);
    if (!names) parts.set(model, (names = new Set()));
    // A version's relation links are the rows its create inserted (InsertedVersion.links).
    if (!version) for (const name in input.relations) names.add(name);
    for (const name in input.morphs) names.add(name);
    for (const name in input.media) if (input.media[name]!.length > 0) names.add(name);
    for (const name in input.components) {
      const items = itemsOf(input.components[name]!);
      if (version && known(items)) continue;
      if (items.length > 0) names.add(name);
      for (const item of items) add(item.component, item.input, false);
    }
  };
  for (const input of inputs) add(ct, input, true);
  return parts;
}
