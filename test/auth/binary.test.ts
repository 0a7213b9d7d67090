/**
 * The account flows from the compiled executable (`dist/folio`, built here as package.json's
 * "build" script builds it, copied alone into an empty folder): FOLIO_USERS_PERMISSIONS_CONFIG
 * read from a JSON file, e-mail confirmation mailed to a real SMTP server, refresh-token
 * sessions across a restart, a provider trusted through NODE_EXTRA_CA_CERTS, and
 * `folio admin reset-password`. Nothing but the binary runs Folio here.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMail } from '../helpers/mail';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { startFakeProvider, type FakeProvider } from '../helpers/oauth-provider';
import { buildCommand, cleanEnv, killSpawned, removeTempDirs, ROOT, runCli, serve, tempDir } from '../helpers/spawn';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { browserSignIn, CLIENT, freePort, frontEndCallback, serveWithProvider } from './provider-flow';

setDefaultTimeout(60_000);

/** With FOLIO_TEST_DATABASE_URL each installation gets a PostgreSQL database of its own. */
const TEST_DATABASE_URL = process.env.FOLIO_TEST_DATABASE_URL;
const databases: string[] = [];
async function db(): Promise<{ database?: string }> {
  if (!TEST_DATABASE_URL) return {};
  const url = await createDatabase(TEST_DATABASE_URL, 'folio_bin_auth');
  databases.push(url);
  return { database: url };
}

let folio: string;
let smtp: TestSmtpServer;
let provider: FakeProvider;

beforeAll(async () => {
  const buildDir = tempDir('folio-auth-build-');
  const build = Bun.spawnSync(buildCommand(join(buildDir, 'folio')), { cwd: ROOT, env: cleanEnv({}, { binary: true }), stdout: 'pipe', stderr: 'pipe' });
  if (build.exitCode !== 0) throw new Error(`build failed:\n${build.stdout.toString()}\n${build.stderr.toString()}`);
  folio = join(tempDir('folio-auth-bin-'), 'folio');
  copyFileSync(join(buildDir, 'folio'), folio);
  smtp = await startSmtpServer();
  provider = startFakeProvider(CLIENT);
}, 180_000);
afterEach(killSpawned);
afterAll(async () => {
  provider.close();
  await smtp.close();
  if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, databases);
  removeTempDirs();
});

describe('dist/folio', () => {
  it('reads FOLIO_USERS_PERMISSIONS_CONFIG from a file and mails a confirmation whose link confirms once', async () => {
    const config = join(tempDir(), 'users-permissions.json');
    writeFileSync(config, JSON.stringify({ advanced: { email_confirmation: true, email_confirmation_redirection: 'https://front.example/welcome' } }));
    const port = await freePort();
    const server = await serve({
      exe: folio,
      port,
      ...(await db()),
      env: { FOLIO_USERS_PERMISSIONS_CONFIG: config, FOLIO_SMTP_URL: smtp.url(), FOLIO_PUBLIC_URL: `http://127.0.0.1:${port}` },
    });
    const before = smtp.received.length;
    const reg = await server.call('POST', '/api/auth/local/register', { body: { username: 'binuser', email: 'binuser@example.com', password: 'Passw0rd!' } });
    expect(Object.keys(reg.body)).toEqual(['user']);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    const parsed = parseMail(mail!);
    expect(parsed.headers.get('subject')).toBe('Account confirmation');
    const link = parsed.text.match(/http:\/\/127\.0\.0\.1:\d+\/api\/auth\/email-confirmation\?confirmation=[0-9a-f]{40}/)![0];
    expect((await server.call('POST', '/api/auth/local', { body: { identifier: 'binuser', password: 'Passw0rd!' } })).body.error.message).toBe(
      'Your account email is not confirmed',
    );
    const first = await fetch(link, { redirect: 'manual' });
    expect([first.status, first.headers.get('location')]).toEqual([302, 'https://front.example/welcome']);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(400);
    expect((await server.call('POST', '/api/auth/local', { body: { identifier: 'binuser', password: 'Passw0rd!' } })).status).toBe(200);
    const token = new URL(link).searchParams.get('confirmation')!;
    expect(server.stdout() + server.stderr()).not.toContain(token);
    await server.stop();
  });

  it('keeps refresh-token sessions across a restart and ends them on logout', async () => {
    const data = tempDir();
    const env = { FOLIO_USERS_PERMISSIONS_CONFIG: '{"jwtManagement":"refresh"}' };
    const database = await db();
    let server = await serve({ exe: folio, data, env, ...database });
    const reg = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'restarter', email: 'restarter@example.com', password: 'Passw0rd!' },
    });
    expect(Object.keys(reg.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    await server.stop();
    server = await serve({ exe: folio, data, env, ...database });
    const rotated = await server.call('POST', '/api/auth/refresh', { body: { refreshToken: reg.body.refreshToken } });
    expect(rotated.status).toBe(200);
    expect((await server.call('POST', '/api/auth/logout', { headers: { authorization: `Bearer ${rotated.body.jwt}` } })).body).toEqual({ ok: true });
    expect((await server.call('POST', '/api/auth/refresh', { body: { refreshToken: rotated.body.refreshToken } })).status).toBe(401);
    expect(server.stdout() + server.stderr()).not.toContain(rotated.body.refreshToken);
    await server.stop();
  });

  it('signs in through a provider whose certificate NODE_EXTRA_CA_CERTS trusts', async () => {
    const { folio: server } = await serveWithProvider(provider, { exe: folio, ...(await db()) });
    provider.user = { preferred_username: 'binkc', email: 'binkc@example.com', email_verified: true };
    const { jar, back } = await browserSignIn(server);
    expect(back.location).toBe('http://front.example/connect/keycloak/redirect');
    const res = await frontEndCallback(server, jar);
    expect(res.body.user).toMatchObject({ username: 'binkc', provider: 'keycloak', confirmed: true });
    expect(server.stdout() + server.stderr()).not.toContain(CLIENT.clientSecret);
    await server.stop();
  });

  it('sets an admin’s password with folio admin reset-password', async () => {
    const data = tempDir();
    const flags = { exe: folio, data, env: {}, ...(await db()) };
    expect(runCli(['admin', 'create', '--email', 'root@example.com', '--password', 'first password'], flags).code).toBe(0);
    const reset = runCli(['admin', 'reset-password', '--email', 'root@example.com', '--password', 'second password'], flags);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain('new password set for admin root@example.com');
    expect(runCli(['admin', 'reset-password', '--email', 'nobody@example.com', '--password', 'second password'], flags).code).toBe(1);
    const server = await serve(flags);
    const login = (password: string) => server.call('POST', '/admin/api/login', { body: { email: 'root@example.com', password } });
    expect([(await login('first password')).status, (await login('second password')).status]).toEqual([401, 200]);
    await server.stop();
  });
});
