/**
 * `GET /api/upload/files`: the REST query parameters over the `files` table, through the
 * same parsers and SQL compilers as content types. Strapi answers a plain array with no
 * pagination meta and, without pagination parameters, every file. Its upload plugin reads
 * pagination from top-level `start`/`limit` or `page`/`pageSize` (transformParamsToQuery);
 * Folio also keeps the `pagination[…]` form of the content API.
 */
import type { Queryable } from '../db/database';
import { sql } from '../db/sql';
import { listFileRows } from '../db/store/files';
import { PaginationError, ValidationError } from '../errors';
import { checkFilters, parseFilters } from '../query/filters';
import { parseFields, parsePagination, parseSort, type QueryLimits } from '../query/parse';
import { orderBy, whereSql } from '../query/compile';
import type { Registry } from '../registry/types';
import { FILE_COLUMNS, FILE_MODEL, toFileObject, type FileObject } from './file-row';
import { isObject } from '../json';

const TOP_LEVEL_PAGINATION = ['page', 'pageSize', 'start', 'limit'] as const;
const KEYS = new Set(['filters', 'sort', 'fields', 'pagination', 'populate', ...TOP_LEVEL_PAGINATION]);

export async function listFiles(db: Queryable, registry: Registry, raw: Record<string, unknown>, limits: QueryLimits): Promise<FileObject[]> {
  for (const key of Object.keys(raw)) {
    if (!KEYS.has(key)) throw ValidationError.invalidKey(key, 'query', { param: key });
  }
  // `populate` reaches `related` and `folder` in Strapi; neither is exposed here, so it selects nothing more.
  const fields = parseFields(FILE_MODEL, raw.fields);
  const columns = fields ? FILE_COLUMNS.filter((c) => c === 'id' || c === 'documentId' || fields.includes(c)) : [...FILE_COLUMNS];
  const scope = { status: 'published' as const, locale: '' };
  let where = sql.empty;
  if (raw.filters !== undefined) {
    if (!isObject(raw.filters)) throw new ValidationError('Invalid filters: expected an object');
    // No whole-request parse ran before (as for content types): the filter limits apply here.
    checkFilters(raw.filters);
    where = whereSql(db.dialect, registry, FILE_MODEL, parseFilters(registry, FILE_MODEL, raw.filters), scope);
  }
  const order = orderBy(FILE_MODEL, parseSort(FILE_MODEL, raw.sort), scope);
  let page: { limit: number; offset: number } | undefined;
  const topLevel = TOP_LEVEL_PAGINATION.filter((key) => raw[key] !== undefined);
  if (topLevel.length && raw.pagination !== undefined) {
    throw new PaginationError(`Cannot use both pagination[...] and ${topLevel.join(', ')} in the same query`);
  }
  const pagination = topLevel.length ? Object.fromEntries(topLevel.map((key) => [key, raw[key]])) : raw.pagination;
  if (pagination !== undefined) {
    // No maximum: without pagination every file is answered, as Strapi's upload plugin does.
    const { start, limit } = parsePagination(pagination, { ...limits, maxLimit: Number.MAX_SAFE_INTEGER });
    page = { limit, offset: start };
  }
  const rows = await listFileRows(db, { columns, where, order, page });
  return rows.map((row) => toFileObject(row, fields));
}
