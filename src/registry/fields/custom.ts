/**
 * Strapi custom fields (`"type": "customField", "customField": "plugin::color-picker.color"`).
 * A plugin registers each custom field with the built-in type that stores it, and Strapi
 * replaces the attribute's type with that one when it loads the schema; Folio does the same,
 * so the attribute becomes an ordinary scalar (validated, filtered and sorted as its storage
 * type) that remembers its `customField`.
 *
 * The table below lists custom fields whose storage type was checked against the plugin's own
 * `strapi.customFields.register` call or the types Strapi generates for projects using it.
 * Anything else is named in `custom-fields.json` beside the schemas:
 *   { "plugin::my-plugin.my-field": "string" }
 * and a custom field named nowhere is stored as JSON (UNKNOWN_CUSTOM_FIELD_TYPE), with a warning.
 */
import { SCALAR_TYPES, type ScalarType } from '../types';

export const CUSTOM_FIELDS_FILE = 'custom-fields.json';

export const BUILTIN_CUSTOM_FIELDS: Readonly<Record<string, ScalarType>> = {
  // Strapi's own color picker (@strapi/plugin-color-picker)
  'plugin::color-picker.color': 'string',
  // CKEditor: the official plugin (@ckeditor/strapi-plugin-ckeditor) and the community one for Strapi 5
  'plugin::ckeditor.CKEditor': 'richtext',
  'plugin::ckeditor5.CKEditor': 'richtext',
  // strapi-plugin-multi-select: the chosen values as a JSON array
  'plugin::multi-select.multi-select': 'json',
  // strapi-plugin-country-select: an ISO country code
  'plugin::country-select.country': 'string',
  // strapi-plugin-tagsinput: the tags as a JSON array
  'plugin::tagsinput.tags': 'json',
  // strapi-plugin-iconhub: the icon's name and data
  'plugin::strapi-plugin-iconhub.iconhub': 'json',
  // strapi-plugin-google-maps: the picked location
  'plugin::google-maps.location-picker': 'json',
  // strapi-advanced-uuid: a generated identifier stored as a uid
  'plugin::strapi-advanced-uuid.uuid': 'uid',
};

/**
 * How a custom field of an unknown plugin is stored: as JSON, so whatever the plugin's input
 * sends (a string, a number, an object) is kept and returned as it was sent.
 */
export const UNKNOWN_CUSTOM_FIELD_TYPE: ScalarType = 'json';

/** Types a custom field may be stored as (Strapi's customFields.register accepts these). */
export const CUSTOM_FIELD_TYPES: readonly ScalarType[] = SCALAR_TYPES.filter((t) => t !== 'blocks' && t !== 'timestamp');

/** The storage type of a custom field: the project's mapping first, then the built-in table. */
export function customFieldType(uid: string, mapping: Readonly<Record<string, ScalarType>>): ScalarType | undefined {
  return Object.hasOwn(mapping, uid) ? mapping[uid] : Object.hasOwn(BUILTIN_CUSTOM_FIELDS, uid) ? BUILTIN_CUSTOM_FIELDS[uid] : undefined;
}
