/**
 * Settings → Users & Permissions: the admin edits users-permissions' stored Advanced settings,
 * Providers and Email templates (Super Admin only), and the API follows at once. A provider's
 * secret never comes back (a blank one keeps it); values the environment sets are listed as
 * pinned. The page is driven in a real browser (with axe) when one is installed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const PAGE = '/admin/api/settings/users-permissions';
let server: TestServer;
let root: Record<string, string>;
let editor: Record<string, string>;

async function login(email: string, password: string) {
  const res = await server.call('POST', '/admin/api/login', { body: { email, password } });
  expect(res.status).toBe(200);
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, 'x-folio-csrf': res.body.data.csrfToken as string };
}

beforeAll(async () => {
  server = await startServer({ publicAccess: false, config: { authRateLimit: { max: 10_000, windowMs: 60_000 } } });
  const accounts = new AdminAccounts(server.instance.db);
  await accounts.create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
  await accounts.create({ email: 'ed@example.com', password: 'editor password', role: 'editor' });
  root = await login('root@example.com', 'correct horse');
  editor = await login('ed@example.com', 'editor password');
}, 30_000);
afterAll(() => server.stop(), 30_000);

const put = (path: string, body: unknown, headers = root) => server.call('PUT', `${PAGE}${path}`, { body, headers });

describe('the settings API', () => {
  test('shows Strapi’s defaults to a Super Admin and nothing to an Editor', async () => {
    const res = await server.call('GET', PAGE, { headers: root });
    expect(res.status).toBe(200);
    expect(res.body.data.advanced).toEqual({
      unique_email: true,
      allow_register: true,
      email_confirmation: false,
      email_reset_password: null,
      email_confirmation_redirection: null,
      default_role: 'authenticated',
    });
    expect(res.body.data.email.email_confirmation.object).toBe('Account confirmation');
    expect(res.body.data.providers.map((p: { name: string }) => p.name)).toContain('keycloak');
    expect(res.body.data.providers.find((p: { name: string }) => p.name === 'keycloak')).toMatchObject({
      enabled: false,
      secretSet: false,
      subdomain: 'myKeycloakProvider.com/realms/myrealm',
      redirectUri: 'http://127.0.0.1:1337/api/connect/keycloak/callback',
    });
    expect(res.body.data.roles).toEqual([{ type: 'authenticated', name: 'Authenticated' }]);
    expect((await server.call('GET', PAGE, { headers: editor })).status).toBe(403);
    expect((await put('/advanced', { allow_register: false }, editor)).status).toBe(403);
    // Without the CSRF token, nothing is written.
    expect((await put('/advanced', { allow_register: false }, { cookie: root.cookie! })).status).toBe(403);
  });

  test('saves the advanced settings, which the API follows at once', async () => {
    const register = (name: string) =>
      server.call('POST', '/api/auth/local/register', { body: { username: name, email: `${name}@example.com`, password: 'Passw0rd!' } });
    expect((await put('/advanced', { allow_register: false })).body.data.advanced.allow_register).toBe(false);
    expect((await register('closed')).body.error.message).toBe('Register action is currently disabled');
    expect((await put('/advanced', { allow_register: true })).status).toBe(200);
    expect((await register('opened')).status).toBe(200);
    const bad = await put('/advanced', { email_confirmation_redirection: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors[0].path).toEqual(['email_confirmation_redirection']);
    expect((await put('/advanced', { default_role: 'public' })).body.error.details.errors[0].path).toEqual(['default_role']);
  });

  test('stores a provider’s secret without ever answering it, keeps it on a blank one, and checks the subdomain', async () => {
    const saved = await put('/providers/keycloak', {
      enabled: true,
      key: 'kc',
      secret: 'the-provider-secret',
      callback: 'https://front.example/kc',
      scope: 'openid email',
      subdomain: 'sso.example.com/realms/main',
    });
    expect(saved.status).toBe(200);
    expect(JSON.stringify(saved.body)).not.toContain('the-provider-secret');
    expect(saved.body.data.providers.find((p: { name: string }) => p.name === 'keycloak')).toMatchObject({
      enabled: true,
      key: 'kc',
      secretSet: true,
      scope: ['openid', 'email'],
    });
    await put('/providers/keycloak', {
      enabled: true,
      key: 'kc2',
      secret: '',
      callback: 'https://front.example/kc',
      scope: 'openid',
      subdomain: 'sso.example.com/realms/main',
    });
    expect((await server.instance.usersPermissions.grant()).keycloak).toMatchObject({ key: 'kc2', secret: 'the-provider-secret' });
    const bad = await put('/providers/keycloak', { subdomain: 'evil.example/\r\nSet-Cookie: x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors[0].path).toEqual(['subdomain']);
    expect((await put('/providers/myspace', { enabled: true })).status).toBe(404);
    // The local login can be turned off.
    expect((await put('/providers/email', { enabled: false })).body.data.localLogin).toBe(false);
    expect((await server.call('POST', '/api/auth/local', { body: { identifier: 'opened', password: 'Passw0rd!' } })).body.error.message).toBe(
      'This provider is disabled',
    );
    await put('/providers/email', { enabled: true });
  });

  test('saves an e-mail template, refusing one with unknown code in it', async () => {
    const template = {
      from: { name: 'Shop', email: 'shop@example.com' },
      response_email: 'help@example.com',
      object: 'Please confirm',
      message: '<p><%= URL %>?confirmation=<%= CODE %></p>',
    };
    const res = await put('/email', { email_confirmation: template });
    expect(res.body.data.email.email_confirmation).toEqual(template);
    expect((await server.instance.usersPermissions.email()).email_confirmation.options.object).toBe('Please confirm');
    const bad = await put('/email', { reset_password: { ...template, message: '<% console.log(1) %>' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors[0].path).toEqual(['message']);
  });

  test('lists what the environment sets as pinned', async () => {
    const pinned = await startServer({ publicAccess: false, config: { allowRegister: false, usersPermissions: { grant: { github: { enabled: true } } } } });
    try {
      const accounts = new AdminAccounts(pinned.instance.db);
      await accounts.create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
      const res = await pinned.call('POST', '/admin/api/login', { body: { email: 'root@example.com', password: 'correct horse' } });
      const headers = { cookie: res.headers.get('set-cookie')!.split(';')[0]! };
      expect((await pinned.call('GET', PAGE, { headers })).body.data.pinned).toEqual({ advanced: ['allow_register'], email: [], grant: ['github'] });
    } finally {
      await pinned.stop();
    }
  });
});

const executable = findChromium();

async function violations(page: Page): Promise<string[]> {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const found = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 2).map((n: any) => n.target.join(' ')) }));
  });
  return (found as { id: string; impact: string; nodes: string[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} at ${v.nodes.join(' | ')}`);
}

describe.skipIf(!executable)('the page in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser(executable!);
  }, 30_000);
  afterAll(() => browser?.close());

  test('edits the advanced settings and a provider, accessibly', async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill('root@example.com');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await page.goto(`${server.url}/admin/settings/users-permissions`);
    await page.getByRole('heading', { name: 'Users & Permissions' }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('Enable e-mail confirmation').check();
    await page.getByRole('button', { name: 'Save advanced settings' }).click();
    await page.getByText('Advanced settings saved').waitFor();
    expect((await server.instance.usersPermissions.advanced()).email_confirmation).toBe(true);
    await page.getByText('github', { exact: true }).click();
    const form = page.getByRole('form', { name: 'Provider github' });
    await form.getByLabel('Enabled').check();
    await form.getByLabel('Client ID').fill('gh-id');
    await form.getByLabel('Client secret').fill('gh-secret');
    await form.getByLabel('The redirect URL to your front-end app').fill('https://front.example/gh');
    expect(await violations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Save github' }).click();
    await page.getByText('github saved').waitFor();
    expect((await server.instance.usersPermissions.grant()).github).toMatchObject({
      enabled: true,
      key: 'gh-id',
      secret: 'gh-secret',
      callback: 'https://front.example/gh',
    });
    expect(await page.content()).not.toContain('gh-secret');
  }, 60_000);
});
