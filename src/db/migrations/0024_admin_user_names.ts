/**
 * An admin's own name (the profile page; Strapi's admin users have one too): shown in the
 * header and, where the API says who wrote what, beside it. Both optional.
 */
import type { Dialect } from '../dialect';

export default (d: Dialect): string => `ALTER TABLE folio_admin_users ADD COLUMN "firstname" ${d.textType};
ALTER TABLE folio_admin_users ADD COLUMN "lastname" ${d.textType};
`;
