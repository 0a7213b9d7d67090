/**
 * Maintained list totals (db/counts.ts): how many versions each content table holds per
 * (locale, published or draft). A list without filters reads its total here instead of
 * counting every matching row (48 ms at a million articles, and the totals cache is dropped
 * by every commit, so the first list after any write paid it).
 *
 * Triggers on the content tables keep the rows exact in the writing transaction, so every
 * writer is covered without knowing: documents, publish/unpublish/discard, locale deletes,
 * `folio import`, `folio copy`, restore, a hand-written statement. Schema sync adds them to
 * each content table and counts the table once when it does (db/counts.ts).
 *
 * `slot` spreads one key over several rows, summed on read: on PostgreSQL each connection
 * writes the slot of its backend, so concurrent creates (serializable transactions) do not
 * all update, and so serialize on, one counter row. SQLite has one writer: slot 0.
 * PostgreSQL's insert and delete triggers are per statement over transition tables: a bulk
 * insert of 1,000 rows updates each key once, not 1,000 times.
 */
import type { Dialect } from '../dialect';

const KEY = `"contentTable", "locale", "published", "slot"`;

export default function counts(d: Dialect): string {
  const table = `CREATE TABLE folio_counts (
  "contentTable" ${d.textType} NOT NULL,
  "locale" ${d.textType} NOT NULL,
  -- 1: published versions (and every row of a type without draft & publish), 0: drafts.
  "published" INTEGER NOT NULL,
  "slot" INTEGER NOT NULL,
  "n" BIGINT NOT NULL,
  PRIMARY KEY (${KEY})
);
`;
  if (d.name === 'sqlite') return table;
  const upsert = (rows: string) => `INSERT INTO folio_counts (${KEY}, "n") ${rows}
    ON CONFLICT (${KEY}) DO UPDATE SET "n" = folio_counts."n" + excluded."n";`;
  const grouped = (transition: string, sign: string) =>
    upsert(`SELECT TG_TABLE_NAME, "locale", ("publishedAt" IS NOT NULL)::int, pg_backend_pid() % 64, ${sign}COUNT(*) FROM ${transition} GROUP BY 2, 3`);
  const fn = (name: string, body: string) => `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${body}
  RETURN NULL;
END $$;
`;
  return (
    table +
    fn('folio_counts_insert', grouped('new_rows', '')) +
    fn('folio_counts_delete', grouped('old_rows', '-')) +
    // Row trigger, only when the key changes (the trigger's WHEN): the two keys differ, so one statement.
    fn(
      'folio_counts_update',
      upsert(`VALUES (TG_TABLE_NAME, OLD."locale", (OLD."publishedAt" IS NOT NULL)::int, pg_backend_pid() % 64, -1),
    (TG_TABLE_NAME, NEW."locale", (NEW."publishedAt" IS NOT NULL)::int, pg_backend_pid() % 64, 1)`),
    ) +
    fn('folio_counts_truncate', `DELETE FROM folio_counts WHERE "contentTable" = TG_TABLE_NAME;`)
  );
}
