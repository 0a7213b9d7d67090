/**
 * GET /_health asks the database (issue 18): 204 as Strapi answers while it does, a 503
 * envelope with Retry-After when it does not, so a load balancer or an orchestrator takes
 * the instance out of rotation, and 204 again once the database is back.
 */
import { afterEach, describe, expect, it } from 'bun:test';
import { SQL } from 'bun';
import { startServer, TEST_DATABASE_URL, type TestServer } from '../helpers/server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function health(method: 'GET' | 'HEAD' = 'GET') {
  const res = await fetch(`${server!.url}/_health`, { method });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** Polls (bounded) until /_health answers `status`: a pool notices a lost connection on its next use. */
async function healthBecomes(status: number) {
  let last = 0;
  for (let i = 0; i < 300 && last !== status; i++) {
    last = (await health()).status;
    if (last !== status) await Bun.sleep(20);
  }
  expect(last).toBe(status);
}

const expect503 = (res: Awaited<ReturnType<typeof health>>, method: 'GET' | 'HEAD') => {
  expect(res.status).toBe(503);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  if (method === 'GET') {
    expect(res.body).toEqual({ data: null, error: { status: 503, name: 'ServiceUnavailableError', message: 'The database is not answering', details: {} } });
  }
};

describe('GET /_health', () => {
  it('answers 204 with no body while the database answers, and a 503 envelope with Retry-After once it is closed under the running server', async () => {
    server = await startServer();
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await health(method);
      expect(res.status).toBe(204);
      expect(res.body).toBeNull();
    }
    server.instance.db.close();
    for (const method of ['GET', 'HEAD'] as const) expect503(await health(method), method);
  });

  it.skipIf(!TEST_DATABASE_URL)('answers 503 while PostgreSQL refuses the connections of its database, and 204 again once it takes them', async () => {
    server = await startServer();
    const name = new URL(server.instance.config.databaseUrl!).pathname.slice(1);
    const admin = new SQL(TEST_DATABASE_URL!);
    try {
      expect((await health()).status).toBe(204);
      await admin.unsafe(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
      await admin.unsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
      await healthBecomes(503);
      expect503(await health(), 'GET');
      await admin.unsafe(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
      await healthBecomes(204);
      expect((await fetch(`${server.url}/api/articles`)).status).toBe(200);
    } finally {
      await admin.unsafe(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
      await admin.close();
    }
  });
});
