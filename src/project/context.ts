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
  /** The query string parsed as REST parses it (qs, Strapi's options); read when project code first reads `ctx.query`. */
  readonly query: Record<string, unknown>;
  body: unknown;
  files?: Record<string, unknown>;
  params: Record<string, string>;
  /** The client's address (read when asked: the request facade's `ip`). */
  readonly ip: string;
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
  const headers = answer.headers;
  ctx._adoptHeaders(headers);
  const json = /\bjson\b/.test(headers.get('content-type') ?? '');
  // Bytes Folio made the answer from: its body (a stream once asked for) is never touched.
  const known = json ? ctx._bytesOf(answer) : undefined;
  if (known) ctx._adopt(answer.status, known);
  else if (answer.body && json) ctx._adopt(answer.status, new Uint8Array(await answer.arrayBuffer()));
  else ctx._adopt(answer.status, undefined, answer.body);
}

/** An error answer of Folio's own: it passes by the global middlewares' code after `await next()`, as a thrown error does in Strapi. */
export class PassedAnswer extends Error {
  constructor(readonly answer: Response) {
    super(`answered ${answer.status}`);
  }
}

/** What one request's ctx holds besides its own fields: the request it came from and the answer so far. */
interface CtxState {
  incoming: IncomingRequest;
  ctx: ProjectContext;
  body: unknown;
  /** An adopted JSON answer, parsed on first read of `ctx.body`. */
  adopted: Uint8Array | undefined;
  /** An adopted answer that is no JSON (a stream, bytes): passed on as it is. */
  raw: ConstructorParameters<typeof Response>[0] | undefined;
  status: number;
  explicitStatus: boolean;
  explicitNullBody: boolean;
  /** `ctx.query`, once project code read or replaced it (`queryTouched`). */
  query: Record<string, any> | undefined;
  /** Whether project code read `ctx.query` (it may have changed it in place) or replaced it. */
  queryTouched: boolean;
  /** The answer's headers, made on first use. */
  headers: Headers | undefined;
}
const STATE = Symbol('folio.ctx');
type WithState = { [STATE]: CtxState };
const stateOf = (self: unknown) => (self as WithState)[STATE];
const answerHeaders = (s: CtxState) => (s.headers ??= new Headers());

/**
 * The ctx, its request and its response are built per request from prototypes shared by all
 * (as Koa's are): nothing is computed until read. What was a plain field of these objects
 * stays one to project code: assigning it gives the object its own value; a method taken off
 * the object (`const { set } = ctx`) stays bound to it; what was read-only stays read-only.
 */
function accessors(proto: object, fields: Record<string, (s: CtxState) => unknown>, assignable: boolean): void {
  for (const [name, read] of Object.entries(fields)) {
    Object.defineProperty(proto, name, {
      configurable: true,
      enumerable: true,
      get() {
        return read(stateOf(this));
      },
      ...(assignable && {
        set(value: unknown) {
          Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
        },
      }),
    });
  }
}
const dataFields = (proto: object, fields: Record<string, (s: CtxState) => unknown>) => accessors(proto, fields, true);
const readOnly = (proto: object, fields: Record<string, (s: CtxState) => unknown>) => accessors(proto, fields, false);
/** Methods are data fields whose value is the method bound to this object's request. */
function boundMethods(proto: object, methods: Record<string, (s: CtxState, ...args: any[]) => unknown>): void {
  const bound = Object.entries(methods).map(([name, method]) => [
    name,
    (s: CtxState) =>
      (...args: any[]) =>
        method(s, ...args),
  ]);
  dataFields(proto, Object.fromEntries(bound));
}

const headerObject = (s: CtxState) => Object.fromEntries(s.incoming.headers.entries());
const getHeader = (s: CtxState, name: string) => {
  const headers = s.incoming.headers;
  const key = name.toLowerCase();
  if (key === 'referer' || key === 'referrer') return headers.get('referrer') ?? headers.get('referer') ?? '';
  return headers.get(key) ?? '';
};
const isType = (s: CtxState, ...types: (string | string[])[]): string | false | null => {
  const type = (s.incoming.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
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
const setHeader = (s: CtxState, field: string | Record<string, unknown>, value?: unknown) => {
  const headers = answerHeaders(s);
  if (typeof field === 'object') for (const [k, v] of Object.entries(field)) headers.set(k, String(v));
  else if (Array.isArray(value)) {
    headers.delete(field);
    for (const v of value) headers.append(field, String(v));
  } else headers.set(field, String(value));
};
const appendHeader = (s: CtxState, name: string, value: string) => answerHeaders(s).append(name, value);
const removeHeader = (s: CtxState, name: string) => answerHeaders(s).delete(name);
const setStatus = (s: CtxState, code: number) => {
  s.status = code;
  s.explicitStatus = true;
};
const setBody = (s: CtxState, value: unknown) => {
  s.adopted = undefined;
  s.raw = undefined;
  s.body = value;
  if (value === null || value === undefined) {
    s.explicitNullBody = true;
    if (!s.explicitStatus || (s.status !== 204 && s.status !== 205 && s.status !== 304)) {
      s.status = 204;
      s.explicitStatus = true;
    }
    return;
  }
  if (!s.explicitStatus) {
    s.status = 200;
    s.explicitStatus = true;
  }
};
const responseType = (s: CtxState) => s.headers?.get('content-type') ?? '';
const setResponseType = (s: CtxState, value: string) =>
  answerHeaders(s).set('content-type', value.includes('/') ? value : value === 'json' ? 'application/json' : value === 'html' ? 'text/html' : `text/${value}`);
const headersOut = (s: CtxState) => Object.fromEntries(s.headers?.entries() ?? []);

class ContextRequest {
  [STATE]: CtxState;
  method: string;
  body: unknown;
  files: Record<string, unknown> | undefined;
  constructor(s: CtxState) {
    this[STATE] = s;
    this.method = s.incoming.method;
    this.body = s.incoming.body;
    this.files = s.incoming.files;
  }
}
dataFields(ContextRequest.prototype, {
  url: (s) => s.incoming.url.pathname + s.incoming.url.search,
  href: (s) => s.incoming.url.href,
  path: (s) => s.incoming.url.pathname,
  querystring: (s) => s.incoming.url.search.slice(1),
  search: (s) => s.incoming.url.search,
  host: (s) => s.incoming.url.host,
  hostname: (s) => s.incoming.url.hostname,
  origin: (s) => s.incoming.url.origin,
  protocol: (s) => s.incoming.url.protocol.replace(':', ''),
  ip: (s) => s.incoming.ip,
});
readOnly(ContextRequest.prototype, {
  header: headerObject,
  headers: headerObject,
  type: (s) => (s.incoming.headers.get('content-type') ?? '').split(';')[0]!.trim(),
  length: (s) => {
    const n = s.incoming.headers.get('content-length');
    return n ? Number(n) : undefined;
  },
});
boundMethods(ContextRequest.prototype, { get: getHeader, is: isType });
Object.defineProperty(ContextRequest.prototype, 'query', {
  configurable: true,
  enumerable: true,
  get() {
    return stateOf(this).ctx.query;
  },
  set(q: Record<string, any>) {
    stateOf(this).ctx.query = q;
  },
});

class ContextResponse {
  [STATE]: CtxState;
  constructor(s: CtxState) {
    this[STATE] = s;
  }
  get status() {
    return stateOf(this).status;
  }
  set status(code: number) {
    setStatus(stateOf(this), code);
  }
  get body() {
    return stateOf(this).body;
  }
  set body(value: unknown) {
    stateOf(this).ctx.body = value;
  }
  get type() {
    return responseType(stateOf(this));
  }
  set type(value: string) {
    setResponseType(stateOf(this), value);
  }
}
readOnly(ContextResponse.prototype, {
  headers: headersOut,
  header: headersOut,
  message: (s) => statusText(s.status),
  _explicitStatus: (s) => s.explicitStatus,
});
boundMethods(ContextResponse.prototype, {
  get: (s, name: string) => s.headers?.get(name) ?? '',
  set: setHeader,
  append: appendHeader,
  remove: removeHeader,
});
for (const name of ['status', 'body', 'type']) Object.defineProperty(ContextResponse.prototype, name, { enumerable: true });

class Context {
  [STATE]: CtxState;
  request: Record<string, any>;
  response: Record<string, any>;
  state: Record<string, any> = {};
  params: Record<string, string>;
  constructor(incoming: IncomingRequest) {
    const s: CtxState = {
      incoming,
      ctx: this as unknown as ProjectContext,
      body: undefined,
      adopted: undefined,
      raw: undefined,
      status: 404,
      explicitStatus: false,
      explicitNullBody: false,
      query: undefined,
      queryTouched: false,
      headers: undefined,
    };
    this[STATE] = s;
    this.request = new ContextRequest(s) as unknown as Record<string, any>;
    this.response = new ContextResponse(s) as unknown as Record<string, any>;
    this.params = incoming.params;
  }
  get query() {
    const s = stateOf(this);
    if (!s.queryTouched) {
      s.query = s.incoming.query;
      s.queryTouched = true;
    }
    // What project code assigned, undefined included.
    return s.query as Record<string, any>;
  }
  set query(value: Record<string, any>) {
    const s = stateOf(this);
    s.queryTouched = true;
    s.query = value;
  }
  get body() {
    const s = stateOf(this);
    if (s.adopted) {
      s.body = JSON.parse(new TextDecoder().decode(s.adopted));
      s.adopted = undefined;
    }
    return s.body;
  }
  set body(value: unknown) {
    setBody(stateOf(this), value);
  }
  get status() {
    return stateOf(this).status;
  }
  set status(code: number) {
    setStatus(stateOf(this), code);
  }
  get type() {
    return responseType(stateOf(this));
  }
  set type(value: string) {
    setResponseType(stateOf(this), value);
  }
  /** `ctx.query` for Folio's core handler: undefined while no project code read or replaced it. */
  get _touchedQuery(): Record<string, any> | undefined {
    const s = stateOf(this);
    return s.queryTouched ? (s.query ?? {}) : undefined;
  }
  _bytesOf(answer: Response): Uint8Array | undefined {
    return stateOf(this).incoming.bytesOf?.(answer);
  }
  get _responseHeaders(): Headers {
    return answerHeaders(stateOf(this));
  }
  /** An adopted answer's headers (its Content-Length left out): taken as they are while the ctx has none of its own yet. */
  _adoptHeaders(headers: Headers) {
    const s = stateOf(this);
    if (s.headers === undefined) {
      try {
        headers.delete('content-length');
        s.headers = headers;
        return;
      } catch {
        // Headers that may not change (a fetched answer's): copied.
      }
    }
    const own = answerHeaders(s);
    for (const [name, value] of headers) if (name !== 'content-length') own.set(name, value);
  }
  /** The answer as adopted and still untouched: its bytes, or its stream. */
  get _untouched(): ConstructorParameters<typeof Response>[0] | undefined {
    const s = stateOf(this);
    return s.adopted ?? s.raw;
  }
  _adopt(code: number, bytes: Uint8Array | undefined, stream?: ConstructorParameters<typeof Response>[0]) {
    const s = stateOf(this);
    s.status = code;
    s.explicitStatus = true;
    s.body = undefined;
    s.adopted = bytes;
    s.raw = bytes ? undefined : (stream ?? null);
  }
}
for (const name of ['query', 'body', 'status', 'type', '_touchedQuery', '_responseHeaders', '_untouched']) {
  Object.defineProperty(Context.prototype, name, { enumerable: true });
}
readOnly(Context.prototype, {
  method: (s) => s.incoming.method,
  url: (s) => s.ctx.request.url,
  path: (s) => s.ctx.request.path,
  querystring: (s) => s.ctx.request.querystring,
  host: (s) => s.ctx.request.host,
  ip: (s) => s.incoming.ip,
  header: headerObject,
  headers: headerObject,
  _explicitStatus: (s) => s.explicitStatus,
  _explicitNullBody: (s) => s.explicitNullBody,
});
const ctxOf = (s: CtxState) => s.ctx;
boundMethods(Context.prototype, {
  get: getHeader,
  set: setHeader,
  append: appendHeader,
  remove: removeHeader,
  is: isType,
  send: (s, data: unknown, code = 200) => {
    const ctx = ctxOf(s);
    ctx.status = code;
    ctx.body = data;
  },
  created: (s, data: unknown) => {
    const ctx = ctxOf(s);
    ctx.status = 201;
    ctx.body = data;
  },
  deleted: (s, data: unknown) => {
    if (data === undefined || data === null) {
      ctxOf(s).status = 204;
      s.body = undefined;
      s.explicitNullBody = true;
    } else ctxOf(s).send(data, 200);
  },
  throw: (_s, ...args: unknown[]) => {
    const code = typeof args[0] === 'number' ? args[0] : typeof args[1] === 'number' ? args[1] : 500;
    const message = typeof args[0] === 'string' ? args[0] : typeof args[1] === 'string' ? args[1] : undefined;
    const props = args.find((a) => a && typeof a === 'object' && !(a instanceof Error)) as { details?: unknown } | undefined;
    throw new HttpError(code, message, props?.details);
  },
  assert: (s, value: unknown, ...args: unknown[]) => {
    if (!value) ctxOf(s).throw(...args);
  },
  ...Object.fromEntries(
    Object.entries(HELPERS).map(([name, code]) => [
      name,
      (s: CtxState, message?: string, details: unknown = {}) => {
        const ctx = ctxOf(s);
        ctx.status = code;
        ctx.body = errorBody(code, httpErrorName(code), message || statusText(code), details ?? {});
      },
    ]),
  ),
});

export function createContext(incoming: IncomingRequest): ProjectContext {
  return new Context(incoming) as unknown as ProjectContext;
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
