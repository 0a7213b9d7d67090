/**
 * Strapi's own types that a content type may link to, seen as content types without draft &
 * publish or i18n: `plugin::users-permissions.user` (with the attributes of the project's user
 * extension schema), `plugin::users-permissions.role` and `plugin::upload.file`. They have no
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
export { FILE_UID };

/** Attributes every user has; the extension schema repeats them (Strapi's file lists them all) and cannot change them. */
export const BUILT_IN_USER_ATTRIBUTES: ReadonlySet<string> = new Set([
  'username', 'email', 'provider', 'password', 'resetPasswordToken', 'confirmationToken', 'confirmed', 'blocked', 'role',
]);

const scalar = (name: string, type: ScalarType, isPrivate = false): ScalarAttribute => ({
  name, kind: 'scalar', type, unique: false, required: false, private: isPrivate, localized: false, writable: true,
});

function systemType(uid: string, tableName: string, singularName: string, pluralName: string, displayName: string, file: string,
  attributes: Attribute[]): ContentType {
  const byName = Object.fromEntries(attributes.map((a) => [a.name, a]));
  return {
    uid, modelType: 'contentType', kind: 'collectionType', tableName, singularName, pluralName, displayName,
    draftAndPublish: false, localized: false, file, attributes: byName, fields: compileFields(byName), system: true,
  };
}

/** The users-permissions user, with the extension's attributes after the built-in ones. */
export function userModel(extension: Record<string, Attribute> = {}, file = '(users-permissions plugin)'): ContentType {
  return systemType(USER_UID, USERS_TABLE, 'user', 'users', 'User', file, [
    scalar('username', 'string'), scalar('email', 'email'), scalar('provider', 'string'),
    scalar('password', 'password', true), scalar('resetPasswordToken', 'string', true), scalar('confirmationToken', 'string', true),
    scalar('confirmed', 'boolean'), scalar('blocked', 'boolean'),
    ...Object.values(extension),
  ]);
}

export const ROLE_MODEL: ContentType = systemType(ROLE_UID, ROLES_TABLE, 'role', 'roles', 'Role', '(users-permissions plugin)', [
  scalar('name', 'string'), scalar('description', 'string'), scalar('type', 'string'),
]);

/**
 * The permission that lets a caller read a type through a relation (populate, filters, sort):
 * `<uid>.find` as Strapi checks it, except for upload files, whose reading permission is the
 * upload plugin's `find` (Strapi checks `plugin::upload.file.find`, an action no role can hold).
 */
export function readAction(uid: string): string {
  return uid === FILE_UID ? 'plugin::upload.content-api.find' : `${uid}.find`;
}

/** The system types of one installation (the user model depends on its extension schema). */
export function systemTypes(user: ContentType): ContentType[] {
  return [user, ROLE_MODEL, FILE_MODEL];
}
