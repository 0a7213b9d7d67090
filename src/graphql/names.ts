/**
 * Strapi's GraphQL names (`@strapi/plugin-graphql` 5's naming service): a content type's type,
 * input, filters, collection and query names, components, enumerations and dynamic zones.
 * Front ends and their generated types depend on these exact spellings.
 */
import type { AnyModel, ContentType } from '../registry/types';

/** lodash's `words` for ASCII names: lower/upper and letter/digit boundaries split words (`i18n` → i, 18, n). */
function words(text: string): string[] {
  return text.match(/[A-Z]{2,}(?=[A-Z][a-z]|[^A-Za-z]|$)|[A-Z]?[a-z]+|[A-Z]+|\d+/g) ?? [];
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** lodash's `camelCase`. */
export function camelCase(text: string): string {
  return words(text)
    .map((w, i) => (i === 0 ? w.toLowerCase() : upperFirst(w.toLowerCase())))
    .join('');
}

/** `api::article.article` → no plugin; `plugin::users-permissions.user` → `users-permissions`. */
export function pluginOf(uid: string): string | undefined {
  const match = /^plugin::([^.]+)\./.exec(uid);
  return match?.[1];
}

function baseName(ct: Pick<ContentType, 'uid' | 'singularName' | 'pluralName'>, plurality: 'singular' | 'plural'): string {
  const plugin = pluginOf(ct.uid);
  const name = plurality === 'singular' ? ct.singularName : ct.pluralName;
  return `${plugin ? upperFirst(camelCase(plugin)) : ''}${upperFirst(camelCase(name))}`;
}

/** `Article`, `UsersPermissionsUser`, `UploadFile`, `I18NLocale`; components: `ComponentSharedSeo`. */
export function typeName(model: AnyModel): string {
  if (model.modelType === 'component') return componentTypeName(model.uid);
  return baseName(model, 'singular');
}

/** A component's globalId: `shared.rich-text` → `ComponentSharedRichText`. */
export function componentTypeName(uid: string): string {
  const [category = '', name = ''] = uid.split('.');
  return `Component${upperFirst(camelCase(category))}${upperFirst(camelCase(name))}`;
}

export const filtersName = (model: AnyModel) => `${typeName(model)}FiltersInput`;
export const inputName = (model: AnyModel) => `${typeName(model)}Input`;
export const collectionName = (ct: ContentType) => `${typeName(ct)}EntityResponseCollection`;
export const relationCollectionName = (ct: ContentType) => `${typeName(ct)}RelationResponseCollection`;
export const enumName = (model: AnyModel, attribute: string) => `ENUM_${typeName(model).toUpperCase()}_${attribute.toUpperCase()}`;
export const dynamicZoneName = (ct: AnyModel, attribute: string) => `${typeName(ct)}${upperFirst(camelCase(attribute))}DynamicZone`;
export const dynamicZoneInputName = (ct: AnyModel, attribute: string) => `${dynamicZoneName(ct, attribute)}Input`;
export const scalarFilterName = (scalar: string) => `${scalar}FilterInput`;

/** Query field names: `article`, `articles`, `articles_connection`. */
export const findOneName = (ct: ContentType) => lowerFirst(baseName(ct, 'singular'));
export const findManyName = (ct: ContentType) => lowerFirst(baseName(ct, 'plural'));
export const connectionName = (ct: ContentType) => `${findManyName(ct)}_connection`;
/** Mutation names: `createArticle`, `updateArticle`, `deleteArticle`. */
export const mutationName = (verb: 'create' | 'update' | 'delete', ct: ContentType) => `${verb}${baseName(ct, 'singular')}`;
