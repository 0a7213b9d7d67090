/**
 * The upload plugin's file model (`plugin::upload.file`), described like a content type
 * without draft & publish or i18n, so the query layer (fields, filters, sort, populate of
 * media) works on the `files` table unchanged.
 */
import { compileFields } from './fields';
import type { ContentType, MediaAttribute, ScalarAttribute, ScalarType } from './types';

export const FILE_UID = 'plugin::upload.file';

const scalar = (name: string, type: ScalarType): ScalarAttribute => ({
  name,
  kind: 'scalar',
  type,
  unique: false,
  required: false,
  private: false,
  localized: false,
  writable: true,
});

/**
 * `plugin::upload.file` seen as a content type without draft & publish or i18n, so the
 * REST query machinery (fields, filters, sort) works on `files` unchanged.
 */
export const FILE_MODEL: ContentType = {
  uid: FILE_UID,
  modelType: 'contentType',
  kind: 'collectionType',
  tableName: 'files',
  singularName: 'file',
  pluralName: 'files',
  displayName: 'File',
  draftAndPublish: false,
  localized: false,
  file: '(upload plugin)',
  // Written only by the upload service (src/upload/), never by the document service.
  system: true,
  fields: {},
  attributes: Object.fromEntries(
    (
      [
        ['name', 'string'],
        ['alternativeText', 'string'],
        ['caption', 'string'],
        ['focalPoint', 'json'],
        ['width', 'integer'],
        ['height', 'integer'],
        ['formats', 'json'],
        ['hash', 'string'],
        ['ext', 'string'],
        ['mime', 'string'],
        ['size', 'decimal'],
        ['url', 'string'],
        ['previewUrl', 'string'],
        ['provider', 'string'],
        ['provider_metadata', 'json'],
      ] as [string, ScalarType][]
    ).map(([name, type]) => [name, scalar(name, type)]),
  ),
};
FILE_MODEL.fields = compileFields(FILE_MODEL.attributes);

/** Whether a media attribute's `allowedTypes` (images, videos, audios, files) accept a MIME type. */
export function allowedType(attribute: MediaAttribute, mime: string): boolean {
  const allowed = attribute.allowedTypes;
  if (!allowed || allowed.length === 0) return true;
  const family = mime.split('/')[0]!;
  if (['image', 'video', 'audio'].includes(family)) return allowed.includes(`${family}s`);
  return allowed.includes('files');
}
