/**
 * Releases (src/releases/): a named set of actions (publish or unpublish one document in one
 * locale), published together in one transaction, by hand or at `scheduledAt`. The scheduler
 * claims a due release with a conditional UPDATE of its status inside the publishing
 * transaction, so of several instances on one database exactly one publishes it.
 */
import type { Dialect } from '../dialect';

export default function releases(d: Dialect): string {
  const text = d.textType;
  return `CREATE TABLE folio_releases (
  "id" ${d.idColumn},
  "name" ${text} NOT NULL UNIQUE,
  -- pending, done (published) or failed (nothing changed; error says why).
  "status" ${text} NOT NULL,
  -- ISO-8601 UTC with milliseconds; NULL: published by hand only.
  "scheduledAt" ${text},
  -- The IANA time zone the schedule was given in (shown back; scheduledAt is UTC).
  "timezone" ${text},
  -- JSON: { message, type, documentId, locale, action, field } of the entry that failed.
  "error" ${text},
  "releasedAt" ${text},
  "createdAt" ${text} NOT NULL,
  "updatedAt" ${text} NOT NULL
);
CREATE INDEX folio_releases_due ON folio_releases ("status", "scheduledAt");
CREATE TABLE folio_release_entries (
  "id" ${d.idColumn},
  "releaseId" INTEGER NOT NULL REFERENCES folio_releases("id") ON DELETE CASCADE,
  -- The content type's uid.
  "uid" ${text} NOT NULL,
  "documentId" ${text} NOT NULL,
  -- '' for types without i18n.
  "locale" ${text} NOT NULL,
  -- publish or unpublish.
  "action" ${text} NOT NULL,
  "createdAt" ${text} NOT NULL,
  UNIQUE ("releaseId", "uid", "documentId", "locale")
);
CREATE INDEX folio_release_entries_document ON folio_release_entries ("uid", "documentId");
`;
}
