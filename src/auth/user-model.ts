/**
 * `plugin::users-permissions.user` seen as a content type without draft & publish or i18n,
 * so `GET /api/users` reads filters, sort and fields through the query layer on
 * `folio_users`, as Strapi's user controller does (its `fetchAll` goes through
 * transformParamsToQuery). The private attributes are declared so that naming them is the
 * same 400 `Invalid key` as naming any private attribute, never a silent `200 []`.
 */
import { SYSTEM } from '../db/layout';
import { compileFields } from '../registry/fields';
import type { ContentType, ScalarAttribute, ScalarType } from '../registry/types';

export const USER_UID = 'plugin::users-permissions.user';

const scalar = (name: string, type: ScalarType, isPrivate = false): ScalarAttribute => ({
  name, kind: 'scalar', type, unique: false, required: false, private: isPrivate, localized: false, writable: true,
});

export const USER_MODEL: ContentType = {
  uid: USER_UID,
  modelType: 'contentType',
  kind: 'collectionType',
  tableName: SYSTEM.users,
  singularName: 'user',
  pluralName: 'users',
  displayName: 'User',
  draftAndPublish: false,
  localized: false,
  file: '(users-permissions plugin)',
  fields: {},
  attributes: Object.fromEntries(
    [
      scalar('username', 'string'), scalar('email', 'email'), scalar('provider', 'string'),
      scalar('password', 'password', true), scalar('resetPasswordToken', 'string', true), scalar('confirmationToken', 'string', true),
      scalar('confirmed', 'boolean'), scalar('blocked', 'boolean'),
    ].map((a) => [a.name, a]),
  ),
};
USER_MODEL.fields = compileFields(USER_MODEL.attributes);
