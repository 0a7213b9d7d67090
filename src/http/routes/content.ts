/**
 * The REST routes of one content type, generated from the registry:
 *   collection types  GET/POST /api/:plural, GET/PUT/DELETE /api/:plural/:documentId
 *   single types      GET/PUT/DELETE /api/:singular
 * Other methods on those paths answer 405 with an Allow header.
 */
import { Elysia } from 'elysia';
import { actionName, type ContentAction } from '../../auth/actions';
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../../errors';
import type { Instance } from '../../instance';
import { READ_PARAMETERS, WRITE_PARAMETERS, checkParameters, parseLocale, parsePagination, parseReadQuery, parseStatus } from '../../query/parse';
import type { ReadQuery } from '../../query/types';
import type { ContentType } from '../../registry/types';
import type { Written } from '../../documents/service';
import { pageMeta } from '../../query/read';
import { unstorableText } from '../../text';
import { checkRestrictedRelations } from '../../documents/relations/restricted';
import { ignoredBody, readJsonBody } from '../body';
import { writerOf, type Caller, type Guard, type PeerSource } from '../guard';
import { parseQueryString } from '../query-string';
import { bytesOf, json, jsonBytes, noContent } from '../respond';
import { grantsKey, type Principal } from '../../auth/access';
import { targetStart } from '../url';
import { toV4, wantsV4 } from '../v4';

type Raw = Record<string, unknown>;

/**
 * Refuses a query whose keys or values hold text no database column can hold or give back as
 * sent (NUL: PostgreSQL text refuses it and the query failed with a 500). One linear walk over
 * the parsed `qs` object (20 levels at most) covers filters, locale, status, sort and fields.
 */
function checkQueryText(raw: Raw) {
  const stack: [unknown, string][] = [[raw, '']];
  while (stack.length) {
    const [value, at] = stack.pop()!;
    if (typeof value === 'string') {
      const why = unstorableText(value);
      if (why) throw new ValidationError(`Invalid parameter at '${at}': ${why}`, { source: 'query', param: at });
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        const where = at ? `${at}[${key}]` : key;
        const why = unstorableText(key);
        if (why) throw new ValidationError(`Invalid parameter at '${where}': ${why}`, { source: 'query', param: where });
        stack.push([child, where]);
      }
    }
  }
}

/** The documentId of a path, refused (400, not a database error) when it cannot be stored text. */
function documentIdOf(params: unknown): string {
  const documentId = (params as { documentId: string }).documentId;
  const why = unstorableText(documentId);
  if (why) throw new ValidationError(`Invalid documentId: ${why}`, { source: 'path', param: 'documentId' });
  return documentId;
}

/**
 * With a project (src/project/), asked at request time (a reload in development swaps it): the
 * project's own route for the request's method and path answers first; then Folio serves the
 * core actions the project left plain, and the others are absent, as its routers say (a 404,
 * no 405: the project may serve other methods on these paths).
 */
/**
 * Whose grants, in which format, for which URL: everything a content answer depends on besides
 * the data (populated relations follow the grants; a user counts as her role).
 */
function answerKey(principal: Principal, request: Request): string {
  const url = request.url;
  const path = targetStart(url);
  return `${grantsKey(principal)}\n${wantsV4(request) ? 'v4' : ''}\n${path < 0 ? '/' : url.slice(path)}`;
}

export interface ProjectRouting {
  answer(request: Request): Promise<Response> | undefined;
  serves(uid: string, action: ContentAction): boolean;
  /** Where each type's core handlers are registered (`<uid>.<action>`), for project routes that end in them. */
  core: Map<string, CoreHandler>;
}

/** A core action's handler, called directly (a project route's chain ends in it). */
/** `caller`: who the project route's chain authenticated (the same request's): not authenticated again. */
export type CoreHandler = (context: { request: Request; params: Record<string, string>; server?: PeerSource; caller?: Caller }) => Response | Promise<Response>;

export function contentRoutes(instance: Instance, ct: ContentType, allow: Guard, project?: ProjectRouting) {
  const { answers } = instance.caches;
  const { documents, registry, locales, config } = instance;
  const limits = { defaultLimit: config.defaultLimit, maxLimit: config.maxLimit };

  interface Call {
    raw: Raw;
    caller: Caller;
  }

  /**
   * Authenticates, authorizes the action and parses the query string. An unknown top-level
   * parameter is a 400, or with strictParams off is left out before anything (the text check
   * included) reads it; the route's known parameters are checked the same way in both modes.
   */
  async function begin(request: Request, action: ContentAction, given?: Caller): Promise<Call> {
    const caller = await allow(request, actionName(ct, action), given);
    const known = action === 'find' || action === 'findOne' ? READ_PARAMETERS : WRITE_PARAMETERS;
    const parsed = parseQueryString(request.url);
    if (config.strictParams) checkQueryText(parsed);
    const raw = checkParameters(parsed, known, config.strictParams);
    if (!config.strictParams) checkQueryText(raw);
    return { raw, caller };
  }

  /**
   * A read's answer: the one kept since the last commit when this caller asked this URL
   * (query/answer-cache.ts), else built by `answer` and kept when it is a 200. The guard and
   * the query checks run first either way.
   */
  async function read(request: Request, action: 'find' | 'findOne', known: Caller | undefined, answer: (call: Call) => Promise<Response>): Promise<Response> {
    const call = await begin(request, action, known);
    if (!answers.enabled) return answer(call);
    const key = answerKey(call.caller.principal, request);
    const kept = await answers.lookup(key);
    if (kept.bytes) return jsonBytes(kept.bytes);
    const response = await answer(call);
    const bytes = bytesOf(response);
    if (kept.marker !== undefined && response.status === 200 && bytes) await answers.remember(key, kept.marker, bytes);
    return response;
  }

  /**
   * The read plan of a GET, reused for the same grants (a user counts as her role) and query
   * string until a settings write (query/caches.ts): a repeated read skips parsing, and the
   * query core reuses the plan's compiled statements. `_q` plans and long query strings are
   * made each time.
   */
  function planOf(request: Request, call: Call): Promise<ReadQuery> {
    const at = request.url.indexOf('?');
    const search = at < 0 ? '' : request.url.slice(at);
    if (call.raw._q !== undefined || search.length > 2048) return readQuery(call);
    return instance.caches.plan(grantsKey(call.caller.principal), ct.uid, search, () => readQuery(call));
  }

  async function readQuery({ raw, caller }: Call): Promise<ReadQuery> {
    // Only queries that reach into other types need to know which types the caller may read
    // (from the grants the guard already read: no second lookup).
    let canRead: ((uid: string) => boolean) | undefined;
    if (raw.populate !== undefined || raw.filters !== undefined || raw.sort !== undefined) {
      const readable = caller.readableTypes();
      canRead = (uid) => readable.has(uid);
    }
    return parseReadQuery(registry, ct, raw, await locales.defaultCode(), limits, canRead);
  }

  /**
   * A read through the document middlewares and read lifecycles, once one is registered
   * (documents.hooks.readsHooked), as Strapi's core controllers read through its document
   * service: the query's params, `status: 'published'` unless given, planned from what the
   * middlewares leave; neither the plan nor the answer is kept. `read` gets the params, the
   * pagination asked for and the caller's readable types.
   */
  async function hooked(
    request: Request,
    action: 'find' | 'findOne',
    known: Caller | undefined,
    read: (params: Raw, pagination: unknown, options: { canRead: (uid: string) => boolean; canReadKey: string }) => Promise<Response>,
  ): Promise<Response> {
    const { raw, caller } = await begin(request, action, known);
    const { pagination, ...params } = raw;
    const readable = caller.readableTypes();
    return read({ ...params, status: parseStatus(params.status) }, pagination, {
      canRead: (uid) => readable.has(uid),
      canReadKey: grantsKey(caller.principal),
    });
  }

  /** Write routes accept fields/populate/status/locale only, like Strapi's (begin checked the keys); the caller is the write's actor. */
  function writeOptions({ raw, caller }: Call, request: Request, server: PeerSource) {
    return {
      status: parseStatus(raw.status),
      locale: raw.locale === undefined ? undefined : parseLocale(raw.locale, '') || undefined,
      actor: writerOf(caller, request, server, config.trustProxy),
    };
  }

  /**
   * The body's `data`, refused (400 "Invalid key <attribute>", nothing written) when it names a
   * relation whose target the caller may not find, as Strapi's content API refuses it.
   */
  async function bodyData(request: Request, { caller }: Call): Promise<Raw> {
    const body = (await readJsonBody(request, config.bodyLimit)) as Raw | undefined;
    const data = body && typeof body === 'object' && !Array.isArray(body) ? body.data : undefined;
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      // JSON sent without its Content-Type (curl -d says application/x-www-form-urlencoded): say so.
      const ignored = ignoredBody(request);
      const hint = ignored?.looksLikeJson
        ? ` (the body looks like JSON but was sent as ${ignored.type}: add the header Content-Type: application/json, e.g. curl -H 'Content-Type: application/json' -d '{"data":{…}}')`
        : '';
      throw new ValidationError(`Missing "data" payload in the request body${hint}`);
    }
    checkRestrictedRelations(registry, ct, data as Raw, (uid) => caller.can(`${uid}.find`));
    return data as Raw;
  }

  /**
   * The request's fields/populate as a read query. Parsed before the write, so a bad one is
   * refused while nothing has been written yet (a 400 must leave nothing behind).
   */
  const responseQuery = ({ raw, caller }: Call) => readQuery({ raw: { fields: raw.fields, populate: raw.populate }, caller });

  /** Reads back the version a write produced, shaped by `query` (from responseQuery). */
  async function respondWith(request: Request, written: Written, query: ReadQuery, status: number) {
    query.status = written.status;
    if (ct.localized) query.locale = written.locale;
    const doc = await documents.answer(ct, written, query);
    return respond(request, doc, {}, status);
  }

  /** `{ data, meta }`, in the v4 shape when the client asks for it. */
  const respond = (request: Request, data: Record<string, unknown> | Record<string, unknown>[] | null, meta: unknown, status = 200) =>
    json({ data: wantsV4(request) ? toV4(registry, ct, data) : data, meta }, status);

  const app = new Elysia({ name: `content:${ct.uid}` });
  const notAllowed =
    (allow: string[]) =>
    ({ request }: { request: Request }) => {
      const answered = project?.answer(request);
      if (answered) return answered;
      if (project) throw new NotFoundError();
      throw new MethodNotAllowedError(['HEAD', ...allow]);
    };
  /** A core action's handler, behind the project's routes when there is a project. */
  type Handler = CoreHandler;
  // Over HTTP the handler authenticates the request itself: only a project route's chain
  // (project.core) hands it a caller, never what the router's context happens to carry.
  const serve = (action: ContentAction, handler: Handler): Handler => {
    if (!project) return ({ request, params, server }) => handler({ request, params, server });
    project.core.set(`${ct.uid}.${action}`, handler);
    return ({ request, params, server }) => {
      const answered = project.answer(request);
      if (answered) return answered;
      if (!project.serves(ct.uid, action)) throw new NotFoundError();
      return handler({ request, params, server });
    };
  };

  if (ct.kind === 'collectionType') {
    const base = `/api/${ct.pluralName}`;
    const one = `${base}/:documentId`;
    app.get(
      base,
      serve('find', ({ request, caller }) => {
        if (documents.hooks.readsHooked(ct)) {
          return hooked(request, 'find', caller, async (params, raw, options) => {
            const page = parsePagination(raw, limits);
            const data = await documents.reads.findMany(ct, { ...params, start: page.start, limit: page.limit }, options);
            const total = page.withCount ? await documents.reads.count(ct, params, options) : undefined;
            return respond(request, data, { pagination: pageMeta(page, total) });
          });
        }
        return read(request, 'find', caller, async (call) => {
          const { data, pagination } = await documents.findMany(ct, await planOf(request, call));
          return respond(request, data, { pagination });
        });
      }),
    );
    app.post(
      base,
      serve('create', async ({ request, server, caller }) => {
        const call = await begin(request, 'create', caller);
        const options = writeOptions(call, request, server);
        const query = await responseQuery(call);
        const written = await documents.create(ct, await bodyData(request, call), options);
        return respondWith(request, written, query, 201);
      }),
      { parse: 'none' },
    );
    app.get(
      one,
      serve('findOne', ({ request, params, caller }) => {
        if (documents.hooks.readsHooked(ct)) {
          return hooked(request, 'findOne', caller, async (query, _, options) => {
            const doc = await documents.reads.findOne(ct, { ...query, documentId: documentIdOf(params) }, options);
            if (!doc) throw new NotFoundError();
            return respond(request, doc, {});
          });
        }
        return read(request, 'findOne', caller, async (call) => {
          const doc = await documents.findOne(ct, documentIdOf(params), await planOf(request, call));
          if (!doc) throw new NotFoundError();
          return respond(request, doc, {});
        });
      }),
    );
    app.put(
      one,
      serve('update', async ({ request, params, server, caller }) => {
        const call = await begin(request, 'update', caller);
        const options = writeOptions(call, request, server);
        const query = await responseQuery(call);
        const written = await documents.update(ct, documentIdOf(params), await bodyData(request, call), options);
        if (!written) throw new NotFoundError();
        return respondWith(request, written, query, 200);
      }),
      { parse: 'none' },
    );
    app.delete(
      one,
      serve('delete', async ({ request, params, server, caller }) => {
        const { locale, actor } = writeOptions(await begin(request, 'delete', caller), request, server);
        await documents.delete(ct, documentIdOf(params), { locale, actor });
        return noContent();
      }),
    );
    app.all(base, notAllowed(['GET', 'POST'])).all(one, notAllowed(['GET', 'PUT', 'DELETE']));
  } else {
    const base = `/api/${ct.singularName}`;
    app.get(
      base,
      serve('find', ({ request, caller }) => {
        if (documents.hooks.readsHooked(ct)) {
          return hooked(request, 'find', caller, async (params, _, options) => {
            const doc = await documents.reads.findFirst(ct, params, options);
            if (!doc) throw new NotFoundError();
            return respond(request, doc, {});
          });
        }
        return read(request, 'find', caller, async (call) => {
          const doc = await documents.findOne(ct, undefined, await planOf(request, call));
          if (!doc) throw new NotFoundError();
          return respond(request, doc, {});
        });
      }),
    );
    app.put(
      base,
      serve('update', async ({ request, server, caller }) => {
        const call = await begin(request, 'update', caller);
        const options = writeOptions(call, request, server);
        const query = await responseQuery(call);
        const written = await documents.upsertSingle(ct, await bodyData(request, call), options);
        return respondWith(request, written, query, 200);
      }),
      { parse: 'none' },
    );
    app.delete(
      base,
      serve('delete', async ({ request, server, caller }) => {
        const { locale, actor } = writeOptions(await begin(request, 'delete', caller), request, server);
        const documentId = await documents.singleDocumentId(ct);
        if (documentId) await documents.delete(ct, documentId, { locale, actor });
        return noContent();
      }),
    );
    app.all(base, notAllowed(['GET', 'PUT', 'DELETE']));
  }
  return app;
}
