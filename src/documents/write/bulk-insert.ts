/**
 * Bulk creates (`folio import`, createMany): a batch of new documents written table by table
 * instead of document by document. Version rows, component rows and each attribute's links
 * go in a few multi-row inserts (db/store/bulk.ts), relation targets are checked and their
 * last inverse keys read once for the batch (../relations/writer.ts writeLinks), and unique values are
 * checked in one statement per unique attribute.
 *
 * What it writes is what creating the documents one by one writes: the same rows with the
 * same values, ids in the same order in every table (each table receives its rows in the
 * order one-by-one creates would insert them: a document's draft, then its published copy,
 * then the next document), the same link positions, and a failure names the document
 * one-by-one creates would have failed at, with the same error. Documents whose writes need
 * each new row's id or read other rows (media, polymorphic links, nested components or
 * components owning links, inverse-side relations, relations whose other side is to-one)
 * do not fit: `fitsBulk` says so and the caller creates the batch one by one.
 */
import type { Queryable } from '../../db/database';
import { insertComponentRows, insertVersions, uniqueClashes, type NewComponentRow, type NewVersion } from '../../db/store/bulk';
import { ValidationError, type FieldError } from '../../errors';
import type { ScalarField } from '../../registry/fields/field';
import type { Component, ContentType, Registry, RelationAttribute } from '../../registry/types';
import type { ComponentWrite, ModelWrite } from './input';
import { type LinkContext, type LinksByRow, linksByRow, writeLinks } from '../relations/writer';
import { inverseIsToOne } from './locks';
import type { WrittenRow } from '../../query/written-entry';

const itemsOf = (value: ComponentWrite | ComponentWrite[] | null) => (value === null ? [] : Array.isArray(value) ? value : [value]);
const isEmpty = (record: object) => {
  for (const _ in record) return false;
  return true;
};
const noMedia = (input: ModelWrite) => {
  for (const name in input.media) if (input.media[name]!.length) return false;
  return true;
};

/**
 * A component value whose rows own nothing but their own columns: no id of theirs is needed,
 * and a new row's content holds them as the input gave them (./inserted.ts knownParts).
 */
export function flatComponent(item: ComponentWrite): boolean {
  const { input } = item;
  for (const name in input.components) if (itemsOf(input.components[name]!).length) return false;
  return isEmpty(input.relations) && isEmpty(input.morphs) && noMedia(input);
}

/** Whether every document of a batch can be written table by table (see the file's comment). */
export function fitsBulk(ct: ContentType, inputs: ModelWrite[]): boolean {
  for (const input of inputs) {
    if (!isEmpty(input.morphs) || !noMedia(input)) return false;
    for (const name in input.components) if (!itemsOf(input.components[name]!).every(flatComponent)) return false;
    for (const name in input.relations) {
      const attribute = ct.attributes[name] as RelationAttribute;
      if (!attribute.owner || inverseIsToOne(attribute)) return false;
    }
  }
  return true;
}

/** One document of a batch: its key and its checked write. */
export interface BulkDocument {
  documentId: string;
  input: ModelWrite;
}

/** A document of a batch as inserted: the version its create answers with, and its draft's row (the only one without draft & publish). */
export interface BulkWritten {
  answer: WrittenRow;
  draftId: number;
}

/** What a batch wrote: each document's rows, in order, and the relation link rows inserted, by row. */
export interface BulkBatch {
  documents: BulkWritten[];
  links: LinksByRow;
}

/**
 * Inserts a batch of new documents (each a draft and, when `publish` on a type with draft &
 * publish, its published copy); returns what each create wrote, in order, and the link rows
 * inserted (split by row once for the batch: ./operation.ts recordWrite takes each draft's).
 */
export async function insertBulk(
  tx: Queryable,
  registry: Registry,
  ct: ContentType,
  documents: BulkDocument[],
  locale: string,
  publish: boolean,
  context: LinkContext,
): Promise<BulkBatch> {
  const both = ct.draftAndPublish && publish;
  const versions: NewVersion[] = [];
  const answers: WrittenRow[] = [];
  for (const { documentId, input } of documents) {
    const now = new Date().toISOString();
    const publishedAt = ct.draftAndPublish && !publish ? null : now;
    if (both) versions.push({ documentId, locale, times: { createdAt: now, updatedAt: now, publishedAt: null }, values: input.scalars });
    versions.push({ documentId, locale, times: { createdAt: now, updatedAt: now, publishedAt }, values: input.scalars });
    answers.push({ rowId: 0, documentId, locale, createdAt: now, updatedAt: now, publishedAt, scalars: input.scalars });
  }
  const ids = await insertVersions(tx, ct, versions);
  const perDocument = both ? 2 : 1;
  const sources = documents.map((d, i) => ({ rowIds: ids.slice(i * perDocument, (i + 1) * perDocument), fresh: true, relations: d.input.relations }));
  sources.forEach(({ rowIds }, i) => (answers[i]!.rowId = rowIds[rowIds.length - 1]!));
  const clash = publish
    ? await firstUniqueClash(
        tx,
        ct,
        documents,
        sources.map(({ rowIds }) => rowIds[rowIds.length - 1]!),
      )
    : undefined;
  if (clash) {
    // A document before it whose links fail would have failed first (a create checks unique values before its links).
    await writeLinks(tx, registry, ct, sources.slice(0, clash.index), context, { checkOnly: true });
    throw clash.error;
  }
  await insertComponents(
    tx,
    ct,
    documents,
    sources.map((s) => s.rowIds),
  );
  const links = linksByRow(await writeLinks(tx, registry, ct, sources, context));
  return { documents: answers.map((answer, i) => ({ answer, draftId: sources[i]!.rowIds[0]! })), links };
}

/** Every document's component rows, table by table, in the order one-by-one creates insert them. */
async function insertComponents(tx: Queryable, ct: ContentType, documents: BulkDocument[], rowIds: number[][]) {
  const tables = new Map<Component, NewComponentRow[]>();
  documents.forEach(({ input }, i) => {
    // The draft's rows field by field, then its published copy's (copyComponents copies them so).
    for (const ownerId of rowIds[i]!) {
      for (const [field, value] of Object.entries(input.components)) {
        itemsOf(value).forEach((item, order) => {
          const { component } = item;
          const rows = tables.get(component) ?? [];
          rows.push({ owner: { type: ct.uid, id: ownerId, field, order }, values: item.input.scalars });
          tables.set(component, rows);
        });
      }
    }
  });
  for (const [component, rows] of tables) await insertComponentRows(tx, component, rows);
}

/**
 * The unique check of one-by-one creates (service.ts assertUnique) for a batch: a document
 * fails when a value of one of its unique attributes is held by another document's published
 * version written before it. The first failing document, with the error its create would throw.
 */
async function firstUniqueClash(tx: Queryable, ct: ContentType, documents: BulkDocument[], publishedIds: number[]) {
  const fields = Object.values(ct.fields).filter((f): f is ScalarField => f.kind === 'scalar' && (f.attribute.unique || f.type === 'uid'));
  const clashes: [ScalarField, Set<number>][] = [];
  for (const field of fields) {
    const ids = publishedIds.filter((_, i) => documents[i]!.input.scalars[field.name] != null);
    if (ids.length) clashes.push([field, await uniqueClashes(tx, ct, field, ids)]);
  }
  const index = publishedIds.findIndex((id) => clashes.some(([, ids]) => ids.has(id)));
  if (index < 0) return undefined;
  const errors: FieldError[] = clashes
    .filter(([, ids]) => ids.has(publishedIds[index]!))
    .map(([field]) => ({
      path: [field.name],
      message: 'This attribute must be unique',
      name: 'ValidationError',
      value: documents[index]!.input.scalars[field.name],
    }));
  return { index, error: ValidationError.fromFieldErrors(errors) };
}
