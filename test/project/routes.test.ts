/**
 * A project's own code answers requests as on Strapi 5: src/index register/bootstrap, core
 * controllers extended with super.find(ctx), custom routes and actions (grantable like core
 * ones), policies (short, api::, global:: names, { name, config }), route and global
 * middlewares, the Koa ctx and its helpers, @strapi/utils errors with Strapi's envelopes,
 * lifecycles files, types without a router having no routes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { knownActions } from '../../src/auth/actions';
import { loadFile } from '../../src/project/module-host';
import { copyProject } from '../helpers/project';
import { startServer, type TestServer } from '../helpers/server';
import { cliOutput, removeTempDirs, runCli, tempDir } from '../helpers/spawn';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ contentTypes: copyProject('blog-js') });
});
afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

describe('the app lifecycle', () => {
  test('register and bootstrap ran before serving: bootstrap seeded a published tag through strapi.documents', async () => {
    const tags = await server.call('GET', '/api/tags');
    expect(tags.status).toBe(200);
    expect(tags.body.data.map((t: { name: string }) => t.name)).toEqual(['seeded']);
    expect(server.instance.project!.strapi.config.get('blog.registeredAt')).toBe('register');
  });
});

describe('routes, controllers and services', () => {
  test("a core create through the project's controller refuses a relation to a type the caller may not find, as Strapi's validateInput does, and writes nothing", async () => {
    // Authors have no router in this project: the document service makes one.
    const author = await server.instance.documents.create(server.instance.registry.contentType('api::author.author')!, { name: 'Restricted' });
    const before = (await server.call('GET', '/api/articles?pagination[withCount]=true')).body.meta.pagination.total;
    await server.instance.roles.revoke('public', ['api::author.author.find']);
    try {
      const refused = await server.call('POST', '/api/articles', { body: { data: { title: 'Linked', author: author.documentId } } });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key author' });
      expect((await server.call('GET', '/api/articles?pagination[withCount]=true')).body.meta.pagination.total).toBe(before);
    } finally {
      await server.instance.roles.grant('public', ['api::author.author.find']);
    }
  });

  test('a core action extended with super.find(ctx) answers the core answer plus its own meta, through the global middleware', async () => {
    const created = await server.call('POST', '/api/articles', { body: { data: { title: 'Hello World' } } });
    expect(created.status).toBe(201);
    // The lifecycles file filled the slug.
    expect(created.body.data.slug).toBe('hello-world');
    const list = await server.call('GET', '/api/articles');
    expect(list.status).toBe(200);
    expect(list.headers.get('x-stamp')).toBe('blog-js');
    expect(list.body.meta).toEqual({ pagination: { page: 1, pageSize: 7, pageCount: 1, total: 1 }, blog: "Folio's blog" });
    expect(list.body.data[0].title).toBe('Hello World');
  });

  test('a custom action is a permission: 403 until granted, then its controller answers', async () => {
    expect((await server.call('GET', '/api/articles/slug/hello-world')).status).toBe(403);
    expect(knownActions(server.instance.registry)).toContain('api::article.article.findBySlug');
    await server.instance.roles.grant('public', ['api::article.article.findBySlug']);
    const found = await server.call('GET', '/api/articles/slug/hello-world');
    expect(found.status).toBe(200);
    expect(found.body.data.title).toBe('Hello World');
    const missing = await server.call('GET', '/api/articles/slug/nothing');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      data: null,
      error: { status: 404, name: 'NotFoundError', message: 'No article with that slug', details: { slug: 'nothing' } },
    });
  });

  test('a policy that answers false is a 403 PolicyError; a global policy with config throws its own PolicyError', async () => {
    expect((await server.call('GET', '/api/articles/slug/secret-plan')).body).toEqual({
      data: null,
      error: { status: 403, name: 'PolicyError', message: 'Policy Failed', details: {} },
    });
    const echo = await server.call('POST', '/api/echo', { body: { a: 1 }, headers: { 'x-deny-echo': '1' } });
    expect(echo.body).toEqual({ data: null, error: { status: 403, name: 'PolicyError', message: 'Denied by header', details: { header: 'x-deny-echo' } } });
  });

  test('auth: false routes need no grant; the ctx reads query, body, headers and sets status and headers', async () => {
    const ping = await server.call('GET', '/api/ping?filters[a]=1');
    expect(ping.status).toBe(200);
    expect(ping.headers.get('x-ping')).toBe('pong');
    expect(ping.body).toEqual({ pong: true, user: null, query: { filters: { a: '1' } } });
    const echo = await server.call('POST', '/api/echo', { body: { a: 1 }, headers: { 'x-echo': 'yes' } });
    expect(echo.status).toBe(202);
    expect(echo.body).toEqual({ body: { a: 1 }, type: 'json', header: 'yes' });
  });

  test('a route middleware runs around its core action', async () => {
    const [article] = (await server.call('GET', '/api/articles')).body.data;
    const one = await server.call('GET', `/api/articles/${article.documentId}`);
    expect(one.status).toBe(200);
    expect(one.headers.get('x-article-middleware')).toBe('after');
  });

  test("a route middleware's core action answers as the caller the chain authenticated: 401 for a bad credential, 403 without the action, the token's readable types for populate", async () => {
    const tag = (await server.call('POST', '/api/tags', { body: { data: { name: 'chained' } } })).body.data;
    const article = (await server.call('POST', '/api/articles', { body: { data: { title: 'Chained', tags: [tag.documentId] } } })).body.data;
    const path = `/api/articles/${article.documentId}`;
    const as = (key: string, query = '') => server.call('GET', `${path}${query}`, { headers: { authorization: `Bearer ${key}` } });
    expect((await as('not-a-key')).status).toBe(401);
    const findOnly = await server.instance.tokens.create('find-only', 'custom', undefined, undefined, ['api::article.article.find']);
    const refused = await as(findOnly.accessKey);
    expect(refused.status).toBe(403);
    expect(refused.body.error.name).toBe('ForbiddenError');
    // findOne on articles, nothing on tags: populate may not reach them (Folio's own rule for this token).
    const articlesOnly = await server.instance.tokens.create('articles-only', 'custom', undefined, undefined, ['api::article.article.findOne']);
    const own = await as(articlesOnly.accessKey, '?populate=tags');
    const full = await as(server.tokens.fullAccess, '?populate=tags');
    expect(full.status).toBe(200);
    expect(full.body.data).toHaveProperty('tags');
    expect(full.headers.get('x-article-middleware')).toBe('after');
    expect(own.status).toBe(200);
    expect(own.body.data.documentId).toBe(article.documentId);
    expect(own.body.data).not.toHaveProperty('tags');
  });

  test('a type without a router has no routes, as in Strapi', async () => {
    expect((await server.call('GET', '/api/authors')).status).toBe(404);
  });
});

describe('errors as Strapi answers them', () => {
  const cases: [string, number, unknown][] = [
    ['application', 400, { status: 400, name: 'ApplicationError', message: 'Something went wrong', details: { why: 'test' } }],
    ['validation', 400, { status: 400, name: 'ValidationError', message: 'Bad title', details: { errors: [{ path: ['title'], message: 'Bad title' }] } }],
    ['notfound', 404, { status: 404, name: 'NotFoundError', message: 'Nothing here', details: {} }],
    ['forbidden', 403, { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} }],
    ['unauthorized', 401, { status: 401, name: 'UnauthorizedError', message: 'Unauthorized', details: {} }],
    ['policy', 403, { status: 403, name: 'PolicyError', message: 'Custom policy says no', details: { policy: 'x' } }],
    ['pagination', 400, { status: 400, name: 'PaginationError', message: 'Bad page', details: {} }],
    ['teapot', 418, { status: 418, name: 'ImATeapotError', message: 'I am a teapot' }],
    ['badrequest', 400, { status: 400, name: 'BadRequestError', message: 'Nope', details: { field: 'x' } }],
    ['conflict', 409, { status: 409, name: 'ConflictError', message: 'Already there', details: {} }],
    ['plain', 500, { status: 500, name: 'InternalServerError', message: 'Internal Server Error' }],
  ];
  for (const [kind, status, error] of cases) {
    test(`${kind}: ${status} ${(error as { name: string }).name}`, async () => {
      const answer = await server.call('GET', `/api/fail/${kind}`);
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({ data: null, error });
      expect(JSON.stringify(answer.body)).not.toContain('secret internals');
    });
  }

  test('ctx helpers set the answer (the global middleware still runs after them); thrown errors pass it by', async () => {
    expect((await server.call('GET', '/api/fail/conflict')).headers.get('x-stamp')).toBe('blog-js');
    expect((await server.call('GET', '/api/fail/forbidden')).headers.get('x-stamp')).toBe('blog-js');
    expect((await server.call('GET', '/api/fail/application')).headers.get('x-stamp')).toBeNull();
  });
});

describe("global middlewares wrap the whole server, as Strapi's wrap its app", () => {
  test("Folio's own routes and unknown paths pass through them; an error Strapi throws passes by them; Folio Admin does not", async () => {
    // Answers checked on a copy of the Strapi peer with the same global middleware.
    const stamp = async (method: string, path: string, body?: unknown) =>
      (await server.call(method, path, body === undefined ? {} : { body })).headers.get('x-stamp');
    expect(await stamp('GET', '/api/tags')).toBe('blog-js');
    expect(await stamp('GET', '/api/upload/files')).toBe('blog-js');
    expect(await stamp('GET', '/api/nope')).toBe('blog-js');
    expect(await stamp('POST', '/graphql', {})).toBe('blog-js');
    expect(await stamp('GET', '/api/users/me')).toBe('blog-js');
    expect(await stamp('POST', '/api/auth/local', {})).toBeNull();
    expect(await stamp('GET', '/admin')).toBeNull();
    // The answer itself passes through unchanged.
    const files = await server.call('GET', '/api/upload/files', { headers: { authorization: `Bearer ${server.tokens.fullAccess}` } });
    expect(files.status).toBe(200);
    expect(files.body).toEqual([]);
  });
});

describe("a route middleware on a core action (LaunchPad's populate middleware)", () => {
  test('what it sets on ctx.query before next() shapes the answer, and what it changes in ctx.body after is answered', async () => {
    const root = copyProject('blog-js', {
      'src/api/tag/routes/tag.js': [
        "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::tag.tag', {",
        "  config: { find: { middlewares: ['api::tag.tag-populate'] } },",
        '});',
        '',
      ].join('\n'),
      'src/api/tag/middlewares/tag-populate.js': [
        'module.exports = () => async (ctx, next) => {',
        "  ctx.query.populate = { articles: { fields: ['title'] } };",
        "  ctx.query.fields = ['name'];",
        '  await next();',
        '  ctx.body.meta.populatedBy = "middleware";',
        '};',
        '',
      ].join('\n'),
    });
    const own = await startServer({ contentTypes: root });
    try {
      const article = await own.call('POST', '/api/articles', { body: { data: { title: 'Tagged' } } });
      await own.call('PUT', `/api/tags/${(await own.call('GET', '/api/tags')).body.data[0].documentId}`, {
        body: { data: { articles: [article.body.data.documentId] } },
      });
      const list = await own.call('GET', '/api/tags');
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([
        {
          id: expect.any(Number),
          documentId: expect.any(String),
          name: 'seeded',
          articles: [{ id: expect.any(Number), documentId: article.body.data.documentId, title: 'Tagged' }],
        },
      ]);
      expect(list.body.meta.populatedBy).toBe('middleware');
      expect(list.headers.get('x-stamp')).toBe('blog-js');
    } finally {
      await own.stop();
    }
  }, 30_000); // a second server of its own: on PostgreSQL under load, more than the default 5 s
});

describe('what a route middleware leaves of the request and the answer of a core action', () => {
  test('a ctx.query replaced, or changed through ctx.request.query, before next() is the query the core action answers; one only read answers as sent', async () => {
    const root = copyProject('blog-js', {
      'src/api/tag/routes/tag.js': [
        "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::tag.tag', {",
        "  config: { find: { middlewares: ['api::tag.replace-query'] }, findOne: { middlewares: ['api::tag.request-query'] } },",
        '});',
        '',
      ].join('\n'),
      'src/api/tag/middlewares/replace-query.js': [
        'module.exports = () => async (ctx, next) => {',
        "  if (ctx.get('x-replace') === 'yes') ctx.query = { ...ctx.query, fields: ['name'], sort: 'name:desc' };",
        "  else ctx.set('x-seen-query', JSON.stringify(ctx.query));",
        '  await next();',
        '};',
        '',
      ].join('\n'),
      'src/api/tag/middlewares/request-query.js': [
        'module.exports = () => async (ctx, next) => {',
        "  ctx.request.query.fields = ['name'];",
        '  await next();',
        '};',
        '',
      ].join('\n'),
    });
    const own = await startServer({ contentTypes: root });
    try {
      for (const name of ['alpha', 'beta']) expect((await own.call('POST', '/api/tags', { body: { data: { name } } })).status).toBe(201);
      const replaced = await own.call('GET', '/api/tags?sort=name:asc', { headers: { 'x-replace': 'yes' } });
      expect(replaced.status).toBe(200);
      expect(replaced.body.data.map((t: { name: string }) => t.name)).toEqual(['seeded', 'beta', 'alpha']);
      expect(Object.keys(replaced.body.data[0]).sort()).toEqual(['documentId', 'id', 'name']);
      // Read and left as it was: the query string as sent (its sort, every field).
      const read = await own.call('GET', '/api/tags?sort=name:asc&pagination[pageSize]=2');
      expect(JSON.parse(read.headers.get('x-seen-query')!)).toEqual({ sort: 'name:asc', pagination: { pageSize: '2' } });
      expect(read.body.data.map((t: { name: string }) => t.name)).toEqual(['alpha', 'beta']);
      expect(read.body.data[0]).toHaveProperty('createdAt');
      expect(read.body.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 3 });
      const one = await own.call('GET', `/api/tags/${read.body.data[0].documentId}`);
      expect(one.status).toBe(200);
      expect(one.body.data).toEqual({ id: read.body.data[0].id, documentId: read.body.data[0].documentId, name: 'alpha' });
    } finally {
      await own.stop();
    }
  }, 30_000);

  test("the ctx's request and response fields, methods taken off it and fields assigned answer as Koa's ctx does", async () => {
    const root = copyProject('blog-js', {
      'src/api/tag/routes/01-shape.js':
        "module.exports = { routes: [{ method: 'POST', path: '/shape/:id', handler: 'shape.read', config: { auth: false } }] };\n",
      'src/api/tag/controllers/shape.js': [
        'module.exports = {',
        '  async read(ctx) {',
        '    const { set, get, badRequest } = ctx;',
        '    const { get: requestGet, is } = ctx.request;',
        "    set('x-detached', get('x-in'));",
        '    const before = { url: ctx.url, requestUrl: ctx.request.url };',
        "    ctx.request.url = '/rewritten';",
        "    if (ctx.query.fail) return badRequest('Detached', { a: 1 });",
        "    ctx.response.type = 'json';",
        '    ctx.status = 201;',
        '    ctx.body = {',
        '      before, after: { url: ctx.url, requestUrl: ctx.request.url },',
        '      method: ctx.method, path: ctx.path, querystring: ctx.querystring, search: ctx.request.search,',
        "      href: ctx.request.href.endsWith('/api/shape/7?a=1&b[c]=2'), origin: ctx.request.origin === ctx.request.protocol + '://' + ctx.request.host,",
        '      protocol: ctx.request.protocol, hostname: ctx.request.hostname === ctx.host.split(":")[0], ip: typeof ctx.ip, params: ctx.params, query: ctx.query,',
        "      header: ctx.header['x-in'], headers: ctx.request.headers['x-in'], requestGet: requestGet('X-In'), referer: ctx.get('referrer'),",
        "      is: is('json'), type: ctx.request.type, length: ctx.request.length, body: ctx.request.body, files: ctx.request.files ?? null,",
        "      responseType: ctx.response.type, status: ctx.response.status, out: ctx.response.get('x-detached'),",
        "      own: ['request', 'response', 'state', 'params'].every((k) => Object.prototype.propertyIsEnumerable.call(ctx, k)),",
        '    };',
        '  },',
        '};',
        '',
      ].join('\n'),
    });
    const own = await startServer({ contentTypes: root });
    try {
      const headers = { 'x-in': 'inbound', referer: 'http://example.test/page' };
      const answer = await own.call('POST', '/api/shape/7?a=1&b[c]=2', { body: { hello: 'world' }, headers });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('x-detached')).toBe('inbound');
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.body).toEqual({
        before: { url: '/api/shape/7?a=1&b[c]=2', requestUrl: '/api/shape/7?a=1&b[c]=2' },
        after: { url: '/rewritten', requestUrl: '/rewritten' },
        method: 'POST',
        path: '/api/shape/7',
        querystring: 'a=1&b[c]=2',
        search: '?a=1&b[c]=2',
        href: true,
        origin: true,
        protocol: 'http',
        hostname: true,
        ip: 'string',
        params: { id: '7' },
        query: { a: '1', b: { c: '2' } },
        header: 'inbound',
        headers: 'inbound',
        requestGet: 'inbound',
        referer: 'http://example.test/page',
        is: 'json',
        type: 'application/json',
        length: 17,
        body: { hello: 'world' },
        files: null,
        responseType: 'application/json',
        status: 201,
        out: 'inbound',
        own: true,
      });
      const refused = await own.call('POST', '/api/shape/7?fail=1', { body: {} });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message: 'Detached', details: { a: 1 } } });
    } finally {
      await own.stop();
    }
  }, 30_000);

  test('a query string with more parameters than allowed is refused (400) before any policy or middleware runs, on routes ending in the core action too', async () => {
    const created = await server.call('POST', '/api/articles', { body: { data: { title: 'Many parameters' } } });
    const many = Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&');
    // delete carries the deny-header policy: with the header it refuses (403) once it runs.
    const refused = await server.call('DELETE', `/api/articles/${created.body.data.documentId}?${many}`, { headers: { 'x-deny': '1' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.name).toBe('ValidationError');
    expect((await server.call('DELETE', `/api/articles/${created.body.data.documentId}`, { headers: { 'x-deny': '1' } })).status).toBe(403);
    const read = await server.call('GET', `/api/articles/${created.body.data.documentId}?${many}`);
    expect(read.status).toBe(400);
    expect(read.headers.get('x-article-middleware')).toBeNull();
  });

  test("a middleware that only sets a header answers the core action's own bytes, status and content type, and its header", async () => {
    const created = await server.call('POST', '/api/articles', { body: { data: { title: 'Header only' } } });
    const id = created.body.data.documentId;
    const hooked = await fetch(`${server.url}/api/articles/${id}`);
    expect(hooked.status).toBe(200);
    expect(hooked.headers.get('x-article-middleware')).toBe('after');
    expect(hooked.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await hooked.text();
    expect(hooked.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    // The same document through Folio's plain find route, serialized alike.
    const listed = await server.call('GET', `/api/articles?filters[documentId][$eq]=${id}`);
    expect(JSON.parse(text)).toEqual({ data: listed.body.data[0], meta: {} });
    // A second request, answered from the kept answer: the same bytes.
    expect(await (await fetch(`${server.url}/api/articles/${id}`)).text()).toBe(text);
  });
});

describe('loading project code', () => {
  test('an unknown import names the package and the importing file', () => {
    const root = copyProject('blog-js', { 'src/api/article/services/broken.js': "require('left-pad-not-installed');\n" });
    expect(() => loadFile(`${root}/src/api/article/services/broken.js`, root)).toThrow(
      /Could not load src\/api\/article\/services\/broken\.js .*unknown import "left-pad-not-installed"/,
    );
  });

  test('folio permissions grant takes a custom action of the project', () => {
    const root = copyProject('blog-js');
    const data = tempDir();
    cliOutput(['permissions', 'grant', 'public', 'api::article.article.findBySlug'], { contentTypes: root, data });
    expect(cliOutput(['permissions', 'list', 'public'], { contentTypes: root, data })).toContain('api::article.article.findBySlug');
    const unknown = runCli(['permissions', 'grant', 'public', 'api::article.article.nope'], { contentTypes: root, data });
    expect(unknown.code).not.toBe(0);
  });
});
