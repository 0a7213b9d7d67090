/**
 * Content history (src/history/): one row per document write and locale, the document's full
 * content after the write (private attributes included, passwords never), its status, who
 * wrote it and which attributes changed. Kept FOLIO_HISTORY_DAYS days.
 */
import type { Dialect } from '../dialect';

export default function history(d: Dialect): string {
  const text = d.textType;
  return `CREATE TABLE folio_history (
  "id" ${d.idColumn},
  -- The content type's uid.
  "uid" ${text} NOT NULL,
  "documentId" ${text} NOT NULL,
  -- '' for types without i18n.
  "locale" ${text} NOT NULL,
  -- draft (never published), published (the draft is what is published) or modified.
  "status" ${text} NOT NULL,
  -- The write's first event (entry.create, entry.update, entry.publish…).
  "event" ${text} NOT NULL,
  -- admin, user, token, public, cli, system or project; the id and name (email, username, token name) when known.
  "actorKind" ${text} NOT NULL,
  "actorId" ${text},
  "actorName" ${text},
  -- JSON: the attributes that differ from the previous version kept (every attribute holding a value for the first).
  "changed" ${text} NOT NULL,
  -- JSON: the content, as a write body gives it (query/content.ts).
  "data" ${text} NOT NULL,
  "createdAt" ${text} NOT NULL
);
CREATE INDEX folio_history_document ON folio_history ("uid", "documentId", "locale", "id");
CREATE INDEX folio_history_created ON folio_history ("createdAt");
`;
}
