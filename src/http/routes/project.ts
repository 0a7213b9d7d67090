/**
 * The routes of a Strapi project's own code (src/project/), matched at request time against
 * the project as it is (a reload in development swaps it), its body read as Strapi's body middleware reads it (JSON within the body
 * limit, urlencoded, multipart with `ctx.request.files`, text), its query string parsed as REST
 * parses it, and the rest is the project's (policies, middlewares, controller).
 */
import { Elysia } from 'elysia';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../../errors';
import type { Instance } from '../../instance';
import type { ProjectApp } from '../../project/app';
import { readJsonBody } from '../body';
import { parseQueryString } from '../query-string';

async function readBody(request: Request, instance: Instance): Promise<{ body: unknown; files?: Record<string, unknown> }> {
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return { body: {} };
  if (type.startsWith('multipart/form-data')) {
    const declared = Number(request.headers.get('content-length') ?? NaN);
    if (declared > instance.config.uploadLimit) throw new PayloadTooLargeError();
    let form: Awaited<ReturnType<Request['formData']>>;
    try {
      form = await request.formData();
    } catch {
      throw new ValidationError('Invalid multipart body');
    }
    const body: Record<string, unknown> = {};
    const files: Record<string, unknown> = {};
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') body[name] = value;
      else {
        const blob = value as unknown as File;
        const file = { name: blob.name, originalFilename: blob.name, mimetype: blob.type, type: blob.type, size: blob.size, arrayBuffer: () => blob.arrayBuffer(), file: blob };
        files[name] = files[name] === undefined ? file : [files[name], file].flat();
      }
    }
    return { body, files };
  }
  if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('text/')) {
    const declared = Number(request.headers.get('content-length') ?? NaN);
    if (declared > instance.config.bodyLimit) throw new PayloadTooLargeError('request entity too large');
    const text = await request.text();
    if (text.length > instance.config.bodyLimit) throw new PayloadTooLargeError('request entity too large');
    return { body: type.startsWith('text/') ? text : Object.fromEntries(new URLSearchParams(text)) };
  }
  return { body: (await readJsonBody(request, instance.config.bodyLimit)) ?? {} };
}

/** The project's answer when one of its routes has this request's method and path (the project as it is now: a reload swaps it). */
export function projectAnswer(instance: Instance, request: Request, server: () => Server | undefined): Promise<Response> | undefined {
  const project = instance.project;
  if (!project) return undefined;
  const url = new URL(request.url);
  const found = project.match(request.method, url.pathname);
  if (!found) return undefined;
  return (async () => {
    const { body, files } = await readBody(request, instance);
    return project.handle(found.route, {
      method: request.method,
      url,
      headers: request.headers,
      query: parseQueryString(request.url),
      body,
      files,
      params: found.params,
      ip: server()?.requestIP?.(request)?.address ?? '',
    });
  })();
}

type Server = { requestIP?(r: Request): { address: string } | null };

/**
 * Every path under the API prefix that no route of Folio's has: the project's routes, looked up
 * at request time (`folio develop` swaps the project), else a 404. Paths Folio has (a content
 * type's) ask the project first themselves (routes/content.ts).
 */
export function projectRoutes(instance: Instance, project: ProjectApp, server: () => Server | undefined) {
  const prefix = String(project.strapi.config.get('api.rest.prefix', '/api')).replace(/\/+$/, '');
  const answer = ({ request }: { request: Request }) => {
    const answered = projectAnswer(instance, request, server);
    if (answered) return answered;
    throw new NotFoundError();
  };
  return new Elysia({ name: 'project-routes' }).all(`${prefix}/*`, answer, { parse: 'none' }).all(prefix || '/', answer, { parse: 'none' });
}
