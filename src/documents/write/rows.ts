/**
 * Row writes, as Strapi's query engine makes them (`strapi.db.query(uid).update/delete`,
 * `updateMany/deleteMany`): version rows, not documents. The row a `where` finds changes and
 * nothing else: no republishing, no copy of non-localized values to the other locales, as
 * the query engine writes (the document service does those). Each runs in the pipeline
 * (joining an open write) under its documents' locks, with the query engine's lifecycle
 * events: beforeUpdate/afterUpdate or beforeDelete/afterDelete around a single write (the
 * before event first, so a handler may change `where` or `data`; the after event gets the row
 * as read back), beforeUpdateMany/afterUpdateMany or beforeDeleteMany/afterDeleteMany once
 * around a many write (`result: { count }`). As in Strapi, many writes change scalar
 * attributes only, and no webhook or history event is recorded for row writes.
 */
import type { Queryable } from '../../db/database';
import { updateVersion, storedValues } from '../../db/store/versions';
import { ValidationError } from '../../errors';
import type { ContentType } from '../../registry/types';
import { writeOwnedParts } from '../components/rows';
import { writeInverseLinks } from '../relations/writer';
import { deleteLinksTo } from '../relations/deleted-targets';
import { resolveRowIds } from '../relations/row-ids';
import type { Actor } from './context';
import type { LifecycleEvent } from './hooks';
import { readModelInput } from './input';
import { deleteLocks, documentLock } from './locks';
import { assertDocumentType, LOCKED, type WriteDeps } from './operation';
import { assertUnique } from './unique';
import { deleteVersions, versionIds } from './versions';

type Row = Record<string, unknown>;
type Params = LifecycleEvent['params'];

/** What identifies a version row. */
export interface RowRef {
  id: number;
  documentId: string;
  /** '' for types without i18n. */
  locale: string;
  publishedAt: string | null;
}

/** How the caller finds and reads rows (the query engine's adapter builds these on query/row-plan.ts). */
export interface RowAccess {
  /** The rows `params.where` (as the before handlers left it) matches, in order; `first`: only the first. */
  find(params: Params, tx: Queryable, first: boolean): Promise<RowRef[]>;
  /** A row as the caller's `select`/`populate` shape it, read through `tx`. */
  read(id: number, params: Params, tx: Queryable): Promise<Row | null>;
}

export interface RowWriteOptions {
  actor?: Actor;
}

const statusOf = (ct: ContentType, row: RowRef) => (!ct.draftAndPublish || row.publishedAt ? 'published' : 'draft');

/** Updates the first row `params.where` finds with `params.data`; the row as read back, or null when none matches. */
export async function updateRow(deps: WriteDeps, ct: ContentType, params: Params, access: RowAccess, options: RowWriteOptions = {}): Promise<Row | null> {
  assertDocumentType(ct);
  if (!params.data || typeof params.data !== 'object' || Array.isArray(params.data)) throw new ValidationError('Update requires a data object');
  const defaultLocale = await deps.locales.defaultCode();
  return deps.pipeline.run(
    options,
    async (ctx) => {
      const event = await deps.hooks.before('Update', ct, params);
      const [row] = await access.find(event.params, ctx.tx, true);
      if (!row) return null;
      await ctx.tx.lock([documentLock(ct, row.documentId)]);
      await changeRow(deps, ctx.tx, ct, row, event.params.data ?? {}, defaultLocale, false);
      const result = await access.read(row.id, event.params, ctx.tx);
      await event.after(result);
      return result;
    },
    LOCKED,
  );
}

/** Updates the scalar attributes of every row `params.where` finds; how many. */
export async function updateRows(
  deps: WriteDeps,
  ct: ContentType,
  params: Params,
  access: RowAccess,
  options: RowWriteOptions = {},
): Promise<{ count: number }> {
  assertDocumentType(ct);
  const defaultLocale = await deps.locales.defaultCode();
  return deps.pipeline.run(
    options,
    async (ctx) => {
      const event = await deps.hooks.before('UpdateMany', ct, params);
      const rows = await access.find(event.params, ctx.tx, false);
      await ctx.tx.lock([...new Set(rows.map((r) => documentLock(ct, r.documentId)))]);
      for (const row of rows) await changeRow(deps, ctx.tx, ct, row, event.params.data ?? {}, defaultLocale, true);
      const result = { count: rows.length };
      await event.after(result);
      return result;
    },
    LOCKED,
  );
}

/** Deletes the first row `params.where` finds, with what it owns; the row as it was, or null. */
export async function deleteRow(deps: WriteDeps, ct: ContentType, params: Params, access: RowAccess, options: RowWriteOptions = {}): Promise<Row | null> {
  assertDocumentType(ct);
  return deps.pipeline.run(
    options,
    async (ctx) => {
      const event = await deps.hooks.before('Delete', ct, params);
      const [row] = await access.find(event.params, ctx.tx, true);
      if (!row) return null;
      const locks = deleteLocks(ct, row.documentId);
      await ctx.tx.lock(locks.exclusive);
      const result = await access.read(row.id, event.params, ctx.tx);
      await removeRows(deps, ctx.tx, ct, [row]);
      await event.after(result);
      return result;
    },
    LOCKED,
  );
}

/** Deletes every row `params.where` finds; how many. */
export async function deleteRows(
  deps: WriteDeps,
  ct: ContentType,
  params: Params,
  access: RowAccess,
  options: RowWriteOptions = {},
): Promise<{ count: number }> {
  assertDocumentType(ct);
  return deps.pipeline.run(
    options,
    async (ctx) => {
      const event = await deps.hooks.before('DeleteMany', ct, params);
      const rows = await access.find(event.params, ctx.tx, false);
      await ctx.tx.lock([...new Set(rows.flatMap((r) => deleteLocks(ct, r.documentId).exclusive))]);
      await removeRows(deps, ctx.tx, ct, rows);
      const result = { count: rows.length };
      await event.after(result);
      return result;
    },
    LOCKED,
  );
}

/** Writes `data` into one row: its scalars (checked against the row's values), and unless `scalarsOnly` its components, media and relations. */
async function changeRow(deps: WriteDeps, tx: Queryable, ct: ContentType, row: RowRef, data: Row, defaultLocale: string, scalarsOnly: boolean) {
  const status = statusOf(ct, row);
  const given = scalarsOnly ? Object.fromEntries(Object.entries(data).filter(([name]) => ct.fields[name]?.kind === 'scalar')) : data;
  const [body] = await resolveRowIds(tx, deps.registry, ct, [given]);
  const existing = await storedValues(tx, ct, row.id);
  const input = readModelInput(deps.registry, ct, body!, { mode: status, creating: false, existing });
  const key = { documentId: row.documentId, locale: row.locale };
  if (status === 'published') await assertUnique(tx, ct, key, input, existing);
  await updateVersion(tx, ct, row.id, input.scalars, new Date().toISOString());
  if (scalarsOnly) return;
  const context = { contentType: ct, locale: row.locale, status, defaultLocale } as const;
  await writeOwnedParts(tx, deps.registry, ct, row.id, input, context);
  if (Object.keys(input.relations).length) {
    await writeInverseLinks(tx, {
      relations: input.relations,
      contentType: ct,
      documentId: row.documentId,
      locale: row.locale,
      defaultLocale,
      statuses: [status],
    });
  }
}

/** Deletes rows and what they own; links to a document's locale go once no row of it is left. */
async function removeRows(deps: WriteDeps, tx: Queryable, ct: ContentType, rows: RowRef[]) {
  await deleteVersions(
    tx,
    deps.registry,
    ct,
    rows.map((r) => r.id),
  );
  const documents = new Map(rows.map((r) => [`${r.documentId}\0${r.locale}`, r]));
  for (const { documentId, locale } of documents.values()) {
    if ((await versionIds(tx, ct, documentId, ct.localized ? locale : undefined)).length) continue;
    const others = ct.localized ? await versionIds(tx, ct, documentId, undefined) : [];
    await deleteLinksTo(tx, deps.registry, ct, documentId, others.length ? locale : undefined);
  }
}
