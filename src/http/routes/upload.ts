/**
 * The upload plugin's content API, answering bare arrays and objects as Strapi does:
 *   POST   /api/upload              upload (201, array), or with ?id=N update/replace (200)
 *   GET    /api/upload/files        list
 *   GET    /api/upload/files/:id    one file
 *   DELETE /api/upload/files/:id    delete (200, the deleted file)
 *   GET    /uploads/<name>          the stored bytes (public, like Strapi's static folder)
 */
import { Elysia } from 'elysia';
import { FolioError, NotFoundError, PayloadTooLargeError, ValidationError } from '../../errors';
import type { Instance } from '../../instance';
import type { FileObject } from '../../upload/file-row';
import { declaredPartTypes } from '../../upload/multipart';
import { parseFileInfo } from '../../upload/prepare';
import { servedFileHeaders } from '../../upload/serve-headers';
import { typeOfName } from '../../upload/storage';
import { readJsonBody } from '../body';
import { isNotModified, notModified } from '../etag';
import { writerOf, type Guard } from '../guard';
import { parseQueryString } from '../query-string';
import { json } from '../respond';

/** Room for multipart boundaries and text fields on top of the file bytes. */
export const MULTIPART_OVERHEAD = 1024 * 1024;

interface UploadBody {
  files: File[];
  fields: Record<string, unknown[]>;
}

/**
 * Multipart (the Strapi way) or JSON (enough for `?id=N` metadata updates). Anything else
 * carries no files, so it ends in "Files are empty" as in Strapi.
 */
export async function readUploadBody(request: Request, uploadLimit: number, bodyLimit: number): Promise<UploadBody> {
  const type = request.headers.get('content-type') ?? '';
  const body: UploadBody = { files: [], fields: {} };
  if (/^multipart\/form-data/i.test(type)) {
    // The total is checked before anything is read; each file is checked again once parsed.
    if (Number(request.headers.get('content-length') ?? 0) > uploadLimit + MULTIPART_OVERHEAD) throw new PayloadTooLargeError('FileTooBig');
    let form: Awaited<ReturnType<Request['formData']>>;
    let declared: string[] | undefined;
    try {
      const bytes = new Uint8Array(await request.arrayBuffer());
      declared = declaredPartTypes(bytes, type, 'files');
      form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
    } catch {
      throw new ValidationError('Invalid multipart body');
    }
    // Bun and the scan must agree on which parts are files, or the types could be paired wrongly.
    const count = form.getAll('files').length;
    if (count > 0 && declared?.length !== count) throw new ValidationError('Invalid multipart body');
    let index = 0;
    form.forEach((value: unknown, key: string) => {
      if (key === 'files') {
        const declaredType = declared![index++]!;
        // An empty file part is what a form sends when no file was chosen. Bun typed the
        // File from its name; the policy wants what the client declared.
        if (value instanceof Blob && value.size > 0) body.files.push(new File([value], (value as File).name, { type: declaredType }));
      } else (body.fields[key] ??= []).push(value);
    });
    return body;
  }
  const parsed = await readJsonBody(request, bodyLimit);
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    for (const [key, value] of Object.entries(parsed)) body.fields[key] = [value];
  }
  return body;
}

/** A single text field (`ref`, `refId`, `field`, `locale`); repeated values keep the last. */
function textField(fields: Record<string, unknown[]>, name: string, query: Record<string, unknown>): string | undefined {
  const value = fields[name]?.at(-1) ?? query[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new ValidationError(`${name} must be a string`);
  return value;
}

/** The header naming the answered files stored without their formats. */
const FORMATS_SKIPPED_HEADER = 'X-Folio-Formats-Skipped';

/**
 * `X-Folio-Formats-Skipped: 7;reason=memory, 9;reason=pixels` (a structured-field list, RFC 8941):
 * the ids of the answer's images whose formats were not made (`formats: null`, as Strapi
 * answers for an image it does not resize), and why; absent when every image got its formats.
 */
function skippedHeader(service: Instance['uploads'], files: FileObject[]): Record<string, string> {
  const items = files.flatMap((file) => {
    const skipped = service.formatsSkipped(file);
    return skipped ? [`${file.id};reason=${skipped.reason}`] : [];
  });
  return items.length ? { [FORMATS_SKIPPED_HEADER]: items.join(', ') } : {};
}

export function uploadRoutes(instance: Instance, allow: Guard) {
  const { config } = instance;
  const service = instance.uploads;
  const guarded = (request: Request, action: 'find' | 'findOne' | 'upload' | 'destroy') => allow(request, `plugin::upload.content-api.${action}`);

  const fileNotFound = () => new NotFoundError('file.notFound');

  /**
   * Stored bytes with the type their extension names; `nosniff` so browsers never guess
   * otherwise, a sandboxing CSP, and anything but media as a download (serve-headers.ts).
   */
  async function serve(request: Request, raw: string, head: boolean, set: { headers: Record<string, unknown> }) {
    let name: string;
    try {
      // Route params arrive still percent-encoded; decoded `..%2F` is refused by the storage.
      name = decodeURIComponent(raw);
    } catch {
      throw new NotFoundError();
    }
    // From the folder or streamed from the bucket (upload/storage.ts), served the same way.
    const file = await service.storage.open(name);
    if (!file) throw new NotFoundError();
    const headers = servedFileHeaders(name, typeOfName(name), file.size, file.modifiedMs);
    // The app-wide security headers are set on every response before routing; these replace them.
    Object.assign(set.headers, headers);
    if (isNotModified(request.headers, headers.etag!, file.modifiedMs)) {
      // Only the caching headers: a 304 has no body, so no Content-Length or Content-Type.
      for (const name of ['content-length', 'content-type', 'content-disposition']) delete set.headers[name];
      return notModified(headers);
    }
    return new Response(head ? null : file.body(), { headers });
  }

  return new Elysia({ name: 'upload' })
    .post(
      '/api/upload',
      async ({ request, server }) => {
        const actor = writerOf(await guarded(request, 'upload'), request, server, config.trustProxy);
        const query = parseQueryString(request.url);
        const { files, fields } = await readUploadBody(request, config.uploadLimit, config.bodyLimit);
        if (query.id !== undefined && query.id !== null && query.id !== '') {
          const id = String(query.id);
          if (files.length > 1) throw new FolioError(400, 'ApplicationError', 'Cannot replace a file with multiple ones');
          const info = parseFileInfo(fields.fileInfo ?? [])[0] ?? {};
          if (files.length === 0) return json(await service.updateInfo(id, info, actor));
          const replaced = await service.replace(id, files[0]!, info, actor);
          return json(replaced, 200, skippedHeader(service, [replaced]));
        }
        // Strapi checks for files before it reads fileInfo.
        if (files.length === 0) throw new ValidationError('Files are empty');
        const infos = parseFileInfo(fields.fileInfo ?? [], files.length);
        const attach = {
          ref: textField(fields, 'ref', query),
          refId: textField(fields, 'refId', query),
          field: textField(fields, 'field', query),
          locale: textField(fields, 'locale', query),
        };
        const stored = await service.upload(files, infos, attach, actor);
        return json(stored, 201, skippedHeader(service, stored));
      },
      { parse: 'none' },
    )
    .get('/api/upload/files', async ({ request }) => {
      await guarded(request, 'find');
      return json(await service.findMany(parseQueryString(request.url)));
    })
    .get('/api/upload/files/:id', async ({ request, params }) => {
      await guarded(request, 'findOne');
      const file = await service.findOne((params as { id: string }).id);
      if (!file) throw fileNotFound();
      return json(file);
    })
    .delete('/api/upload/files/:id', async ({ request, params, server }) => {
      const actor = writerOf(await guarded(request, 'destroy'), request, server, config.trustProxy);
      const file = await service.remove((params as { id: string }).id, actor);
      if (!file) throw fileNotFound();
      return json(file);
    })
    .get('/uploads/*', ({ request, params, set }) => serve(request, (params as { '*': string })['*'], false, set))
    .head('/uploads/*', ({ request, params, set }) => serve(request, (params as { '*': string })['*'], true, set));
}
