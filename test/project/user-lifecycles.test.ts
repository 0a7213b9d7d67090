/**
 * Lifecycle subscribers on the users type (`strapi.db.lifecycles.subscribe({ models:
 * ['plugin::users-permissions.user'], … })` in bootstrap: test/fixtures/projects/user-lifecycles-js)
 * hear Folio's user writes as Strapi 5.54.0's: the same requests were sent to a copy of the Strapi
 * peer running the same src/, and test/fixtures/projects/user-lifecycles-answers.json is what it
 * recorded (event names, params and data keys, where, the result's keys and username, the role
 * populated) and answered. A beforeCreate that throws refuses the registration (nothing written),
 * one that changes the username changes what is stored, and afterCreate's own write (an author)
 * joins the user's. Both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import answers from '../fixtures/projects/user-lifecycles-answers.json';
import { copyProject } from '../helpers/project';
import { startServer, type TestServer } from '../helpers/server';
import { removeTempDirs } from '../helpers/spawn';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ contentTypes: copyProject('user-lifecycles-js') });
});
afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

/** The step as the fixture's log shows it, in the recorded answers' shape. */
async function step(label: string, status: number, body: any) {
  const { body: log } = await server.call('GET', '/api/lifecycle-log');
  return {
    label,
    status,
    ...(body?.error ? { error: body.error } : {}),
    events: log.events.map((e: any) => ({
      name: e.name,
      uid: e.uid,
      params: e.params,
      ...(e.data !== undefined ? { data: e.data } : {}),
      where: e.where && Object.fromEntries(Object.entries(e.where).map(([k, v]) => [k, Number(v)])),
      ...(e.username !== undefined ? { username: e.username } : {}),
      ...(e.result !== undefined ? { result: e.result } : {}),
      ...(e.resultUsername !== undefined ? { resultUsername: e.resultUsername } : {}),
      ...(e.role !== undefined ? { role: e.role } : {}),
    })),
    authors: log.authors,
  };
}

const expected = (label: string) => answers.steps.find((s) => s.label === label)!;

describe('lifecycle subscribers on the users type, as Strapi fires them', () => {
  let alice: { jwt: string };
  let dave: number;

  test('a registration fires beforeCreate and afterCreate, and afterCreate writes an author', async () => {
    const { status, body } = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'alice', email: 'alice@example.com', password: 'Passw0rd!' },
    });
    alice = body;
    expect(await step('register alice', status, body)).toEqual(expected('register alice'));
  });

  test('a beforeCreate that throws refuses the registration and writes nothing', async () => {
    const { status, body } = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'bob-refused', email: 'bob@example.com', password: 'Passw0rd!' },
    });
    expect(await step('register refused', status, body)).toEqual(expected('register refused'));
    const login = await server.call('POST', '/api/auth/local', { body: { identifier: 'bob@example.com', password: 'Passw0rd!' } });
    expect(login.status).toBe(400);
  });

  test('what beforeCreate leaves in params.data is what is stored', async () => {
    const { status, body } = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'shout-carol', email: 'carol@example.com', password: 'Passw0rd!' },
    });
    expect(body.user.username).toBe('SHOUT-CAROL');
    expect(await step('register shout', status, body)).toEqual(expected('register shout'));
  });

  test('POST, PUT and DELETE /api/users and a password change fire Create, Update and Delete', async () => {
    const auth = { authorization: `Bearer ${server.tokens.fullAccess}` };
    // Strapi's authenticated role has id 1, Folio's 2: the request names it by its id, as front ends do.
    const roles = await server.call('GET', '/api/users-permissions/roles', { headers: auth });
    const authenticated = roles.body.roles.find((r: { type: string }) => r.type === 'authenticated').id;
    const created = await server.call('POST', '/api/users', {
      body: { username: 'dave', email: 'dave@example.com', password: 'Passw0rd!', role: authenticated },
      headers: auth,
    });
    dave = created.body.id;
    expect(await step('create dave', created.status, created.body)).toEqual(expected('create dave'));

    const updated = await server.call('PUT', `/api/users/${dave}`, { body: { username: 'dave2' }, headers: auth });
    expect(await step('update dave', updated.status, updated.body)).toEqual(expected('update dave'));

    const changed = await server.call('POST', '/api/auth/change-password', {
      body: { currentPassword: 'Passw0rd!', password: 'N3wPassw0rd!', passwordConfirmation: 'N3wPassw0rd!' },
      headers: { authorization: `Bearer ${alice.jwt}` },
    });
    expect(await step('change password alice', changed.status, changed.body)).toEqual(expected('change password alice'));

    const deleted = await server.call('DELETE', `/api/users/${dave}`, { headers: auth });
    expect(await step('delete dave', deleted.status, deleted.body)).toEqual(expected('delete dave'));
  });

  test('an afterCreate that throws undoes the user and what the handler wrote before it', async () => {
    const off = server.instance.documents.hooks.subscribe({
      models: ['plugin::users-permissions.user'],
      async afterCreate() {
        throw new Error('no more users');
      },
    });
    try {
      const { status } = await server.call('POST', '/api/auth/local/register', {
        body: { username: 'erin', email: 'erin@example.com', password: 'Passw0rd!' },
      });
      expect(status).toBe(500);
    } finally {
      off();
    }
    const { body } = await server.call('GET', '/api/lifecycle-log');
    // The fixture's own afterCreate ran first and made an author: rolled back with the user.
    expect(body.authors).not.toContain('author of erin');
    expect((await server.instance.users.findByEmail('erin@example.com')) === undefined).toBe(true);
  });

  test('no private value reaches an event but the stored hash the write itself holds', async () => {
    const seen: unknown[] = [];
    const off = server.instance.documents.hooks.subscribe({
      models: ['plugin::users-permissions.user'],
      afterCreate: (event) => void seen.push(event.result, event.params.data),
    });
    try {
      await server.call('POST', '/api/auth/local/register', { body: { username: 'frank', email: 'frank@example.com', password: 'Passw0rd!' } });
    } finally {
      off();
    }
    const [result, data] = seen as [Record<string, unknown>, Record<string, unknown>];
    expect(Object.keys(result)).not.toContain('password');
    expect(String(data.password)).not.toContain('Passw0rd!');
    expect(String(data.password)).toStartWith('$argon2');
  });
});
