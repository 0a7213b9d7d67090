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
import type { IncomingRequest } from '../../project/context';
import { readJsonBody } from '../body';
import { bytesOf } from '../respond';
import { parseQueryString } from '../query-string';
import { REQUEST_LIMITS } from '../../query/limits';
import qs from 'qs';
import type { CoreHandler } from './content';

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
        const file = {
          name: blob.name,
          originalFilename: blob.name,
          mimetype: blob.type,
          type: blob.type,
          size: blob.size,
          arrayBuffer: () => blob.arrayBuffer(),
          file: blob,
        };
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

/**
 * The query string as REST parses it, parsed when first asked for (a read whose `ctx.query` no
 * project code reads is parsed once, by the core handler). One that may be refused for its
 * number of parameters is parsed at once, so that 400 still comes before any project code:
 * a string shorter than 2 × the limit + 1 cannot hold more non-empty pairs than the limit.
 */
function queryOf(url: string): () => Record<string, unknown> {
  const at = url.indexOf('?');
  let parsed = at >= 0 && url.length - at - 1 > 2 * REQUEST_LIMITS.queryParameters ? parseQueryString(url) : undefined;
  return () => (parsed ??= parseQueryString(url));
}

/** The project's answer when one of its routes has this request's method and path (the project as it is now: a reload swaps it). */
export function projectAnswer(
  instance: Instance,
  request: Request,
  server: () => Server | undefined,
  core?: Map<string, CoreHandler>,
  own?: OwnRoutes,
): Promise<Response> | undefined {
  const project = instance.project;
  if (!project) return undefined;
  const url = new URL(request.url);
  const found = project.match(request.method, url.pathname);
  if (!found) return undefined;
  const folio = found.route.folioCore && core?.get(`${found.route.folioCore.uid}.${found.route.folioCore.action}`);
  return (async () => {
    const { body, files } = await readBody(request, instance);
    const query = queryOf(request.url);
    return project.handle(found.route, {
      method: request.method,
      url,
      headers: request.headers,
      get query() {
        return query();
      },
      body,
      files,
      params: found.params,
      get ip() {
        return server()?.requestIP?.(request)?.address ?? '';
      },
      bytesOf,
      own: own ? (as: Parameters<NonNullable<IncomingRequest['own']>>[0]) => own(ownRequest(request, url, as), request) : undefined,
      core: folio
        ? async (as: Parameters<NonNullable<IncomingRequest['core']>>[0]) =>
            folio({ request: coreRequest(request, url, as), params: { documentId: as.params.id ?? '' }, caller: as.caller })
        : undefined,
    });
  })();
}

/**
 * The request a core handler answers: the query and body as the route's policies and
 * middlewares left them (a middleware may set `ctx.query.populate`), the headers as sent. A
 * read whose `ctx.query` no project code read or replaced is the request itself (its query
 * string as sent, nothing stringified again).
 */
function coreRequest(request: Request, url: URL, as: { method: string; query?: Record<string, unknown>; body: unknown }): Request {
  const hasBody = as.method !== 'GET' && as.method !== 'HEAD' && as.method !== 'DELETE';
  if (as.query === undefined && (as.method === 'GET' || as.method === 'HEAD') && as.method === request.method) return request;
  const search = as.query === undefined ? url.search.slice(1) : qs.stringify(as.query, { encodeValuesOnly: true });
  const target = `${url.origin}${url.pathname}${search ? `?${search}` : ''}`;
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  if (hasBody) headers.set('content-type', 'application/json');
  return new Request(target, { method: as.method, headers, ...(hasBody ? { body: JSON.stringify(as.body ?? {}) } : {}) });
}

/**
 * The request a built-in plugin action answers through Folio's own route (project/endpoint.ts
 * ownAction): its route's path under /api, the ctx's query and body, the headers as sent (the
 * caller's authorization included).
 */
function ownRequest(request: Request, url: URL, as: { method: string; path: string; query: Record<string, unknown>; body: unknown }): Request {
  const search = qs.stringify(as.query, { encodeValuesOnly: true });
  const hasBody = as.method !== 'GET' && as.method !== 'HEAD' && as.method !== 'DELETE';
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  if (hasBody) headers.set('content-type', 'application/json');
  else headers.delete('content-type');
  return new Request(`${url.origin}/api${as.path}${search ? `?${search}` : ''}`, {
    method: as.method,
    headers,
    ...(hasBody ? { body: JSON.stringify(as.body ?? {}) } : {}),
  });
}

/** Folio's own routes of a built-in plugin: a request made for them, and the request the project received (its client's address). */
export type OwnRoutes = (request: Request, received: Request) => Promise<Response>;

type Server = { requestIP?(r: Request): { address: string } | null };

/**
 * Every path under the API prefix that no route of Folio's has: the project's routes, looked up
 * at request time (`folio develop` swaps the project), else a 404. Paths Folio has (a content
 * type's) ask the project first themselves (routes/content.ts).
 */
export function projectRoutes(instance: Instance, project: ProjectApp, server: () => Server | undefined, own?: OwnRoutes) {
  const prefix = String(project.strapi.config.get('api.rest.prefix', '/api')).replace(/\/+$/, '');
  const answer = ({ request }: { request: Request }) => {
    const answered = projectAnswer(instance, request, server, undefined, own);
    if (answered) return answered;
    throw new NotFoundError();
  };
  return new Elysia({ name: 'project-routes' }).all(`${prefix}/*`, answer, { parse: 'none' }).all(prefix || '/', answer, { parse: 'none' });
}

/**
 * Strapi's config/middlewares wrap its whole app: with middlewares of the project's own, every
 * request but Folio Admin's (Strapi serves its admin apart) and the project's routes' (which
 * run them in their own chain) is answered through them (project/endpoint.ts runAround).
 * Without, nothing is added to a request.
 */
export function projectGlobalMiddlewares(instance: Instance, server: () => Server | undefined) {
  // Typed as Elysia's wrap types its handler (`Function`-like), as request-log.ts's is.
  return (wrapped: (...args: unknown[]) => unknown) =>
    async (request: Request): Promise<Response> => {
      const next = wrapped as (request: Request) => Promise<Response>;
      const project = instance.project;
      if (!project?.wrapsAll) return next(request);
      const url = new URL(request.url);
      if (url.pathname === '/admin' || url.pathname.startsWith('/admin/') || project.match(request.method, url.pathname)) return next(request);
      const query = queryOf(request.url);
      return project.around(
        {
          method: request.method,
          url,
          headers: request.headers,
          get query() {
            return query();
          },
          body: {},
          params: {},
          get ip() {
            return server()?.requestIP?.(request)?.address ?? '';
          },
          bytesOf,
        },
        () => next(request),
      );
    };
}
