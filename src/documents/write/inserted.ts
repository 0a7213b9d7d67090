/**
 * What a create tells the write's listeners about a version it inserted (./context.ts
 * EntryRecord.inserted): the row, the checked input it was written from and the relation link
 * rows it inserted. The row is new, so it holds what the input wrote and nothing else: content
 * history takes the row's values from the input, its relation links from the rows inserted, and
 * reads only the other tables the input wrote rows into (query/content.ts WrittenParts) instead
 * of reading the whole content back.
 */
import type { AnyModel, ContentType } from '../../registry/types';
import type { InsertedLinks } from '../relations/writer';
import type { ComponentWrite, ModelWrite } from './input';

export interface InsertedVersion {
  rowId: number;
  input: ModelWrite;
  /**
   * The relation link rows the create inserted for the version's own attributes (of this row
   * and of the rows inserted beside it: keep those of `rowId`); its components' are not here.
   * Undefined: not known (a batch create), read them.
   */
  links?: InsertedLinks;
}

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
 * this same transaction created), so what the transaction wrote must be read back.
 */
export function insertedVersion(ct: ContentType, rowId: number, input: ModelWrite, links?: InsertedLinks): InsertedVersion | undefined {
  return reachesOthers(ct, input) ? undefined : { rowId, input, links };
}

/**
 * Per model (the type, and every component the inputs wrote rows of), the relation,
 * polymorphic, media and component attributes some input gave a value: nothing else of the
 * rows written from these inputs holds anything.
 */
export function writtenParts(ct: ContentType, inputs: ModelWrite[]): Map<AnyModel, Set<string>> {
  const parts = new Map<AnyModel, Set<string>>();
  const add = (model: AnyModel, input: ModelWrite) => {
    let names = parts.get(model);
    if (!names) parts.set(model, (names = new Set()));
    for (const name in input.relations) names.add(name);
    for (const name in input.morphs) names.add(name);
    for (const name in input.media) if (input.media[name]!.length > 0) names.add(name);
    for (const name in input.components) {
      const items = itemsOf(input.components[name]!);
      if (items.length > 0) names.add(name);
      for (const item of items) add(item.component, item.input);
    }
  };
  for (const input of inputs) add(ct, input);
  return parts;
}
