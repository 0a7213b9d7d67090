/**
 * Every answer carries an X-Request-Id (a short safe one sent by the client is kept, any
 * other replaced), and an unexpected error is logged with that id and its stack while the
 * client gets the bare 500 envelope. The log is captured through an injected sink.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createApp } from '../../src/app';
import { createLogger, type LogLevel } from '../../src/log';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let app: ReturnType<typeof createApp>;
let url: string;
const logged: { level: LogLevel; line: string }[] = [];

beforeAll(async () => {
  server = await startServer();
  // A second app over the same installation, logging every line into `logged`.
  const log = createLogger({ level: 'debug', format: 'json', sink: { write: (line, level) => logged.push({ level, line }) } });
  app = createApp(server.instance, { log }).listen({ port: 0, hostname: '127.0.0.1' });
  url = `http://127.0.0.1:${app.server!.port}`;
});
afterAll(async () => {
  await app.stop(true);
  await server.stop();
});

const entries = () => logged.map((l) => ({ level: l.level, ...JSON.parse(l.line) }));

/** Polls (bounded) for a log entry: the line is written once the answer is ready, around the time the client reads it. */
async function entry(match: (e: Record<string, any>) => boolean): Promise<Record<string, any>> {
  for (let i = 0; i < 500; i++) {
    const found = entries().find(match);
    if (found) return found;
    await Bun.sleep(5);
  }
  throw new Error(`no such log entry in:\n${logged.map((l) => l.line).join('\n')}`);
}

describe('X-Request-Id', () => {
  it('is on every answer: content, errors, 404s, preflights and files, each a new one', async () => {
    const ids = new Set<string>();
    const requests: [string, RequestInit][] = [
      ['/api/articles', {}],
      ['/api/articles/nope', {}],
      ['/nowhere', {}],
      ['/_health', { method: 'HEAD' }],
      ['/api/articles', { method: 'OPTIONS', headers: { origin: 'http://x.test', 'access-control-request-method': 'GET' } }],
      [`/api/articles?${'a'.repeat(20_000)}=1`, {}],
      ['/uploads/missing_0123456789.png', {}],
    ];
    for (const [path, init] of requests) {
      const res = await fetch(url + path, init);
      await res.arrayBuffer();
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(id!);
    }
    expect(ids.size).toBe(requests.length);
  });

  it('keeps a short safe id the client sent and replaces anything else', async () => {
    const kept = await fetch(`${url}/api/articles`, { headers: { 'x-request-id': 'edge-7f3a.01:b_c' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-7f3a.01:b_c');
    for (const sent of ['a'.repeat(65), 'has space', '<script>', 'quote"d', 'ünïcode', '']) {
      const res = await fetch(`${url}/api/articles`, { headers: { 'x-request-id': sent } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('logs each request with the same id the answer carries', async () => {
    const res = await fetch(`${url}/api/tags?populate=*`);
    const id = res.headers.get('x-request-id')!;
    const line = await entry((e) => e.requestId === id);
    expect(line).toMatchObject({ level: 'info', msg: 'request', method: 'GET', path: '/api/tags', status: 200 });
  });
});

describe('unexpected errors', () => {
  it('answers the bare 500 envelope and logs the error (its stack where the engine gives one) under the request id of the answer', async () => {
    const ct = server.instance.registry.contentType('api::category.category')!;
    await server.instance.db.exec(`ALTER TABLE "${ct.tableName}" RENAME TO "${ct.tableName}_gone"`);
    try {
      const res = await fetch(`${url}/api/categories`);
      const body = await res.json();
      expect(res.status).toBe(500);
      expect(body).toEqual({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } });
      const id = res.headers.get('x-request-id')!;
      const error = await entry((e) => e.msg === 'unexpected error' && e.requestId === id);
      expect(error.level).toBe('error');
      expect(error.error).toContain(ct.tableName);
      expect(await entry((e) => e.msg === 'request' && e.requestId === id)).toMatchObject({ level: 'error', status: 500 });
    } finally {
      await server.instance.db.exec(`ALTER TABLE "${ct.tableName}_gone" RENAME TO "${ct.tableName}"`);
    }
    expect((await fetch(`${url}/api/categories`)).status).toBe(200);
  });
});
