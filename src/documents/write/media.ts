/**
 * Media attributes: ordered links from a row (content version or component) to files,
 * kept in the upload plugin's media-link table, as Strapi's is (db/store/media.ts).
 */
import type { Queryable } from '../../db/database';
import { copyMediaLinks, deleteMediaLinks, fileTypes, replaceMediaLinks } from '../../db/store/media';
import { ValidationError } from '../../errors';
import { allowedType } from '../../registry/file-model';
import type { AnyModel, MediaAttribute } from '../../registry/types';

/** Replaces the files of one media field of one row. */
export async function writeMedia(tx: Queryable, model: AnyModel, rowId: number, field: string, fileIds: number[]): Promise<void> {
  if (fileIds.length) {
    const unique = [...new Set(fileIds)];
    const found = await fileTypes(tx, unique);
    const missing = unique.length - found.length;
    if (missing > 0) {
      throw new ValidationError(`${missing} relation(s) of type plugin::upload.file associated with this entity do not exist`, {
        errors: [{ path: [field], message: 'file not found', name: 'ValidationError', value: fileIds }],
      });
    }
    const attribute = model.attributes[field] as MediaAttribute;
    const refused = found.find((f) => !allowedType(attribute, f.mime));
    if (refused) {
      const message = `${field} does not accept ${refused.mime} files (allowed types: ${attribute.allowedTypes!.join(', ')})`;
      throw ValidationError.fromFieldErrors([{ path: [field], message, name: 'ValidationError', value: refused.id }]);
    }
  }
  await replaceMediaLinks(tx, model.uid, rowId, field, fileIds);
}

/** Copies every media link of one row to another; `fields` limits which. */
export function copyMedia(tx: Queryable, model: AnyModel, fromId: number, toId: number, fields?: string[]): Promise<void> {
  return copyMediaLinks(tx, model.uid, fromId, toId, fields);
}

/** Removes the media links of some rows (their files stay in the library). */
export function deleteMedia(tx: Queryable, model: AnyModel, rowIds: number[], fields?: string[]): Promise<void> {
  return deleteMediaLinks(tx, model.uid, rowIds, fields);
}
