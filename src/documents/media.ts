/**
 * Media attributes: ordered links from a row (content version or component) to files,
 * kept in the system table `files_related_mph`, as Strapi's upload plugin does.
 */
import type { Queryable } from '../db/database';
import { ValidationError } from '../errors';
import { allowedType } from '../registry/file-model';
import type { AnyModel, MediaAttribute } from '../registry/types';

const TABLE = 'files_related_mph';

/** Replaces the files of one media field of one row. */
export async function writeMedia(tx: Queryable, model: AnyModel, rowId: number, field: string, fileIds: number[]): Promise<void> {
  const q = tx.dialect.quote;
  if (fileIds.length) {
    const unique = [...new Set(fileIds)];
    const found = await tx.all<{ id: number; mime: string }>(
      `SELECT id, ${q('mime')} FROM files WHERE id IN (${unique.map(() => '?').join(', ')})`,
      unique,
    );
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
  await tx.run(`DELETE FROM ${TABLE} WHERE ${q('relatedType')} = ? AND ${q('relatedId')} = ? AND ${q('field')} = ?`, [
    model.uid,
    rowId,
    field,
  ]);
  for (let i = 0; i < fileIds.length; i++) {
    await tx.run(
      `INSERT INTO ${TABLE} (${q('fileId')}, ${q('relatedType')}, ${q('relatedId')}, ${q('field')}, ${q('position')}) VALUES (?, ?, ?, ?, ?)`,
      [fileIds[i]!, model.uid, rowId, field, i],
    );
  }
}

/** Copies every media link of one row to another; `fields` limits which. */
export async function copyMedia(tx: Queryable, model: AnyModel, fromId: number, toId: number, fields?: string[]): Promise<void> {
  const q = tx.dialect.quote;
  const only = fields ? ` AND ${q('field')} IN (${fields.map(() => '?').join(', ')})` : '';
  if (fields && fields.length === 0) return;
  await tx.run(
    `INSERT INTO ${TABLE} (${q('fileId')}, ${q('relatedType')}, ${q('relatedId')}, ${q('field')}, ${q('position')})
     SELECT ${q('fileId')}, ${q('relatedType')}, ?, ${q('field')}, ${q('position')} FROM ${TABLE}
     WHERE ${q('relatedType')} = ? AND ${q('relatedId')} = ?${only}`,
    [toId, model.uid, fromId, ...(fields ?? [])],
  );
}

/** Removes the media links of some rows (their files stay in the library). */
export async function deleteMedia(tx: Queryable, model: AnyModel, rowIds: number[], fields?: string[]): Promise<void> {
  if (rowIds.length === 0 || (fields && fields.length === 0)) return;
  const q = tx.dialect.quote;
  const only = fields ? ` AND ${q('field')} IN (${fields.map(() => '?').join(', ')})` : '';
  await tx.run(
    `DELETE FROM ${TABLE} WHERE ${q('relatedType')} = ? AND ${q('relatedId')} IN (${rowIds.map(() => '?').join(', ')})${only}`,
    [model.uid, ...rowIds, ...(fields ?? [])],
  );
}
