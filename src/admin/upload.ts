/**
 * The content manager's media, on the upload service (the same as `POST /api/upload`):
 *
 *   POST /admin/api/upload         store new files (multipart `files`, optional `fileInfo`), 201 + the files
 *   GET  /admin/api/media-picker   the library for a media field's "choose" dialog: newest first,
 *                                  `q` (name contains), `page` (24 a page)
 *
 * Files are stored unattached: the edit view puts their ids into the field, and saving the
 * entry links them, so an abandoned form leaves only a file in the library, never a half-saved entry.
 */
import { Elysia } from 'elysia';
import { ForbiddenError, ValidationError } from '../errors';
import type { Instance } from '../instance';
import { parseFileInfo } from '../upload/prepare';
import { readUploadBody } from '../http/routes/upload';
import { parseQueryString } from '../http/query-string';
import { json } from '../http/respond';
import { unstorableText } from '../text';
import { adminMay, type AdminAccounts } from './accounts';
import { checkCsrf } from './csrf';
import { requireAdmin } from './session';

export const PICKER_PAGE_SIZE = 24;

export function adminUploadRoutes(instance: Instance, accounts: AdminAccounts) {
  const { config, uploads } = instance;

  async function begin(request: Request) {
    const { user, token } = await requireAdmin(accounts, request);
    if (!adminMay(user.role, 'media')) throw new ForbiddenError();
    if (request.method !== 'GET') checkCsrf(request, token, config.trustProxy);
  }

  return new Elysia({ name: 'admin:upload' })
    .post(
      '/admin/api/upload',
      async ({ request }) => {
        await begin(request);
        const { files, fields } = await readUploadBody(request, config.uploadLimit, config.bodyLimit);
        if (files.length === 0) throw new ValidationError('Files are empty');
        return json({ data: await uploads.upload(files, parseFileInfo(fields.fileInfo ?? [], files.length)) }, 201);
      },
      { parse: 'none' },
    )
    .get('/admin/api/media-picker', async ({ request }) => {
      await begin(request);
      const raw = parseQueryString(request.url);
      for (const key of Object.keys(raw)) if (key !== 'q' && key !== 'page') throw ValidationError.invalidKey(key, 'query', { param: key });
      const q = typeof raw.q === 'string' ? raw.q.trim() : '';
      if (raw.q !== undefined && typeof raw.q !== 'string') throw new ValidationError('q must be a string', { source: 'query', param: 'q' });
      const why = unstorableText(q);
      if (why) throw new ValidationError(`Invalid parameter at 'q': ${why}`, { source: 'query', param: 'q' });
      const page = raw.page === undefined ? 1 : Number(raw.page);
      if (!Number.isInteger(page) || page < 1 || page > 1_000_000) throw new ValidationError('page must be a positive integer', { source: 'query', param: 'page' });
      // One more than a page tells whether another follows, without a count query.
      const rows = await uploads.findMany({
        sort: 'createdAt:desc,id:desc',
        pagination: { start: (page - 1) * PICKER_PAGE_SIZE, limit: PICKER_PAGE_SIZE + 1 },
        ...(q ? { filters: { name: { $containsi: q } } } : {}),
      });
      return json({ data: rows.slice(0, PICKER_PAGE_SIZE), meta: { page, hasMore: rows.length > PICKER_PAGE_SIZE } });
    });
}
