/**
 * The Koa-shaped `ctx` that controllers, policies and middlewares receive, built from a
 * request the HTTP layer has already parsed (query as REST reads it, body, files), and the
 * answer it turns into: `ctx.body` / `ctx.status` / `ctx.set(...)`, as Koa would send them
 * (a body without an explicit status is a 200, `null` a 204, nothing at all a 404 envelope).
 * `ctx.badRequest(…)`, `ctx.notFound(…)` and the other helpers set the error answer and do
 * not throw, as Strapi's do; `ctx.throw(status, message)` throws an HttpError.
 */
import type { Principal } from '../auth/access';
import { HttpError, httpErrorName, statusText } from './strapi-errors';

/**
 * Who the route chain authenticated (its authenticate step) and what they may do: handed to
 * Folio's core handler, which then neither authenticates the request again nor reads the
 * grants again (the same request's).
 */
export interface ChainCaller {
  principal: Principal;
  can(action: string): boolean;
  readableTypes(): Set<string>;
}

/** A request as the HTTP layer hands it over (http/routes/project.ts). */
export interface IncomingRequest {
  method: string;
  url: URL;
  headers: Headers;
  /** The query string parsed as REST parses it (qs, Strapi's options). */
  query: Record<string, unknown>;
  body: unknown;
  files?: Record<string, unknown>;
  params: Record<string, string>;
  ip: string;
  /**
   * The bytes of an answer of Folio's own when they are known without reading its body (a JSON
   * answer made from bytes: http/respond.ts bytesOf); otherwise the body is read.
   */
  bytesOf?: (answer: Response) => Uint8Array | undefined;
  /** A core route ending in Folio's own handler (endpoint.ts folioCore): answers the request as the chain leaves it. */
  core?: (request: {
    method: string;
    /** `ctx.query` as the chain left it; absent when no project code read or replaced it (the request's own query string then stands). */
    query?: Record<string, unknown>;
    body: unknown;
    params: Record<string, string>;
    /** The chain's caller (absent when project code replaced `ctx.state`: the core handler then authenticates itself). */
    caller?: ChainCaller;
  }) => Promise<Response>;
  /**
   * Folio's own routes of its built-in plugins (users-permissions), without the project's routes
   * in front: a built-in controller action an extension kept or wraps answers through them.
   */
  own?: (request: { method: string; path: string; query: Record<string, unknown>; body: unknown }) => Promise<Response>;
}

/** Strapi's ctx helpers: name → status. */
const HELPERS: Record<string, number> = {
  badRequest: 400,
  unauthorized: 401,
  paymentRequired: 402,
  forbidden: 403,
  notFound: 404,
  methodNotAllowed: 405,
  notAcceptable: 406,
  proxyAuthenticationRequired: 407,
  requestTimeout: 408,
  conflict: 409,
  gone: 410,
  lengthRequired: 411,
  preconditionFailed: 412,
  payloadTooLarge: 413,
  uriTooLong: 414,
  unsupportedMediaType: 415,
  rangeNotSatisfiable: 416,
  expectationFailed: 417,
  misdirectedRequest: 421,
  unprocessableEntity: 422,
  locked: 423,
  failedDependency: 424,
  tooEarly: 425,
  upgradeRequired: 426,
  preconditionRequired: 428,
  tooManyRequests: 429,
  requestHeaderFieldsTooLarge: 431,
  unavailableForLegalReasons: 451,
  internalServerError: 500,
  notImplemented: 501,
  badGateway: 502,
  serviceUnavailable: 503,
  gatewayTimeout: 504,
  httpVersionNotSupported: 505,
};

export interface ProjectContext {
  request: Record<string, any>;
  response: Record<string, any>;
  state: Record<string, any>;
  params: Record<string, string>;
  query: Record<string, any>;
  body: unknown;
  status: number;
  [key: string]: any;
}

/** The envelope of an error answer (`details` left out where Strapi leaves it out). */
export function errorBody(status: number, name: string, message: string, details?: unknown) {
  return { data: null, error: details === undefined ? { status, name, message } : { status, name, message, details } };
}

/**
 * An answer of Folio's own a global middleware wraps (a route that is not the project's):
 * its JSON is parsed only if a middleware reads `ctx.body`; a stream (the realtime feed)
 * passes through as it is.
 */
export async function adoptAnswer(ctx: ProjectContext, answer: Response): Promise<void> {
  for (const [name, value] of answer.headers) if (name !== 'content-length') ctx._responseHeaders.set(name, value);
  const type = answer.headers.get('content-type') ?? '';
  if (answer.body && /\bjson\b/.test(type)) ctx._adopt(answer.status, ctx._bytesOf(answer) ?? new Uint8Array(await answer.arrayBuffer()));
  else ctx._adopt(answer.status, undefined, answer.body);
}

/** An error answer of Folio's own: it passes by the global middlewares' code after `await next()`, as a thrown error does in Strapi. */
export class PassedAnswer extends Error {
  constructor(readonly answer: Response) {
    super(`answered ${answer.status}`);
  }
}

export function createContext(incoming: IncomingRequest): ProjectContext {
  const responseHeaders = new Headers();
  let body: unknown;
  /** An adopted JSON answer, parsed on first read of `ctx.body`. */
  let adopted: Uint8Array | undefined;
  /** An adopted answer that is no JSON (a stream, bytes): passed on as it is. */
  let raw: ConstructorParameters<typeof Response>[0] | undefined;
  let status = 404;
  let explicitStatus = false;
  let explicitNullBody = false;

  const headerObject = () => Object.fromEntries(incoming.headers.entries());
  const get = (name: string) => {
    const key = name.toLowerCase();
    if (key === 'referer' || key === 'referrer') return incoming.headers.get('referrer') ?? incoming.headers.get('referer') ?? '';
    return incoming.headers.get(key) ?? '';
  };
  const is = (...types: (string | string[])[]): string | false | null => {
    const type = (incoming.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!type) return null;
    const wanted = types.flat();
    if (!wanted.length) return type;
    for (const t of wanted) {
      const full =
        t === 'json'
          ? 'application/json'
          : t === 'urlencoded'
            ? 'application/x-www-form-urlencoded'
            : t === 'multipart'
              ? 'multipart/*'
              : t.includes('/')
                ? t
                : `*/${t}`;
      const [a, b] = full.split('/');
      const [ta, tb] = type.split('/');
      if ((a === '*' || a === ta) && (b === '*' || b === tb || (tb ?? '').endsWith(`+${b}`))) return t;
    }
    return false;
  };
  const set = (field: string | Record<string, unknown>, value?: unknown) => {
    if (typeof field === 'object') for (const [k, v] of Object.entries(field)) responseHeaders.set(k, String(v));
    else if (Array.isArray(value)) {
      responseHeaders.delete(field);
      for (const v of value) responseHeaders.append(field, String(v));
    } else responseHeaders.set(field, String(value));
  };

  const request: Record<string, any> = {
    method: incoming.method,
    url: incoming.url.pathname + incoming.url.search,
    href: incoming.url.href,
    path: incoming.url.pathname,
    querystring: incoming.url.search.slice(1),
    search: incoming.url.search,
    host: incoming.url.host,
    hostname: incoming.url.hostname,
    origin: incoming.url.origin,
    protocol: incoming.url.protocol.replace(':', ''),
    ip: incoming.ip,
    body: incoming.body,
    files: incoming.files,
    get header() {
      return headerObject();
    },
    get headers() {
      return headerObject();
    },
    get: get,
    is,
    get type() {
      return (incoming.headers.get('content-type') ?? '').split(';')[0]!.trim();
    },
    get length() {
      const n = incoming.headers.get('content-length');
      return n ? Number(n) : undefined;
    },
  };
  Object.defineProperty(request, 'query', { get: () => ctx.query, set: (q) => (ctx.query = q), enumerable: true });

  const response: Record<string, any> = {
    get status() {
      return status;
    },
    set status(code: number) {
      status = code;
      explicitStatus = true;
    },
    get body() {
      return body;
    },
    set body(value: unknown) {
      ctx.body = value;
    },
    get headers() {
      return Object.fromEntries(responseHeaders.entries());
    },
    get header() {
      return Object.fromEntries(responseHeaders.entries());
    },
    get: (name: string) => responseHeaders.get(name) ?? '',
    set,
    append: (name: string, value: string) => responseHeaders.append(name, value),
    remove: (name: string) => responseHeaders.delete(name),
    get message() {
      return statusText(status);
    },
    get type() {
      return responseHeaders.get('content-type') ?? '';
    },
    set type(value: string) {
      responseHeaders.set(
        'content-type',
        value.includes('/') ? value : value === 'json' ? 'application/json' : value === 'html' ? 'text/html' : `text/${value}`,
      );
    },
    get _explicitStatus() {
      return explicitStatus;
    },
  };

  let query = incoming.query;
  /** Whether project code read `ctx.query` (it may have changed it in place) or replaced it. */
  let queryTouched = false;

  const ctx: ProjectContext = {
    request,
    response,
    state: {},
    params: incoming.params,
    get query() {
      queryTouched = true;
      return query;
    },
    set query(value: Record<string, any>) {
      queryTouched = true;
      query = value;
    },
    get body() {
      if (adopted) {
        body = JSON.parse(new TextDecoder().decode(adopted));
        adopted = undefined;
      }
      return body;
    },
    set body(value: unknown) {
      adopted = undefined;
      raw = undefined;
      body = value;
      if (value === null || value === undefined) {
        explicitNullBody = true;
        if (!explicitStatus || (status !== 204 && status !== 205 && status !== 304)) {
          status = 204;
          explicitStatus = true;
        }
        return;
      }
      if (!explicitStatus) {
        status = 200;
        explicitStatus = true;
      }
    },
    get status() {
      return status;
    },
    set status(code: number) {
      status = code;
      explicitStatus = true;
    },
    get method() {
      return incoming.method;
    },
    get url() {
      return request.url;
    },
    get path() {
      return request.path;
    },
    get querystring() {
      return request.querystring;
    },
    get host() {
      return request.host;
    },
    get ip() {
      return incoming.ip;
    },
    get header() {
      return headerObject();
    },
    get headers() {
      return headerObject();
    },
    get,
    set,
    append: response.append,
    remove: response.remove,
    is,
    get type() {
      return response.type;
    },
    set type(value: string) {
      response.type = value;
    },
    send(data: unknown, code = 200) {
      ctx.status = code;
      ctx.body = data;
    },
    created(data: unknown) {
      ctx.status = 201;
      ctx.body = data;
    },
    deleted(data: unknown) {
      if (data === undefined || data === null) {
        ctx.status = 204;
        body = undefined;
        explicitNullBody = true;
      } else ctx.send(data, 200);
    },
    throw(...args: unknown[]) {
      const code = typeof args[0] === 'number' ? args[0] : typeof args[1] === 'number' ? args[1] : 500;
      const message = typeof args[0] === 'string' ? args[0] : typeof args[1] === 'string' ? args[1] : undefined;
      const props = args.find((a) => a && typeof a === 'object' && !(a instanceof Error)) as { details?: unknown } | undefined;
      throw new HttpError(code, message, props?.details);
    },
    assert(value: unknown, ...args: unknown[]) {
      if (!value) ctx.throw(...args);
    },
    get _explicitStatus() {
      return explicitStatus;
    },
    get _explicitNullBody() {
      return explicitNullBody;
    },
    get _responseHeaders() {
      return responseHeaders;
    },
    /** `ctx.query` for Folio's core handler: undefined while no project code read or replaced it. */
    get _touchedQuery(): Record<string, any> | undefined {
      return queryTouched ? query : undefined;
    },
    _bytesOf(answer: Response): Uint8Array | undefined {
      return incoming.bytesOf?.(answer);
    },
    /** The answer as adopted and still untouched: its bytes, or its stream. */
    get _untouched(): ConstructorParameters<typeof Response>[0] | undefined {
      return adopted ?? raw;
    },
    _adopt(code: number, bytes: Uint8Array | undefined, stream?: ConstructorParameters<typeof Response>[0]) {
      status = code;
      explicitStatus = true;
      body = undefined;
      adopted = bytes;
      raw = bytes ? undefined : (stream ?? null);
    },
  };
  for (const [name, code] of Object.entries(HELPERS)) {
    ctx[name] = (message?: string, details: unknown = {}) => {
      ctx.status = code;
      ctx.body = errorBody(code, httpErrorName(code), message || statusText(code), details ?? {});
    };
  }
  return ctx;
}

/** The answer a ctx holds once the middlewares and the controller are done. */
export function responseOf(ctx: ProjectContext): Response {
  const headers = ctx._responseHeaders as Headers;
  const untouched = ctx._untouched;
  if (untouched !== undefined) return new Response(untouched, { status: ctx.status, headers });
  const body = ctx.body;
  const status = ctx.status;
  if (body === undefined || body === null) {
    if (!ctx._explicitStatus) return json(errorBody(404, 'NotFoundError', 'Not Found', {}), 404, headers);
    return new Response(null, { status, headers });
  }
  if (body instanceof Response) return body;
  if (typeof body === 'string') {
    if (!headers.has('content-type')) headers.set('content-type', /^\s*</.test(body) ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8');
    return new Response(body, { status, headers });
  }
  if (body instanceof Uint8Array || body instanceof ArrayBuffer || body instanceof Blob || body instanceof ReadableStream) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/octet-stream');
    return new Response(body as ConstructorParameters<typeof Response>[0], { status, headers });
  }
  return json(body, status, headers);
}

function json(value: unknown, status: number, headers: Headers): Response {
  if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8');
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  headers.set('content-length', String(bytes.length));
  return new Response(bytes, { status, headers });
}
