/**
 * Users & permissions settings: FOLIO_USERS_PERMISSIONS_CONFIG (JSON text or a JSON file) with
 * Strapi's names and defaults, FOLIO_PUBLIC_URL, the single-purpose variables Folio had before,
 * and the stored values (the admin's Settings pages, `folio import strapi`). For each key the
 * first source that sets it wins: the JSON variable, the single-purpose variable, the stored
 * value, Strapi's default.
 */
import { afterAll, afterEach, describe, expect, it } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { resolveConfig } from '../../src/config';
import { DEFAULT_EMAIL, defaultGrant } from '../../src/auth/settings-values';
import { startServer, tempDir as serverTempDir, type StartOptions, type TestServer } from '../helpers/server';
import { killSpawned, removeTempDirs, spawnCli, tempDir } from '../helpers/spawn';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  removeTempDirs();
});
afterEach(killSpawned);

async function start(config: StartOptions['config'] = {}, dataDir?: string) {
  const server = await startServer({ publicAccess: false, config, dataDir });
  servers.push(server);
  return server;
}

/** Runs `fn` with these environment variables set (undefined: unset), then puts them back. */
function withEnv<T>(vars: Record<string, string | undefined>, fn: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(vars);
  try {
    return fn();
  } finally {
    apply(saved);
  }
}

const UNSET = { FOLIO_USERS_PERMISSIONS_CONFIG: undefined, FOLIO_PUBLIC_URL: undefined, FOLIO_ALLOW_REGISTER: undefined, FOLIO_RESET_PASSWORD_URL: undefined };
const configWith = (vars: Record<string, string | undefined>) => withEnv({ ...UNSET, ...vars }, () => resolveConfig());

const register = (server: TestServer, name: string) =>
  server.call('POST', '/api/auth/local/register', { body: { username: name, email: `${name}@example.com`, password: 'Passw0rd!' } });

describe('FOLIO_USERS_PERMISSIONS_CONFIG', () => {
  it('reads JSON text, or the path of a JSON file, with Strapi’s names', () => {
    const json = {
      advanced: { email_confirmation: true, email_confirmation_redirection: 'https://front.example/confirmed' },
      jwtManagement: 'refresh' as const,
      sessions: { httpOnly: true },
    };
    expect(configWith({ FOLIO_USERS_PERMISSIONS_CONFIG: JSON.stringify(json) }).usersPermissions).toEqual(json);
    const file = join(tempDir(), 'users-permissions.json');
    writeFileSync(file, JSON.stringify({ ratelimit: { interval: { min: 5 }, max: 3 }, register: { allowedFields: ['nickname'] } }));
    expect(configWith({ FOLIO_USERS_PERMISSIONS_CONFIG: file }).usersPermissions).toEqual({
      ratelimit: { interval: 300_000, max: 3 },
      register: { allowedFields: ['nickname'] },
    });
  });

  it('refuses malformed JSON, a missing file, unknown keys and wrong values, naming the variable and the key', () => {
    const error = (value: string) => {
      try {
        configWith({ FOLIO_USERS_PERMISSIONS_CONFIG: value });
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(error('{"advanced":')).toStartWith('FOLIO_USERS_PERMISSIONS_CONFIG is not valid JSON');
    expect(error('/nowhere/up.json')).toBe(
      'FOLIO_USERS_PERMISSIONS_CONFIG: cannot read "/nowhere/up.json" (ENOENT); give JSON text or the path of a JSON file',
    );
    expect(error('{"advanced":{"allow_registration":true}}')).toStartWith('FOLIO_USERS_PERMISSIONS_CONFIG advanced: unknown key "allow_registration"');
    expect(error('{"jwtManagement":"sessions"}')).toBe('FOLIO_USERS_PERMISSIONS_CONFIG jwtManagement: must be "legacy-support" or "refresh", got "sessions"');
    expect(error('{"advanced":{"email_confirmation":"yes"}}')).toBe('FOLIO_USERS_PERMISSIONS_CONFIG advanced.email_confirmation: must be true or false');
    expect(error('{"advanced":{"email_confirmation_redirection":"javascript:alert(1)"}}')).toBe(
      'FOLIO_USERS_PERMISSIONS_CONFIG advanced.email_confirmation_redirection: must start with http:// or https://, got "javascript://"',
    );
    expect(error('{"sessions":{"accessTokenLifespan":-5}}')).toBe(
      'FOLIO_USERS_PERMISSIONS_CONFIG sessions.accessTokenLifespan: must be a positive whole number of seconds',
    );
    expect(error('{"grant":{"myspace":{"enabled":true}}}')).toStartWith('FOLIO_USERS_PERMISSIONS_CONFIG grant: unknown key "myspace"');
    expect(error('{"email":{"reset_password":{"options":{"message":"<% process.exit() %>"}}}}')).toStartWith(
      'FOLIO_USERS_PERMISSIONS_CONFIG email.reset_password.options.message: is not a valid template',
    );
  });

  it('stops start-up with a malformed value, naming the variable', async () => {
    const run = await spawnCli(['migrate'], { env: { FOLIO_USERS_PERMISSIONS_CONFIG: '{"jwtManagement":"refresh","sessions":{"httpOnly":"yes"}}' } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('FOLIO_USERS_PERMISSIONS_CONFIG sessions.httpOnly: must be true or false');
  }, 60_000);
});

describe('FOLIO_PUBLIC_URL', () => {
  it('is Strapi’s server.url: the base of mail links and provider callbacks, http://<host>:<port> when unset', async () => {
    expect(configWith({ FOLIO_PUBLIC_URL: 'https://cms.example.com/' }).publicUrl).toBe('https://cms.example.com');
    expect(() => configWith({ FOLIO_PUBLIC_URL: 'cms.example.com' })).toThrow(
      'FOLIO_PUBLIC_URL must be an http(s) URL such as https://cms.example.com, got "cms.example.com"',
    );
    const server = await start({ publicUrl: 'https://cms.example.com' });
    expect(server.instance.usersPermissions.publicUrl).toBe('https://cms.example.com');
    expect((await server.instance.usersPermissions.grant()).github!.callbackUrl).toBe('https://cms.example.com/api/auth/github/callback');
    const plain = await start({ host: '0.0.0.0', port: 1400 });
    expect(plain.instance.usersPermissions.publicUrl).toBe('http://localhost:1400');
  });
});

describe('defaults', () => {
  it('are Strapi 5.54’s', async () => {
    const server = await start();
    const settings = server.instance.usersPermissions;
    expect(await settings.advanced()).toEqual({
      unique_email: true,
      allow_register: true,
      email_confirmation: false,
      email_reset_password: null,
      email_confirmation_redirection: null,
      default_role: 'authenticated',
    });
    expect(await settings.email()).toEqual(DEFAULT_EMAIL);
    expect((await settings.email()).email_confirmation.options.object).toBe('Account confirmation');
    expect(await settings.grant()).toEqual(defaultGrant('http://127.0.0.1:1337/api/auth'));
    expect(Object.keys(await settings.grant())).toEqual([
      'email',
      'discord',
      'facebook',
      'google',
      'github',
      'microsoft',
      'twitter',
      'instagram',
      'vk',
      'twitch',
      'linkedin',
      'cognito',
      'reddit',
      'auth0',
      'cas',
      'patreon',
      'keycloak',
    ]);
    expect(settings.plugin).toEqual({
      jwtManagement: 'legacy-support',
      sessions: {
        accessTokenLifespan: 600,
        maxRefreshTokenLifespan: 2_592_000,
        idleRefreshTokenLifespan: 1_209_600,
        maxSessionLifespan: 86_400,
        idleSessionLifespan: 7_200,
        httpOnly: false,
        cookie: {},
      },
      ratelimit: { enabled: true, interval: 60_000, max: 10 },
      jwt: { expiresIn: '30d' },
      register: { allowedFields: [] },
    });
  });
});

describe('which source wins', () => {
  it('FOLIO_USERS_PERMISSIONS_CONFIG, then FOLIO_ALLOW_REGISTER, then the stored value, then Strapi’s default', async () => {
    const dataDir = serverTempDir();
    let server = await start({}, dataDir);
    expect((await register(server, 'open1')).status).toBe(200);
    // Stored (the admin's Advanced settings, or an import): applies from the next request on; a second write replaces the first.
    await server.instance.usersPermissions.write('advanced', { allow_register: true, unique_email: false });
    await server.instance.usersPermissions.write('advanced', { allow_register: false });
    const closed = await register(server, 'closed1');
    expect(closed).toMatchObject({ status: 400, body: { error: { name: 'ApplicationError', message: 'Register action is currently disabled' } } });
    await server.stop({ keepData: true });
    servers.splice(servers.indexOf(server), 1);

    // The single-purpose variable wins over the stored value.
    server = await start({ allowRegister: true }, dataDir);
    expect((await register(server, 'open2')).status).toBe(200);
    await server.stop({ keepData: true });
    servers.splice(servers.indexOf(server), 1);

    // FOLIO_USERS_PERMISSIONS_CONFIG wins over both.
    server = await start({ allowRegister: true, usersPermissions: { advanced: { allow_register: false } } }, dataDir);
    expect((await register(server, 'closed2')).status).toBe(400);
    expect(await server.instance.usersPermissions.stored()).toEqual({ advanced: { allow_register: false, unique_email: false } });
  });

  it('takes the stored value written by another process on the next request', async () => {
    const server = await start();
    expect((await register(server, 'before')).status).toBe(200);
    // Written straight into the table, as another instance or the CLI would.
    await server.instance.db.transaction((tx) =>
      tx.run(
        `INSERT INTO folio_plugin_store ("key", "value", "updatedAt") VALUES ('users-permissions_advanced', '{"allow_register":false}', '2020-01-01T00:00:00.000Z')`,
      ),
    );
    expect((await register(server, 'after')).status).toBe(400);
  });

  it('ignores a stored value that does not pass the checks (the defaults apply), and refuses to store one', async () => {
    const server = await start();
    await server.instance.db.transaction((tx) =>
      tx.run(
        `INSERT INTO folio_plugin_store ("key", "value", "updatedAt") VALUES ('users-permissions_advanced', '{"allow_register":"nope"}', '2020-01-01T00:00:00.000Z')`,
      ),
    );
    expect((await server.instance.usersPermissions.advanced()).allow_register).toBe(true);
    expect(server.instance.usersPermissions.write('advanced', { default_role: 42 })).rejects.toThrow('advanced.default_role: must be a string');
  });

  it('takes ratelimit and jwt.expiresIn from FOLIO_USERS_PERMISSIONS_CONFIG over FOLIO_AUTH_RATE_LIMIT and FOLIO_JWT_EXPIRES_IN', async () => {
    const server = await start({
      authRateLimit: { max: 100, windowMs: 60_000 },
      jwtExpiresIn: '30d',
      usersPermissions: { ratelimit: { max: 2 }, jwt: { expiresIn: 3600 } },
    });
    const first = await register(server, 'limited');
    const { exp, iat } = decodeJwt(first.body.jwt);
    expect(exp! - iat!).toBe(3600);
    const login = () => server.call('POST', '/api/auth/local', { body: { identifier: 'limited', password: 'Passw0rd!' } });
    expect([(await login()).status, (await login()).status, (await login()).status]).toEqual([200, 200, 429]);
  });

  it('turns the rate limit off with ratelimit.enabled: false', async () => {
    const server = await start({ authRateLimit: { max: 1, windowMs: 60_000 }, usersPermissions: { ratelimit: { enabled: false } } });
    const login = () => server.call('POST', '/api/auth/local', { body: { identifier: 'nobody', password: 'Passw0rd!' } });
    expect([(await login()).status, (await login()).status, (await login()).status]).toEqual([400, 400, 400]);
  });
});
