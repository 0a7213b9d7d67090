/**
 * The Media Library's routes, on the upload plugin's service (src/upload/service.ts: the
 * same checks, type policy, image formats and media events as POST /api/upload), with an
 * admin session (Super Admin or Editor) instead of an API grant.
 *
 *   GET     /admin/api/files?page=&type=image|video|audio|file&q=   24 a page, newest first; `type`
 *           may list several (`image,video`: a media field's allowedTypes). The Media Library
 *           page and a media field's "choose from the library" dialog both read it.
 *   POST    /admin/api/files        multipart: one `files` part per file (several at once)
 *   PUT     /admin/api/files/:id    {name, alternativeText, caption}
 *   DELETE  /admin/api/files/:id
 */
import { Elysia } from 'elysia';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../errors';
import type { Instance } from '../instance';
import { parseQueryString } from '../http/query-string';
import { json, noContent } from '../http/respond';
import { declaredPartTypes } from '../upload/multipart';
import { unstorableText } from '../text';
import type { AdminAccounts } from './accounts';
import { adminActor } from './session';
import { bodyOf, fieldError, gate, idParam, text } from './settings/gate';

const PAGE_SIZE = 24;
/** Room for the boundaries and part headers on top of the files' bytes. */
const MULTIPART_OVERHEAD = 1024 * 1024;
/** At most this many files in one request: each is decoded (images resized) before any is stored. */
const MAX_FILES = 20;

const KINDS = ['image', 'video', 'audio'] as const;

/** The filter for the type chips: images, videos, audio, every other file, or several of them. */
function typeFilter(type: unknown): Record<string, unknown> | undefined {
  if (type === undefined || type === '' || type === 'all') return undefined;
  if (typeof type !== 'string') throw fieldError('type', `type must be one of: all, ${KINDS.join(', ')}, file`);
  const one = (kind: string) => {
    if (kind === 'file') return { $not: { $or: KINDS.map((k) => ({ mime: { $startsWith: `${k}/` } })) } };
    if ((KINDS as readonly string[]).includes(kind)) return { mime: { $startsWith: `${kind}/` } };
    throw fieldError('type', `type must be one of: all, ${KINDS.join(', ')}, file (or several, comma-separated)`);
  };
  const kinds = [...new Set(type.split(','))];
  return kinds.length === 1 ? one(kinds[0]!) : { $or: kinds.map(one) };
}

const LIST_PARAMETERS = new Set(['page', 'type', 'q']);

/** The query of a listing: unknown keys, a page that is not a positive integer, NUL in `q` are 400s. */
function listQuery(url: string) {
  const query = parseQueryString(url);
  for (const key of Object.keys(query)) if (!LIST_PARAMETERS.has(key)) throw ValidationError.invalidKey(key, 'query', { param: key });
  const rawPage = query.page === undefined || query.page === '' ? '1' : query.page;
  if (typeof rawPage !== 'string' || !/^\d{1,6}$/.test(rawPage) || Number(rawPage) < 1) throw fieldError('page', 'page must be a positive integer');
  if (query.q !== undefined && typeof query.q !== 'string') throw fieldError('q', 'q must be a string');
  const q = typeof query.q === 'string' ? query.q.trim().slice(0, 200) : '';
  if (unstorableText(q)) throw fieldError('q', 'q cannot hold NUL or lone surrogate characters');
  return { page: Number(rawPage), q, filters: [typeFilter(query.type), q ? { name: { $containsi: q } } : undefined].filter(Boolean) };
}

/** The files of a multipart body, typed as their parts declare (the upload policy checks those). */
async function multipartFiles(request: Request, limit: number): Promise<File[]> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type)) throw new ValidationError('Send the files as multipart/form-data');
  if (Number(request.headers.get('content-length') ?? 0) > limit * MAX_FILES + MULTIPART_OVERHEAD) throw new PayloadTooLargeError('FileTooBig');
  const files: File[] = [];
  try {
    const bytes = new Uint8Array(await request.arrayBuffer());
    const declared = declaredPartTypes(bytes, type, 'files');
    const form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
    const parts = form.getAll('files');
    if (parts.length !== declared?.length) throw new Error('parts disagree');
    parts.forEach((part, i) => {
      if (part instanceof Blob && part.size > 0) files.push(new File([part], (part as File).name, { type: declared[i]! }));
    });
  } catch {
    throw new ValidationError('Invalid multipart body');
  }
  if (files.length === 0) throw new ValidationError('Files are empty');
  if (files.length > MAX_FILES) throw new ValidationError(`At most ${MAX_FILES} files at once`);
  return files;
}

export function adminFileRoutes(instance: Instance, accounts: AdminAccounts) {
  const { config } = instance;
  const begin = gate(instance, accounts, 'media');

  async function fileOf(raw: string) {
    const id = idParam(raw);
    const file = id === undefined ? undefined : await instance.uploads.findOne(id);
    if (!file) throw new NotFoundError('File not found');
    return file;
  }

  return new Elysia({ name: 'admin:files' })
    .get('/admin/api/files', async ({ request }) => {
      await begin(request);
      const { page, filters } = listQuery(request.url);
      // One more than a page: whether a next one exists, without counting every file.
      const found = await instance.uploads.findMany({
        sort: ['createdAt:desc', 'id:desc'],
        start: String((page - 1) * PAGE_SIZE),
        limit: String(PAGE_SIZE + 1),
        ...(filters.length ? { filters: { $and: filters } } : {}),
      });
      return json({ data: found.slice(0, PAGE_SIZE), meta: { page, pageSize: PAGE_SIZE, hasMore: found.length > PAGE_SIZE } });
    })
    .post(
      '/admin/api/files',
      async ({ request, server }) => {
        const actor = adminActor(await begin(request), request, server, config.trustProxy);
        const files = await multipartFiles(request, config.uploadLimit);
        return json({ data: await instance.uploads.upload(files, [], {}, actor) }, 201);
      },
      { parse: 'none' },
    )
    .put(
      '/admin/api/files/:id',
      async ({ request, params, server }) => {
        const actor = adminActor(await begin(request), request, server, config.trustProxy);
        const file = await fileOf(params.id);
        const body = await bodyOf(request, config.bodyLimit);
        const name = text(body, 'name', { max: 255 });
        if (body.name !== undefined && !name?.trim()) throw fieldError('name', 'name cannot be empty');
        // Empty alternative text or caption clears it; updateInfo keeps a value given as null.
        const info = {
          name,
          alternativeText: text(body, 'alternativeText', { max: 1000 }) ?? (body.alternativeText === undefined ? undefined : ''),
          caption: text(body, 'caption', { max: 1000 }) ?? (body.caption === undefined ? undefined : ''),
        };
        return json({ data: await instance.uploads.updateInfo(String(file.id), info, actor) });
      },
      { parse: 'none' },
    )
    .delete('/admin/api/files/:id', async ({ request, params, server }) => {
      const actor = adminActor(await begin(request), request, server, config.trustProxy);
      const file = await fileOf(params.id);
      await instance.uploads.remove(String(file.id), actor);
      return noContent();
    });
}
