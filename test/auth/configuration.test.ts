/**
 * The composition root: settings come from the Config alone (only src/config.ts reads the
 * environment), and the services the routes use (the auth rate limiter among them) belong to
 * the instance, not to whichever app happens to be serving it.
 */
import { afterAll, describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { decodeJwt, jwtVerify } from 'jose';
import { resolveConfig } from '../../src/config';
import { createApp } from '../../src/app';
import { startServer, type TestServer } from '../helpers/server';

const SRC = resolve(import.meta.dir, '../../src');
const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.stop())));

async function start(config: Parameters<typeof startServer>[0] = {}) {
  const server = await startServer({ publicAccess: false, ...config });
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

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('configuration', () => {
  it('is the only reader of the environment: no other source file touches process.env, but the memory hint that runs before it loads', () => {
    const readers = sourceFiles(SRC).filter((file) => /process\.env|Bun\.env/.test(readFileSync(file, 'utf8')));
    // cli/memory-hint.ts re-executes `serve` before the program (config.ts included) is loaded.
    expect(readers.map((file) => relative(SRC, file)).sort()).toEqual(['cli/memory-hint.ts', 'config.ts']);
  });

  it('reads the JWT lifetime and the secrets from FOLIO_JWT_EXPIRES_IN, FOLIO_API_TOKEN_SALT and FOLIO_JWT_SECRET', () => {
    const unset = { FOLIO_JWT_EXPIRES_IN: undefined, FOLIO_API_TOKEN_SALT: undefined, FOLIO_JWT_SECRET: undefined };
    expect(withEnv(unset, () => resolveConfig())).toMatchObject({ jwtExpiresIn: '30d', secrets: { apiTokenSalt: undefined, jwtSecret: undefined } });
    const set = { FOLIO_JWT_EXPIRES_IN: '12h', FOLIO_API_TOKEN_SALT: 'salt-from-env', FOLIO_JWT_SECRET: 'secret-from-env' };
    expect(withEnv(set, () => resolveConfig())).toMatchObject({
      jwtExpiresIn: '12h',
      secrets: { apiTokenSalt: 'salt-from-env', jwtSecret: 'secret-from-env' },
    });
  });

  it('signs user JWTs with the configured secret and lifetime', async () => {
    const jwtSecret = 'a-configured-secret-of-some-length';
    const server = await start({ config: { jwtExpiresIn: '2h', secrets: { jwtSecret } } });
    expect(server.instance.secrets.jwtSecret).toBe(jwtSecret);
    const res = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'configured', email: 'configured@example.com', password: 'Passw0rd!' },
    });
    expect(res.status).toBe(200);
    await jwtVerify(res.body.jwt, new TextEncoder().encode(jwtSecret), { algorithms: ['HS256'] });
    const { exp, iat } = decodeJwt(res.body.jwt);
    expect(exp! - iat!).toBe(2 * 60 * 60);
  });
});

describe('services of the instance', () => {
  it('counts /api/auth/* requests in the instance, so two apps serving one instance share the budget', async () => {
    const server = await start({ config: { authRateLimit: { max: 2, windowMs: 60_000 } } });
    const second = createApp(server.instance).listen({ port: 0, hostname: '127.0.0.1' });
    try {
      const forgot = (base: string) =>
        fetch(`${base}/api/auth/forgot-password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'nobody@example.com' }),
        });
      expect([(await forgot(server.url)).status, (await forgot(server.url)).status]).toEqual([200, 200]);
      expect((await forgot(`http://127.0.0.1:${second.server!.port}`)).status).toBe(429);
    } finally {
      await second.stop(true);
    }
  });
});
