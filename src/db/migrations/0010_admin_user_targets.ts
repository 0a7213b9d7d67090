/**
 * Admin users become relation targets: a content type may link to `admin::user` (Strapi projects
 * do, e.g. a reviewer), and links name a target version by (documentId, locale), so the table
 * gains the version columns every content table has. Existing admin users get a documentId in
 * the shape documents have (24 lowercase letters and digits, a letter first); new ones get one
 * from the same generator as documents (src/admin/accounts.ts).
 */
import type { Dialect } from '../dialect';

export default function adminUserTargets(d: Dialect): string {
  const randomId =
    d.name === 'sqlite'
      ? `'a' || substr(lower(hex(randomblob(12))), 1, 23)`
      : `'a' || substr(md5(random()::text || clock_timestamp()::text || "id"::text), 1, 23)`;
  return `ALTER TABLE folio_admin_users ADD COLUMN "documentId" ${d.textType};
ALTER TABLE folio_admin_users ADD COLUMN "locale" ${d.textType} NOT NULL DEFAULT '';
ALTER TABLE folio_admin_users ADD COLUMN "publishedAt" ${d.textType};
UPDATE folio_admin_users SET "documentId" = ${randomId}, "publishedAt" = "createdAt";
CREATE UNIQUE INDEX folio_admin_users_document ON folio_admin_users ("documentId");
`;
}
