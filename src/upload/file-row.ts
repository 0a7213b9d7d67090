/**
 * The file object as Strapi's upload plugin returns it, and the `files` table it comes
 * from. Populated media (query/populate.ts) and the upload API read the same
 * columns, so both answer with the same shape.
 */

/** Columns of `files` in the order Strapi lists a file's keys (named in db/layout.ts). */
export { FILE_COLUMNS } from '../db/layout';
import { parseFileRow } from '../db/store/files';

export { FILE_MODEL, FILE_UID } from '../registry/file-model';

export interface FileFormat {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: null;
  width: number;
  height: number;
  size: number;
  sizeInBytes: number;
  url: string;
}

export type FileObject = Record<string, unknown> & { id: number; documentId: string; hash: string; ext: string; formats: Record<string, FileFormat> | null };

/**
 * A row as the upload API answers it. `isUrlSigned` is what Strapi's signFileUrls adds to
 * upload responses; neither provider signs (a bucket is served through Folio or a public URL), so it is always false.
 */
export function toFileObject(row: Record<string, unknown>, fields?: string[]): FileObject {
  const file = parseFileRow(row) as FileObject;
  if (!fields) file.isUrlSigned = false;
  return file;
}
