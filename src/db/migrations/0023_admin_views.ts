/**
 * Folio Admin's view configuration per content type (Strapi's "Configure the view"): labels,
 * descriptions and placeholders of its fields, the list's columns, default sort and page
 * size, the edit form's order and widths, as one JSON document per type (src/admin/views.ts
 * reads and checks it). A type without a row shows the defaults.
 */
import type { Dialect } from '../dialect';

export default (d: Dialect): string => `CREATE TABLE folio_admin_views (
  "uid" ${d.textType} PRIMARY KEY,
  "config" ${d.textType} NOT NULL,
  "updatedAt" ${d.textType} NOT NULL
);
`;
