/**
 * The paths that are not content types: health, this document, locales, realtime, the
 * users & permissions plugin (auth, users, roles) and the upload plugin. Their answers are
 * the plugins' own bare shapes (no `{ data }`), as Strapi's; errors use the envelope.
 */
import { json, operation, ref, responseRef, type Schema } from './schemas';

const query = (name: string, schema: Schema, description: string) => ({ name, in: 'query', required: false, schema, description });
const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
const ok = (description: string, schema: Schema) => ({ '200': { description, content: json(schema) } });
const body = (properties: Record<string, Schema>, required: string[]) => ({
  required: true,
  content: json({ type: 'object', additionalProperties: false, required, properties }),
});
const string = { type: 'string' };

/** Top-level paging of the plugins' lists (`start`/`limit` or `page`/`pageSize`), beside filters, sort and fields. */
const pluginListParameters = [
  {
    name: 'filters',
    in: 'query',
    required: false,
    style: 'deepObject',
    explode: true,
    schema: { type: 'object', additionalProperties: true },
    description: 'As on content types',
  },
  query('sort', { anyOf: [string, { type: 'array', items: string }] }, 'As on content types'),
  query('fields', { type: 'array', items: string }, 'As on content types'),
  ...['start', 'limit', 'page', 'pageSize'].map((name) => query(name, { type: 'integer' }, 'Paging (every entry without it)')),
];
const populateRole = query('populate', { anyOf: [string, { type: 'array', items: string }, { type: 'object' }] }, '`role` (or `*`) adds the role');

function health() {
  const op = (summary: string) =>
    operation(
      { tags: ['System'], summary, security: [{}], responses: { '204': { description: 'The database answers' }, '503': responseRef('ServiceUnavailable') } },
      ['500'],
    );
  return { get: { ...op('Health check'), operationId: 'health.get' }, head: { ...op('Health check without body'), operationId: 'health.head' } };
}

function auth(): Schema {
  const tags = ['Auth'];
  const jwt = ok('A JWT and the user', ref('AuthResponse'));
  const password = { type: 'string', maxLength: 256 };
  const post = (operationId: string, summary: string, requestBody: Schema, responses: Schema, security: Schema[] = [{}]) => ({
    post: operation({ tags, operationId, summary, security, requestBody, responses }),
  });
  return {
    '/api/auth/local': post(
      'auth.callback',
      'Log in with a username or email and a password',
      body({ identifier: string, password }, ['identifier', 'password']),
      jwt,
    ),
    '/api/auth/local/register': post(
      'auth.register',
      'Create an account (FOLIO_ALLOW_REGISTER)',
      body({ username: string, email: { type: 'string', format: 'email' }, password }, ['username', 'email', 'password']),
      jwt,
    ),
    '/api/auth/change-password': post(
      'auth.changePassword',
      'Change the password of the logged-in user; the answer carries a new JWT (earlier ones stop working)',
      body({ currentPassword: password, password, passwordConfirmation: password }, ['currentPassword', 'password', 'passwordConfirmation']),
      jwt,
      [{ bearer: [] }],
    ),
    '/api/auth/forgot-password': post(
      'auth.forgotPassword',
      'Email a reset code (the same answer whether or not the address exists)',
      body({ email: string }, ['email']),
      ok('Accepted', ref('Ok')),
    ),
    '/api/auth/reset-password': post(
      'auth.resetPassword',
      'Set a new password with the emailed code',
      body({ code: string, password, passwordConfirmation: password }, ['code', 'password', 'passwordConfirmation']),
      jwt,
    ),
    '/api/auth/send-email-confirmation': post(
      'auth.sendEmailConfirmation',
      'Email a new confirmation link (the same answer whether or not the address exists)',
      body({ email: string }, ['email']),
      ok('Accepted', { type: 'object', required: ['email', 'sent'], properties: { email: string, sent: { type: 'boolean' } } }),
    ),
    '/api/auth/email-confirmation': {
      get: operation({
        tags,
        operationId: 'auth.emailConfirmation',
        summary: "Confirm an account with the mailed link's code, then redirect to the confirmation page",
        security: [{}],
        parameters: [{ name: 'confirmation', in: 'query', required: true, schema: string }],
        responses: { '302': { description: 'Confirmed: redirected to email_confirmation_redirection' } },
      }),
    },
    '/api/auth/refresh': post(
      'auth.refresh',
      'Exchange a refresh token for a new access JWT and refresh token (jwtManagement: refresh)',
      { required: false, content: json({ type: 'object', properties: { refreshToken: string } }) },
      ok('New tokens', { type: 'object', required: ['jwt'], properties: { jwt: string, refreshToken: string } }),
    ),
    '/api/auth/logout': post(
      'auth.logout',
      'End the current session, one device, or every session (jwtManagement: refresh)',
      { required: false, content: json({ type: 'object', properties: { scope: string, deviceId: string, refreshToken: string } }) },
      ok('Done', ref('Ok')),
      [{ bearer: [] }],
    ),
    '/api/auth/sessions': {
      get: operation({
        tags,
        operationId: 'auth.getSessions',
        summary: "The logged-in user's sessions (jwtManagement: refresh)",
        security: [{ bearer: [] }],
        responses: ok('The sessions', { type: 'object', properties: { data: { type: 'array', items: { type: 'object' } } } }),
      }),
    },
    '/api/auth/sessions/{id}': {
      delete: operation({
        tags,
        operationId: 'auth.revokeSession',
        summary: "End one of the logged-in user's sessions (jwtManagement: refresh)",
        security: [{ bearer: [] }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: string }],
        responses: ok('Done', { type: 'object', properties: { data: { type: 'object' } } }),
      }),
    },
    '/api/connect/{provider}': {
      get: operation({
        tags,
        operationId: 'auth.connect',
        summary: 'Start signing in with a provider: redirect to it with its key, scope and callback',
        security: [{}],
        parameters: [provider],
        responses: { '302': { description: "Redirected to the provider's sign-in page" } },
      }),
    },
    '/api/connect/{provider}/callback': {
      get: operation({
        tags,
        operationId: 'auth.connectCallback',
        summary: "The provider's callback: keeps its answer in the session and redirects to the front end's callback URL",
        security: [{}],
        parameters: [provider],
        responses: { '302': { description: "Redirected to the provider's callback URL" } },
      }),
    },
    '/api/auth/{provider}/callback': {
      get: operation({
        tags,
        operationId: 'auth.callbackProvider',
        summary: 'Finish signing in with a provider (with the session cookie): a JWT and the user, created when new',
        security: [{}],
        parameters: [provider],
        responses: jwt,
      }),
    },
  };
}

const provider = { name: 'provider', in: 'path', required: true, schema: { type: 'string' }, description: 'A built-in provider: github, google, keycloak…' };

function users(): Schema {
  const tags = ['Users'];
  const user = (description: string) => ok(description, ref('User'));
  const input = { required: true, content: json(ref('UserInput')) };
  return {
    '/api/users/me': {
      get: operation({
        tags,
        operationId: 'user.me',
        summary: 'The logged-in user',
        security: [{ bearer: [] }],
        parameters: [populateRole],
        responses: user('The user'),
      }),
    },
    '/api/users/count': { get: operation({ tags, operationId: 'user.count', summary: 'Number of users', responses: ok('The count', { type: 'integer' }) }) },
    '/api/users': {
      get: operation({
        tags,
        operationId: 'user.find',
        summary: 'List users',
        parameters: [...pluginListParameters, populateRole],
        responses: ok('The users', { type: 'array', items: ref('User') }),
      }),
      post: operation({
        tags,
        operationId: 'user.create',
        summary: 'Create a user',
        requestBody: input,
        responses: { '201': { description: 'The user', content: json(ref('User')) } },
      }),
    },
    '/api/users/{id}': {
      get: operation({ tags, operationId: 'user.findOne', summary: 'Get a user', parameters: [id, populateRole], responses: user('The user') }),
      put: operation({
        tags,
        operationId: 'user.update',
        summary: 'Update a user (a user JWT: its own account, profile fields only)',
        parameters: [id],
        requestBody: input,
        responses: user('The user'),
      }),
      delete: operation({
        tags,
        operationId: 'user.destroy',
        summary: 'Delete a user (a user JWT: its own account only)',
        parameters: [id],
        responses: user('The deleted user'),
      }),
    },
  };
}

function roles(): Schema {
  const tags = ['Roles'];
  const role = { allOf: [ref('Role'), { type: 'object', properties: { nb_users: { type: 'integer' }, permissions: { type: 'object' } } }] };
  const input = { required: true, content: json(ref('RoleInput')) };
  const done = ok('Done', ref('Ok'));
  return {
    '/api/users-permissions/roles': {
      get: operation({
        tags,
        operationId: 'role.find',
        summary: 'List roles',
        responses: ok('The roles', { type: 'object', required: ['roles'], properties: { roles: { type: 'array', items: role } } }),
      }),
      post: operation({ tags, operationId: 'role.createRole', summary: 'Create a role', requestBody: input, responses: done }),
    },
    '/api/users-permissions/roles/{id}': {
      get: operation({
        tags,
        operationId: 'role.findOne',
        summary: 'A role with its permission tree',
        parameters: [id],
        responses: ok('The role', { type: 'object', required: ['role'], properties: { role } }),
      }),
      put: operation({ tags, operationId: 'role.updateRole', summary: 'Update a role', parameters: [id], requestBody: input, responses: done }),
      delete: operation({ tags, operationId: 'role.deleteRole', summary: 'Delete a role', parameters: [id], responses: done }),
    },
    '/api/users-permissions/permissions': {
      get: operation({
        tags,
        operationId: 'permissions.getPermissions',
        summary: 'The tree of every action',
        responses: ok('The tree', { type: 'object', properties: { permissions: { type: 'object' } } }),
      }),
    },
  };
}

function upload(): Schema {
  const tags = ['Upload'];
  const file = (description: string) => ok(description, ref('UploadFile'));
  const fileId = { name: 'id', in: 'path', required: true, schema: string, description: 'The file id (or documentId)' };
  const multipart = {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: {
            files: { type: 'array', items: { type: 'string', format: 'binary' } },
            fileInfo: { type: 'string', description: 'JSON: { name, alternativeText, caption } or a list of them, one per file' },
            ref: { type: 'string', description: 'Attach to an entry: its content-type uid (api::article.article)' },
            refId: { type: 'string', description: "The entry's documentId (or row id)" },
            field: { type: 'string', description: 'The media attribute' },
            locale: { type: 'string' },
          },
        },
      },
    },
  };
  return {
    '/api/upload': {
      post: operation({
        tags,
        operationId: 'upload.upload',
        summary: "Upload files (201, a list), or with ?id= update one file's info or replace it (200, the file)",
        parameters: [query('id', string, 'The file to update or replace')],
        requestBody: multipart,
        responses: {
          ...file('The updated file (with ?id=)'),
          '201': { description: 'The stored files', content: json({ type: 'array', items: ref('UploadFile') }) },
        },
      }),
    },
    '/api/upload/files': {
      get: operation({
        tags,
        operationId: 'upload.find',
        summary: 'List files',
        parameters: [...pluginListParameters, query('pagination', { type: 'object' }, 'pagination[page], [pageSize], [start], [limit]')],
        responses: ok('The files', { type: 'array', items: ref('UploadFile') }),
      }),
    },
    '/api/upload/files/{id}': {
      get: operation({ tags, operationId: 'upload.findOne', summary: 'Get a file', parameters: [fileId], responses: file('The file') }),
      delete: operation({ tags, operationId: 'upload.destroy', summary: 'Delete a file', parameters: [fileId], responses: file('The deleted file') }),
    },
    '/uploads/{path}': {
      get: operation(
        {
          tags,
          operationId: 'upload.serve',
          summary: 'The stored file itself',
          security: [{}],
          parameters: [{ name: 'path', in: 'path', required: true, schema: string }],
          responses: {
            '200': { description: 'The bytes (nosniff, sandboxed)', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
            '304': { description: 'Not modified' },
          },
        },
        ['404', '500'],
      ),
      head: operation(
        {
          tags,
          operationId: 'upload.serveHead',
          summary: "The stored file's headers",
          security: [{}],
          parameters: [{ name: 'path', in: 'path', required: true, schema: string }],
          responses: { '200': { description: 'Headers only' }, '304': { description: 'Not modified' } },
        },
        ['404', '500'],
      ),
    },
  };
}

/** GraphQL in Strapi's dialect (docs/graphql.md); the path is FOLIO_GRAPHQL_CONFIG's `endpoint`, /graphql by default. */
function graphql(): Schema {
  const tags = ['GraphQL'];
  const answer = ok('`{ data }`, with `errors` for resolver errors (FORBIDDEN, BAD_USER_INPUT, STRAPI_…)', {
    type: 'object',
    properties: { data: { type: 'object' }, errors: { type: 'array', items: { type: 'object' } } },
  });
  const operationBody = {
    required: true,
    content: json({ type: 'object', required: ['query'], properties: { query: string, variables: { type: 'object' }, operationName: string } }),
  };
  return {
    get: operation({
      tags,
      operationId: 'graphql.get',
      summary:
        'A query operation (not a mutation: 405); needs a non-simple Content-Type or an apollo-require-preflight header. A browser without `query` gets the IDE when the landing page is on.',
      parameters: [
        query('query', string, 'The operation'),
        query('variables', string, 'JSON text'),
        query('operationName', string, 'Which operation of the document'),
      ],
      responses: answer,
    }),
    post: operation({ tags, operationId: 'graphql.post', summary: 'Run a GraphQL operation', requestBody: operationBody, responses: answer }),
  };
}

/** `/` (where to go: a page, or JSON) and the favicon (http/routes/home.ts). */
function home(): Schema {
  const links = {
    type: 'object',
    additionalProperties: false,
    required: ['admin', 'openapi', 'graphql', 'docs'],
    properties: { admin: string, openapi: string, graphql: string, docs: string },
  };
  const index = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'version', 'links', 'contentRoutes'],
    properties: { name: string, version: string, links, contentRoutes: { type: 'array', items: string } },
  };
  return {
    '/': {
      get: operation(
        {
          tags: ['System'],
          operationId: 'home.get',
          summary: 'Where to go: a page linking the admin, this document, GraphQL and the docs (JSON for Accept: application/json)',
          security: [{}],
          responses: { '200': { description: 'The page, or its links as JSON', content: { 'text/html': { schema: string }, ...json(index) } } },
        },
        ['500'],
      ),
    },
    '/favicon.ico': {
      get: operation(
        {
          tags: ['System'],
          operationId: 'favicon.get',
          summary: 'The icon',
          security: [{}],
          responses: { '200': { description: 'An ICO file', content: { 'image/x-icon': { schema: { type: 'string', format: 'binary' } } } } },
        },
        ['500'],
      ),
    },
  };
}

export function systemPaths(): Schema {
  return {
    ...home(),
    '/_health': health(),
    '/api/openapi.json': {
      get: operation(
        { tags: ['System'], operationId: 'openapi.get', summary: 'This document', security: [{}], responses: ok('The OpenAPI document', { type: 'object' }) },
        ['500'],
      ),
    },
    '/api/i18n/locales': {
      get: operation({
        tags: ['Locales'],
        operationId: 'locales.listLocales',
        summary: 'The locales (plugin::i18n.locales.listLocales)',
        responses: ok('The locales', { type: 'array', items: ref('Locale') }),
      }),
    },
    '/api/realtime': {
      get: operation({
        tags: ['Realtime'],
        operationId: 'realtime.stream',
        summary: 'Server-Sent Events: one event per document change the caller may read',
        parameters: [
          query('types', string, 'Comma-separated API ids to follow (`articles,tags`); every readable type without it'),
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            schema: string,
            description: 'Resume after this event (browsers send it when they reconnect)',
          },
        ],
        responses: { '200': { description: 'An event stream (`id`, `event`, `data` JSON lines)', content: { 'text/event-stream': { schema: string } } } },
      }),
    },
    '/graphql': graphql(),
    ...auth(),
    ...users(),
    ...roles(),
    ...upload(),
  };
}
