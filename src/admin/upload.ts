/**
 * The content manager's media, on the upload service (the same as `POST /api/upload`):
 *
 *   POST /admin/api/upload         store new files (multipart `files`, optional `fileInfo`), 201 + the files
 *
 * A media field's "choose from the library" dialog reads the Media Library's own listing,
 * GET /admin/api/files (./files.ts: paginated, searched by name, filtered by type).
 *
 * Files are stored unattached: the edit view puts their ids into the field, and saving the
 * entry links them, so an abandoned form leaves only a file in the library, never a half-saved entry.
 */
import { Elysia } from 'elysia';
import { ForbiddenError, ValidationError } from '../errors';
import type { Instance } from '../instance';
import { parseFileInfo } from '../upload/prepare';
import { readUploadBody } from '../http/routes/upload';
import { json } from '../http/respond';
import { adminMay, type AdminAccounts } from './accounts';
import { checkCsrf } from './csrf';
import { adminActor, requireAdmin } from './session';

export function adminUploadRoutes(instance: Instance, accounts: AdminAccounts) {
  const { config, uploads } = instance;

  async function begin(request: Request) {
    const { user, token } = await requireAdmin(accounts, request);
    if (!adminMay(user.role, 'media')) throw new ForbiddenError();
    if (request.method !== 'GET') checkCsrf(request, token, config.trustProxy);
    return user;
  }

  return new Elysia({ name: 'admin:upload' }).post(
    '/admin/api/upload',
    async ({ request, server }) => {
      const actor = adminActor(await begin(request), request, server, config.trustProxy);
      const { files, fields } = await readUploadBody(request, config.uploadLimit, config.bodyLimit);
      if (files.length === 0) throw new ValidationError('Files are empty');
      return json({ data: await uploads.upload(files, parseFileInfo(fields.fileInfo ?? [], files.length), {}, actor) }, 201);
    },
    { parse: 'none' },
  );
}
