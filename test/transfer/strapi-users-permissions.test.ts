/**
 * `folio import strapi` brings users-permissions' stored settings (core store keys
 * `plugin_users-permissions_advanced`, `_email`, `_grant`) into Folio's store, checked as Folio
 * checks them (a provider Folio does not have is left out with a note), and the codes Strapi
 * mailed before the move keep working: reset and confirmation tokens are stored hashed, as
 * Folio looks them up.
 */
import { afterAll, describe, expect, it } from 'bun:test';
import { Database as BunDatabase } from 'bun:sqlite';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { importStrapi } from '../../src/transfer/strapi/import';
import { strapi5Project } from '../helpers/strapi-project';
import { startServer, type TestServer } from '../helpers/server';
import { removeTempDirs, tempDir } from '../helpers/spawn';
import { createDatabase, dropDatabases } from '../helpers/postgres';

const TEST_DATABASE_URL = process.env.FOLIO_TEST_DATABASE_URL;
const databases: string[] = [];

const T = Date.UTC(2024, 0, 2, 3, 4, 5);
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, databases);
  removeTempDirs();
});

/** A Strapi 5 project whose store holds users-permissions settings and whose user has codes pending. */
function project(): string {
  const dir = tempDir('strapi-up-');
  strapi5Project(dir);
  const db = new BunDatabase(join(dir, '.tmp/data.db'));
  const stamps = 'created_at datetime, updated_at datetime, published_at datetime, created_by_id integer, updated_by_id integer, locale varchar(255)';
  db.exec(`
    CREATE TABLE strapi_core_store_settings (id integer primary key, key varchar(255), value text, type varchar(255), environment varchar(255), tag varchar(255));
    CREATE TABLE up_roles (id integer primary key, document_id varchar(255), name varchar(255), description varchar(255), type varchar(255), ${stamps});
    CREATE TABLE up_users (id integer primary key, document_id varchar(255), username varchar(255), email varchar(255), provider varchar(255), password varchar(255),
      reset_password_token varchar(255), confirmation_token varchar(255), confirmed boolean, blocked boolean, ${stamps});
    CREATE TABLE up_users_role_lnk (id integer primary key, user_id integer, role_id integer, user_ord float);
  `);
  const store = (key: string, value: unknown) =>
    db.run('INSERT INTO strapi_core_store_settings (key, value, type) VALUES (?, ?, ?)', [key, JSON.stringify(value), 'object']);
  store('plugin_users-permissions_advanced', {
    unique_email: true,
    allow_register: true,
    email_confirmation: true,
    email_reset_password: 'https://front.example/reset',
    email_confirmation_redirection: 'https://front.example/ok',
    default_role: 'authenticated',
  });
  store('plugin_users-permissions_grant', {
    email: { enabled: true, icon: 'envelope' },
    keycloak: {
      enabled: true,
      icon: '',
      key: 'kc',
      secret: 'kc-secret',
      subdomain: 'sso.example.com/realms/main',
      callback: 'https://front.example/kc',
      scope: ['openid', 'email'],
    },
    myspace: { enabled: true, key: 'x', secret: 'y' },
  });
  store('plugin_users-permissions_email', {
    reset_password: {
      display: 'Email.template.reset_password',
      icon: 'sync',
      options: { from: { name: 'Shop', email: 'shop@example.com' }, response_email: '', object: 'Reset', message: '<p><%= URL %>?code=<%= TOKEN %></p>' },
    },
    email_confirmation: {
      display: 'Email.template.email_confirmation',
      icon: 'check-square',
      options: {
        from: { name: 'Shop', email: 'shop@example.com' },
        response_email: '',
        object: 'Confirm',
        message: '<p><%= URL %>?confirmation=<%= CODE %></p>',
      },
    },
  });
  db.run(
    "INSERT INTO up_roles (id, document_id, name, description, type, created_at) VALUES (1, 'role1', 'Authenticated', 'a', 'authenticated', ?), (2, 'role2', 'Public', 'p', 'public', ?)",
    [T, T],
  );
  db.run(
    `INSERT INTO up_users (id, document_id, username, email, provider, password, reset_password_token, confirmation_token, confirmed, blocked, created_at, updated_at, published_at)
    VALUES (1, 'user1', 'pending', 'pending@example.com', 'local', NULL, ?, ?, 0, 0, ?, ?, ?)`,
    ['a'.repeat(128), 'b'.repeat(40), T, T, T],
  );
  db.run('INSERT INTO up_users_role_lnk (id, user_id, role_id, user_ord) VALUES (1, 1, 1, 1)');
  db.close();
  return dir;
}

describe('folio import strapi: users-permissions', () => {
  it('brings the stored advanced, email and grant settings, and leaves out providers Folio does not have', async () => {
    const data = tempDir();
    // The target: a PostgreSQL database of its own when the tests run on PostgreSQL, the data dir's SQLite file otherwise.
    const databaseUrl = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_up_import') : undefined;
    if (databaseUrl) databases.push(databaseUrl);
    const config = { ...resolveConfig({ data, contentTypes: join(data, 'content-types') }), databaseUrl };
    const report = await importStrapi({ source: project(), config, out: { write: () => {} } });
    expect(report.notes).toContain('users-permissions providers Folio does not have were left out: myspace');
    const server = await startServer({ dataDir: data, contentTypes: config.contentTypesDir, publicAccess: false, config: { databaseUrl } });
    servers.push(server);
    const settings = server.instance.usersPermissions;
    expect(await settings.advanced()).toMatchObject({
      email_confirmation: true,
      email_reset_password: 'https://front.example/reset',
      email_confirmation_redirection: 'https://front.example/ok',
    });
    expect((await settings.grant()).keycloak).toMatchObject({
      enabled: true,
      key: 'kc',
      secret: 'kc-secret',
      subdomain: 'sso.example.com/realms/main',
      callback: 'https://front.example/kc',
    });
    expect((await settings.grant()).github!.enabled).toBe(false);
    expect((await settings.email()).reset_password.options).toMatchObject({ object: 'Reset', from: { name: 'Shop', email: 'shop@example.com' } });

    // The codes Strapi mailed still work (with the grants a Strapi project gives the public role; this one has none).
    await server.instance.roles.grant('public', ['plugin::users-permissions.auth.emailConfirmation', 'plugin::users-permissions.auth.resetPassword']);
    const confirmed = await fetch(`${server.url}/api/auth/email-confirmation?confirmation=${'b'.repeat(40)}`, { redirect: 'manual' });
    expect([confirmed.status, confirmed.headers.get('location')]).toEqual([302, 'https://front.example/ok']);
    const reset = await server.call('POST', '/api/auth/reset-password', {
      body: { code: 'a'.repeat(128), password: 'Passw0rd!', passwordConfirmation: 'Passw0rd!' },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.user).toMatchObject({ username: 'pending', confirmed: true });
  }, 60_000);
});
