/**
 * Strapi's own types that a content type may link to, seen as content types without draft &
 * publish or i18n: `plugin::users-permissions.user` (with the attributes of the project's user
 * extension schema), `plugin::users-permissions.role`, `plugin::upload.file` and `admin::user`
 * (Folio Admin's accounts: stored as a link, never read through the content API). They have no
 * route of their own under /api/<id> and no table made by schema sync (migrations make theirs),
 * but relations, populate, filters and sort reach them like any content type. Their private
 * attributes (passwords, reset and confirmation codes) are declared private, so nothing shows
 * or filters them.
 */
import { compileFields } from './fields';
import { FILE_MODEL, FILE_UID } from './file-model';
import type { Attribute, ContentType, ScalarAttribute, ScalarType } from './types';

export const USER_UID = 'plugin::users-permissions.user';
// The tables db/migrations made (db/layout.ts's SYSTEM names them too; a unit test keeps the two equal).
export const USERS_TABLE = 'folio_users';
export const ROLES_TABLE = 'folio_roles';
export const ROLE_UID = 'plugin::users-permissions.role';
export const ADMIN_USER_UID = 'admin::user';
export const ADMIN_USERS_TABLE = 'folio_admin_users';
export { FILE_UID };

/** Attributes every user has; the extension schema repeats them (Strapi's file lists them all) and cannot change them. */
export const BUILT_IN_USER_ATTRIBUTES: ReadonlySet<string> = new Set([
  'username',
  'email',
  'provider',
  'password',
  'resetPasswordToken',
  'confirmationToken',
  'confirmed',
  'blocked',
  'role',
]);

const scalar = (name: string, type: ScalarType, isPrivate = false): ScalarAttribute => ({
  name,
  kind: 'scalar',
  type,
  unique: false,
  required: false,
  private: isPrivate,
  localized: false,
  writable: true,
});

function systemType(
  uid: string,
  tableName: string,
  singularName: string,
  pluralName: string,
  displayName: string,
  file: string,
  attributes: Attribute[],
): ContentType {
  const byName = Object.fromEntries(attributes.map((a) => [a.name, a]));
  return {
    uid,
    modelType: 'contentType',
    kind: 'collectionType',
    tableName,
    singularName,
    pluralName,
    displayName,
    draftAndPublish: false,
    localized: false,
    file,
    attributes: byName,
    fields: compileFields(byName),
    system: true,
  };
}

/** The users-permissions user, with the extension's attributes after the built-in ones. */
export function userModel(extension: Record<string, Attribute> = {}, file = '(users-permissions plugin)'): ContentType {
  return systemType(USER_UID, USERS_TABLE, 'user', 'users', 'User', file, [
    scalar('username', 'string'),
    scalar('email', 'email'),
    scalar('provider', 'string'),
    scalar('password', 'password', true),
    scalar('resetPasswordToken', 'string', true),
    scalar('confirmationToken', 'string', true),
    scalar('confirmed', 'boolean'),
    scalar('blocked', 'boolean'),
    ...Object.values(extension),
  ]);
}

export const ROLE_MODEL: ContentType = systemType(ROLE_UID, ROLES_TABLE, 'role', 'roles', 'Role', '(users-permissions plugin)', [
  scalar('name', 'string'),
  scalar('description', 'string'),
  scalar('type', 'string'),
]);

/**
 * Admin accounts as a relation target. Links to them are written and kept like any other, but
 * nothing reads them through the content API (readAction), so the attributes listed here only
 * serve the row-id checks of writes; the password hash is private all the same.
 */
export const ADMIN_USER_MODEL: ContentType = systemType(ADMIN_USER_UID, ADMIN_USERS_TABLE, 'user', 'users', 'User', '(admin)', [
  scalar('email', 'email'),
  scalar('role', 'string'),
  scalar('blocked', 'boolean'),
  scalar('password', 'password', true),
]);

/**
 * The permission that lets a caller read a type through a relation (populate, filters, sort):
 * `<uid>.find` as Strapi checks it, except for upload files, whose reading permission is the
 * upload plugin's `find` (Strapi checks `plugin::upload.file.find`, an action no role can hold),
 * and admin users, whom no caller of the content API may read (Strapi never populates them
 * there): undefined, so not even a full-access token reaches them.
 */
export function readAction(uid: string): string | undefined {
  if (uid === ADMIN_USER_UID) return undefined;
  return uid === FILE_UID ? 'plugin::upload.content-api.find' : `${uid}.find`;
}

/** Whether the content API ever shows documents of this type (admin users: never). */
export const shownByContentApi = (uid: string): boolean => readAction(uid) !== undefined;

/** The system types of one installation (the user model depends on its extension schema). */
export function systemTypes(user: ContentType): ContentType[] {
  return [user, ROLE_MODEL, FILE_MODEL, ADMIN_USER_MODEL];
}
