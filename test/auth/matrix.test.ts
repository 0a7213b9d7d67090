/**
 * The access matrix: every content type × every route × every kind of caller answers
 * exactly the status the rules give (2xx with the grant, 403 without it, 401 for a bad
 * credential), and no response body ever carries a private attribute, a password hash,
 * a reset code or an API token key, populated or not.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SignJWT } from 'jose';
import { DEFAULT_ROLE_ACTIONS } from '../../src/auth/actions';
import { startServer, type TestServer } from '../helpers/server';

type Action = 'find' | 'findOne' | 'create' | 'update' | 'delete';
interface Type {
  name: string;
  singular: string;
  single: boolean;
  field: string;
  extra?: Record<string, unknown>;
}

const SECRET = 'TOP-SECRET-NOTE';
const PASSWORD = 'Matrix-Passw0rd!';
const TYPES: Type[] = [
  { name: 'articles', singular: 'article', single: false, field: 'title' },
  { name: 'authors', singular: 'author', single: false, field: 'name', extra: { internalNotes: SECRET } },
  { name: 'categories', singular: 'category', single: false, field: 'name' },
  { name: 'tags', singular: 'tag', single: false, field: 'name' },
  { name: 'homepage', singular: 'homepage', single: true, field: 'headline' },
  { name: 'global', singular: 'global', single: true, field: 'siteName' },
];
const actionsOf = (t: Type): Action[] => (t.single ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete']);
const uid = (t: Type, a: Action) => `api::${t.singular}.${t.singular}.${a}`;
const ALL_CONTENT = TYPES.flatMap((t) => actionsOf(t).map((a) => uid(t, a)));
const SUCCESS: Record<Action, number> = { find: 200, findOne: 200, create: 201, update: 200, delete: 204 };

// What the custom role and the custom token hold: a few actions spread over the types.
const EDITOR_ACTIONS = [
  'api::article.article.find',
  'api::article.article.findOne',
  'api::article.article.update',
  'api::tag.tag.create',
  'api::tag.tag.delete',
  'api::category.category.findOne',
  'api::homepage.homepage.find',
  'api::global.global.update',
];
const CUSTOM_TOKEN_ACTIONS = [
  'api::author.author.find',
  'api::author.author.create',
  'api::category.category.delete',
  'api::tag.tag.findOne',
  'api::article.article.delete',
  'api::homepage.homepage.update',
  'api::homepage.homepage.delete',
  'api::global.global.find',
];

setDefaultTimeout(30_000);

let server: TestServer;
const cred: Record<string, string> = {};
const bodies: string[] = [];
let seq = 0;

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const full = () => bearer(server.tokens.fullAccess);
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** fetch keeping the raw text, which is scanned for secrets. */
async function send(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await fetch(server.url + path, init);
  const text = await response.text();
  bodies.push(text);
  return { status: response.status, text, json: text ? JSON.parse(text) : null };
}

const dataFor = (t: Type) => ({ [t.field]: `${t.singular} ${++seq}`, ...t.extra });

/** Makes sure the target of a call exists (a fresh document for collection types); returns the path. */
async function prepare(t: Type, action: Action): Promise<string> {
  if (t.single) {
    const put = await send('PUT', `/api/${t.name}`, full(), { data: dataFor(t) });
    expect(put.status).toBe(200);
    return `/api/${t.name}`;
  }
  if (action === 'find' || action === 'create') return `/api/${t.name}`;
  const created = await send('POST', `/api/${t.name}`, full(), { data: dataFor(t) });
  expect(created.status).toBe(201);
  return `/api/${t.name}/${created.json.data.documentId}`;
}

const METHOD: Record<Action, string> = { find: 'GET', findOne: 'GET', create: 'POST', update: 'PUT', delete: 'DELETE' };

interface Principal {
  name: string;
  headers: () => Record<string, string>;
  /** 'allow' or the refusal status for one action. */
  expect: (action: string) => 'allow' | 401 | 403;
  /** Grants for the duration of one case; returns the undo. */
  around?: (action: string) => Promise<() => Promise<void>>;
}

const resetAuthenticated = () => server.instance.roles.setActions('authenticated', DEFAULT_ROLE_ACTIONS.authenticated!);
const PRINCIPALS: Principal[] = [
  { name: 'an anonymous caller without a grant', headers: () => ({}), expect: () => 403 },
  {
    name: 'an anonymous caller whose public role holds exactly this action',
    headers: () => ({}),
    expect: () => 'allow',
    around: async (action) => {
      await server.instance.roles.grant('public', [action]);
      return async () => void (await server.instance.roles.revoke('public', [action]));
    },
  },
  {
    name: 'a user whose role holds the action',
    headers: () => bearer(cred.user!),
    expect: () => 'allow',
    around: async (action) => {
      await server.instance.roles.grant('authenticated', [action]);
      return resetAuthenticated;
    },
  },
  {
    name: 'a user whose role holds every other content action but not this one',
    headers: () => bearer(cred.user!),
    expect: () => 403,
    around: async (action) => {
      await server.instance.roles.grant(
        'authenticated',
        ALL_CONTENT.filter((a) => a !== action),
      );
      return resetAuthenticated;
    },
  },
  { name: 'a user of the custom Editors role', headers: () => bearer(cred.editor!), expect: (a) => (EDITOR_ACTIONS.includes(a) ? 'allow' : 403) },
  { name: 'a read-only API token', headers: () => bearer(server.tokens.readOnly), expect: (a) => (/\.(find|findOne)$/.test(a) ? 'allow' : 403) },
  { name: 'a full-access API token', headers: () => full(), expect: () => 'allow' },
  { name: 'a custom API token', headers: () => bearer(cred.custom!), expect: (a) => (CUSTOM_TOKEN_ACTIONS.includes(a) ? 'allow' : 403) },
  { name: 'an expired full-access token', headers: () => bearer(cred.expired!), expect: () => 401 },
  { name: 'a revoked full-access token', headers: () => bearer(cred.revoked!), expect: () => 401 },
  { name: 'a JWT with a tampered signature', headers: () => bearer(cred.tampered!), expect: () => 401 },
  { name: 'a JWT signed with another secret', headers: () => bearer(cred.otherSecret!), expect: () => 401 },
  { name: 'a JWT with alg none', headers: () => bearer(cred.algNone!), expect: () => 401 },
  { name: 'the JWT of a blocked user', headers: () => bearer(cred.blocked!), expect: () => 401 },
];

/** The secrets no body may contain; filled once the users and tokens exist. */
const forbiddenStrings: string[] = [SECRET, '$argon2', '$2', PASSWORD];
function expectNoSecrets(text: string) {
  for (const secret of forbiddenStrings) expect(text.includes(secret) ? secret : null).toBeNull();
}

async function login(identifier: string): Promise<string> {
  const res = await send('POST', '/api/auth/local', {}, { identifier, password: PASSWORD });
  expect(res.status).toBe(200);
  return res.json.jwt;
}

beforeAll(async () => {
  server = await startServer({ publicAccess: false, config: { authRateLimit: { max: 10_000, windowMs: 60_000 } } });
  const { users, roles, tokens, db } = server.instance;
  // Plain user (authenticated role), an editor (custom role), a user of a role that may do everything.
  const plain = await users.create({ username: 'plain', email: 'plain@example.com', password: PASSWORD });
  const editorsRole = await roles.create('Editors');
  expect(editorsRole.type).toBe('editors');
  await roles.grant('editors', EDITOR_ACTIONS);
  await users.create({ username: 'editor', email: 'editor@example.com', password: PASSWORD, role: 'editors' });
  await roles.create('Everything');
  await roles.grant('everything', ALL_CONTENT);
  const power = await users.create({ username: 'power', email: 'power@example.com', password: PASSWORD, role: 'everything' });
  const doomed = await users.create({ username: 'doomed', email: 'doomed@example.com', password: PASSWORD, role: 'everything' });
  cred.user = await login('plain@example.com');
  cred.editor = await login('editor');
  const powerJwt = await login('power');
  cred.blocked = await login('doomed');
  await users.update(doomed.id, { blocked: true });

  // Bad JWTs, all claiming a user whose role may do everything (so accepting one would give 2xx).
  const [header, payload, signature] = powerJwt.split('.') as [string, string, string];
  const i = signature.length - 10;
  cred.tampered = `${header}.${payload}.${signature.slice(0, i)}${signature[i] === 'A' ? 'B' : 'A'}${signature.slice(i + 1)}`;
  cred.otherSecret = await new SignJWT({ id: power.id })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('not-the-installation-secret'));
  cred.algNone = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ id: power.id, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 })}.`;

  cred.custom = (await tokens.create('matrix-custom', 'custom', undefined, undefined, CUSTOM_TOKEN_ACTIONS)).accessKey;
  cred.expired = (await tokens.create('matrix-expired', 'full-access', 7)).accessKey;
  await db.run('UPDATE folio_api_tokens SET "expiresAt" = ? WHERE "name" = ?', [new Date(Date.now() - 60_000).toISOString(), 'matrix-expired']);
  cred.revoked = (await tokens.create('matrix-revoked', 'full-access')).accessKey;
  expect(await tokens.revoke('matrix-revoked')).toBe(true);

  // A bcrypt hash (as imported from Strapi) and a pending reset code must not leak either.
  await db.run('UPDATE folio_users SET "password" = ? WHERE "id" = ?', [(await Bun.password.hash(PASSWORD, 'bcrypt')).replace(/^\$2b\$/, '$2a$'), plain.id]);
  const resetCode = await users.createResetCode(power.id);
  expect(resetCode).toBeString();
  forbiddenStrings.push(resetCode!, server.tokens.fullAccess, server.tokens.readOnly, cred.custom, cred.expired, cred.revoked);
  for (const row of await db.all<Record<string, string | null>>('SELECT "password", "resetPasswordToken" FROM folio_users')) {
    for (const value of Object.values(row)) if (value) forbiddenStrings.push(value);
  }
  for (const row of await db.all<{ accessKey: string }>('SELECT "accessKey" FROM folio_api_tokens')) forbiddenStrings.push(row.accessKey);

  // Something to list in every type, and an author with a private note linked to an article.
  for (const t of TYPES) await prepare(t, 'findOne');
});
afterAll(() => server.stop());

describe('the access matrix', () => {
  for (const t of TYPES) {
    for (const action of actionsOf(t)) {
      const name = uid(t, action);
      for (const p of PRINCIPALS) {
        const outcome = p.expect(name);
        const label = outcome === 'allow' ? `${SUCCESS[action]}` : `${outcome}`;
        it(`${METHOD[action]} ${t.name} (${action}) by ${p.name} → ${label}`, async () => {
          const path = await prepare(t, action);
          const undo = p.around ? await p.around(name) : async () => {};
          let res: Awaited<ReturnType<typeof send>>;
          try {
            const body = action === 'create' || action === 'update' ? { data: dataFor(t) } : undefined;
            res = await send(METHOD[action], path, p.headers(), body);
          } finally {
            await undo();
          }
          expectNoSecrets(res.text);
          if (outcome === 'allow') {
            expect(`${res.status} ${res.status >= 400 ? res.text : ''}`.trim()).toBe(`${SUCCESS[action]}`);
            if (action === 'delete') expect(res.text).toBe('');
            else expect(res.json.data).toBeTruthy();
            return;
          }
          expect(res.status).toBe(outcome);
          expect(res.json.data).toBeNull();
          expect(res.json.error).toMatchObject(
            outcome === 403 ? { status: 403, name: 'ForbiddenError', message: 'Forbidden' } : { status: 401, name: 'UnauthorizedError' },
          );
          // A refused write leaves the document as it was.
          if (action === 'delete' || action === 'update') {
            const after = await send('GET', path, full());
            expect(after.status).toBe(200);
          }
        });
      }
    }
  }
});

describe('secrets in responses', () => {
  let authorId = '';
  let articleId = '';
  beforeAll(async () => {
    const author = await send('POST', '/api/authors?populate=*', full(), { data: { name: 'Ada', internalNotes: SECRET } });
    expect(author.status).toBe(201);
    authorId = author.json.data.documentId;
    const article = await send('POST', '/api/articles?populate=*', full(), { data: { title: 'By Ada', author: authorId } });
    expect(article.status).toBe(201);
    articleId = article.json.data.documentId;
  });

  it('stores the private note, so the scans below look for something that exists', async () => {
    const row = await server.instance.db.get<{ internalNotes: string }>('SELECT "internalNotes" FROM authors WHERE "documentId" = ?', [authorId]);
    expect(row?.internalNotes).toBe(SECRET);
    expect(forbiddenStrings.filter((s) => s.startsWith('$argon2')).length).toBeGreaterThanOrEqual(3);
    expect(forbiddenStrings.some((s) => s.startsWith('$2a$'))).toBe(true);
  });

  it('leaves author.internalNotes out of populated articles (populate=*, nested populate) for every reader', async () => {
    await server.instance.roles.grant('authenticated', ['api::article.article.find', 'api::article.article.findOne', 'api::author.author.find']);
    try {
      for (const headers of [full(), bearer(server.tokens.readOnly), bearer(cred.user!)]) {
        for (const path of [
          `/api/articles?filters[documentId][$eq]=${articleId}&populate=*`,
          `/api/articles/${articleId}?populate=*`,
          `/api/articles/${articleId}?populate[author][populate]=*`,
        ]) {
          const res = await send('GET', path, headers);
          expect(res.status).toBe(200);
          const doc = Array.isArray(res.json.data) ? res.json.data.find((d: any) => d.documentId === articleId) : res.json.data;
          expect(doc.author).toMatchObject({ documentId: authorId, name: 'Ada' });
          expect(doc.author).not.toHaveProperty('internalNotes');
          expectNoSecrets(res.text);
        }
      }
    } finally {
      await resetAuthenticated();
    }
  });

  it('leaves internalNotes out of author reads and writes, plain or populated', async () => {
    const calls = [
      await send('GET', '/api/authors', full()),
      await send('GET', '/api/authors?populate=*', full()),
      await send('GET', `/api/authors/${authorId}?populate[articles][populate]=*`, full()),
      await send('PUT', `/api/authors/${authorId}?populate=*`, full(), { data: { bio: 'mathematician', internalNotes: SECRET } }),
      await send('POST', '/api/authors', full(), { data: { name: 'Grace', internalNotes: SECRET } }),
      await send('GET', `/api/authors?fields[0]=internalNotes`, full()),
      await send('GET', `/api/authors?filters[internalNotes][$eq]=${SECRET}`, full()),
    ];
    for (const res of calls.slice(0, 5)) expect(res.status).toBeLessThan(300);
    for (const res of calls) expectNoSecrets(res.text);
  });

  it('never returns password hashes, reset codes or token keys from the users & permissions routes', async () => {
    const jwt = await login('power');
    const calls = [
      await send('GET', '/api/users', full()),
      await send('GET', '/api/users?populate=*', full()),
      await send('GET', '/api/users/1', full()),
      await send('GET', '/api/users/me?populate=role', bearer(jwt)),
      await send('POST', '/api/auth/local', {}, { identifier: 'power', password: PASSWORD }),
      await send('POST', '/api/auth/local/register', {}, { username: 'newbie', email: 'newbie@example.com', password: PASSWORD }),
      await send('PUT', '/api/users/1', full(), { username: 'plain-renamed' }),
      await send('GET', '/api/users-permissions/roles', full()),
    ];
    for (const res of calls) expect(res.status).toBe(200);
    for (const res of calls) {
      expectNoSecrets(res.text);
      expect(res.text).not.toMatch(/"(password|resetPasswordToken|confirmationToken|accessKey)"/);
    }
  });

  it('found no secret in any of the bodies of this file', async () => {
    // Reads by every kind of caller first, so the scan covers a sweep of its own when this
    // test runs alone (-t); after the whole file it covers the matrix's bodies as well.
    const before = bodies.length;
    for (const t of TYPES) for (const p of PRINCIPALS) await send('GET', `/api/${t.name}?populate=*`, p.headers());
    expect(bodies.length - before).toBe(TYPES.length * PRINCIPALS.length);
    expect(bodies.length).toBeGreaterThan(TYPES.length * PRINCIPALS.length);
    const leaks = bodies.flatMap((text) => forbiddenStrings.filter((s) => text.includes(s)).map((s) => `${s.slice(0, 20)}… in ${text.slice(0, 120)}`));
    expect(leaks).toEqual([]);
  });
});
