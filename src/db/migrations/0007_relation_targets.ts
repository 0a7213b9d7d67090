/**
 * Users, roles and upload files become relation targets (a content type may link to
 * `plugin::users-permissions.user`, `.role` or `plugin::upload.file`). Links name a target
 * version by (documentId, locale) and the readers pick it by status, so the three tables gain
 * the version columns every content table has: `locale` ('' — none of them has i18n) and, for
 * roles, `publishedAt` (Strapi 5 gives every row one; a type without draft & publish is
 * published when created).
 */
import type { Dialect } from '../dialect';

export default (d: Dialect): string => `ALTER TABLE folio_users ADD COLUMN "locale" ${d.textType} NOT NULL DEFAULT '';
ALTER TABLE files ADD COLUMN "locale" ${d.textType} NOT NULL DEFAULT '';
ALTER TABLE folio_roles ADD COLUMN "locale" ${d.textType} NOT NULL DEFAULT '';
ALTER TABLE folio_roles ADD COLUMN "publishedAt" ${d.textType};
UPDATE folio_roles SET "publishedAt" = "createdAt";
`;
