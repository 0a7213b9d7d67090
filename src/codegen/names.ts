/**
 * The one naming rule the generated OpenAPI document and TypeScript declarations share:
 * each content type and component gets a PascalCase name (`api::article.article` →
 * `Article`, component `shared.seo` → `SharedSeo`), and Strapi's own types keep the names
 * front ends know (`User`, `Role`, `UploadFile`). Both outputs use the same names, so a
 * schema in one and a type in the other are found by the same word.
 */
import { FILE_UID } from '../registry/file-model';
import { ADMIN_USER_UID, ROLE_UID, USER_UID } from '../registry/system-models';
import type { AnyModel, Registry } from '../registry/types';

/** Names front ends already use for Strapi's own types. */
const SYSTEM_NAMES: Record<string, string> = { [USER_UID]: 'User', [ROLE_UID]: 'Role', [FILE_UID]: 'UploadFile', [ADMIN_USER_UID]: 'AdminUser' };

/** Names the generated files declare themselves (envelopes, errors, helpers): no model may take them. */
export const RESERVED_TYPE_NAMES: ReadonlySet<string> = new Set([
  'User',
  'Role',
  'UploadFile',
  'AdminUser',
  'UploadFileFormat',
  'Locale',
  'Error',
  'ErrorResponse',
  'Pagination',
  'PaginationByOffset',
  'JsonValue',
  'JsonObject',
  'BlocksNode',
  'BlocksText',
  'BlocksLink',
  'BlocksInline',
  'BlocksListItem',
  'BlocksList',
  'BlocksImage',
  'RelationInput',
  'RelationTarget',
  'MorphTarget',
  'MorphItem',
  'MorphInput',
  'ComponentInputMap',
  'AuthResponse',
  'UserInput',
  'RoleInput',
  'Ok',
  'StrapiResponse',
  'StrapiListResponse',
  'StrapiError',
  'StrapiErrorResponse',
  'ComponentMap',
  'ZoneEntry',
  'ZoneEntryInput',
  'CollectionTypes',
  'SingleTypes',
  'ContentTypes',
  'Components',
  'MediaInput',
  'ResponseMeta',
  'ListMeta',
]);

const pascal = (text: string) =>
  text.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()).replace(/^[a-z]/, (c) => c.toUpperCase());

/**
 * PascalCase names by uid, for every content type, component and system type of the
 * registry. A name that is taken (a content type `shared-seo` beside a component `shared.seo`,
 * or a reserved word) gets a suffix, so every declaration is distinct.
 */
export function modelNames(registry: Registry): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>(RESERVED_TYPE_NAMES);
  const claim = (uid: string, wanted: string) => {
    let name = /^[0-9]/.test(wanted) ? `T${wanted}` : wanted;
    for (let n = 2; taken.has(name) && names.get(uid) !== name; n++) name = `${wanted}${n}`;
    taken.add(name);
    names.set(uid, name);
  };
  for (const system of registry.systemTypes) names.set(system.uid, SYSTEM_NAMES[system.uid] ?? pascal(system.singularName));
  // A plugin's type carries its plugin's name (`plugin::navigation.nav-item` → NavigationNavItem), as in GraphQL.
  for (const ct of registry.contentTypes) claim(ct.uid, pascal(ct.plugin ? `${ct.plugin}-${ct.singularName}` : ct.singularName));
  for (const component of registry.components) claim(component.uid, pascal(component.uid));
  return names;
}

/** The name of one model, by the map `modelNames` made. */
export function nameOf(names: Map<string, string>, model: AnyModel | string): string {
  const uid = typeof model === 'string' ? model : model.uid;
  const name = names.get(uid);
  if (!name) throw new Error(`No generated name for ${uid}`);
  return name;
}
