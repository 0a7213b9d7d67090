/**
 * A server that says what it does (issue 18): one log line per request, text or JSON
 * (FOLIO_LOG_FORMAT / --log-format), a level (FOLIO_LOG_LEVEL), and a start-up screen
 * listing the routes and, on a new installation, the commands that open them.
 * Request ids and unexpected errors: test/http/request-id.test.ts.
 */
import { afterAll, afterEach, describe, expect, it } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_DATABASE_URL } from '../helpers/server';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import {
  cleanEnv,
  cliCommand,
  cliSpawnOptions,
  copyContentTypes,
  killSpawned,
  lines,
  removeTempDirs,
  ROOT,
  runCli,
  serve,
  spawnServer,
  tempDir,
  type ServeOptions,
} from '../helpers/spawn';

afterEach(killSpawned);
const databases: string[] = [];
afterAll(async () => {
  removeTempDirs();
  if (TEST_DATABASE_URL && databases.length) await dropDatabases(TEST_DATABASE_URL, databases);
}, 30_000);

/** The flags of a new installation: a temp data dir, and on PostgreSQL a scratch database of its own. */
async function installation(): Promise<{ data: string; database?: string }> {
  const data = tempDir();
  if (!TEST_DATABASE_URL) return { data };
  const database = await createDatabase(TEST_DATABASE_URL, 'folio_log');
  databases.push(database);
  return { data, database };
}

/** Polls (bounded) until the output holds a line matching `pattern`: a log line is written after its answer. */
async function lineMatching(read: () => string, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 500; i++) {
    const line = read()
      .split('\n')
      .find((l) => pattern.test(l));
    if (line) return line;
    await Bun.sleep(10);
  }
  throw new Error(`no line matching ${pattern} in:\n${read()}`);
}

const JSON_LISTENING = /"msg":"Folio listening on (http:\/\/[^"\s]+)"/;

function serveJson(options: ServeOptions, args: string[] = []) {
  return spawnServer(cliCommand(['serve', '--port', '0', ...args], options), { ...cliSpawnOptions(options), listening: JSON_LISTENING });
}

/** Every non-empty line parsed as JSON (throws, naming the line, when one is not). */
function jsonLines(text: string): Record<string, any>[] {
  return lines(text).map((line) => {
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(`not a JSON line: ${line}`);
    }
  });
}

describe('request log lines', () => {
  it('logs one line per request: method, path without the query string, status, duration and bytes, never a token or query value', async () => {
    const where = await installation();
    const key = lines(runCli(['token', 'create', '--name', 'logs', '--type', 'read-only'], where).stdout).at(-1)!;
    const server = await serve(where);
    const res = await fetch(`${server.url}/api/articles?filters[title][$eq]=private-words&pagination[pageSize]=5`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = await res.arrayBuffer();
    expect(res.status).toBe(200);
    const line = await lineMatching(server.stdout, /^GET \/api\/articles /);
    expect(line).toMatch(new RegExp(`^GET /api/articles 200 \\d+(\\.\\d+)?ms ${body.byteLength}B$`));
    await fetch(`${server.url}/api/nothing`);
    expect(await lineMatching(server.stdout, /^GET \/api\/nothing /)).toMatch(/^GET \/api\/nothing 404 \S+ms \d+B$/);
    await server.stop();
    const all = server.stdout() + server.stderr();
    expect(all).not.toContain(key);
    expect(all).not.toContain('private-words');
    expect(all).not.toContain('pageSize');
  });

  it('writes no request line and no start-up line with FOLIO_LOG_LEVEL=warn, and refuses a level it does not know', async () => {
    const where = await installation();
    // Nothing says where it listens at this level: give it a port and poll it.
    const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
    const port = probe.port;
    probe.stop(true);
    const proc = Bun.spawn(cliCommand(['serve', '--port', String(port)], where), {
      ...cliSpawnOptions({ env: { FOLIO_LOG_LEVEL: 'warn' } }),
      stdout: 'pipe',
      stderr: 'pipe',
    });
    let status = 0;
    for (let i = 0; i < 1000 && status !== 204; i++) {
      status = await fetch(`http://127.0.0.1:${port}/_health`).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 204) await Bun.sleep(20);
    }
    expect(status).toBe(204);
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(await new Response(proc.stdout).text()).toBe('');
    expect(await new Response(proc.stderr).text()).toBe('');
    const bad = runCli(['serve', '--port', '0'], { ...where, env: { FOLIO_LOG_LEVEL: 'loud' } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('FOLIO_LOG_LEVEL must be one of debug, info, warn, error, got "loud"');
  });
});

describe('JSON logs', () => {
  it('writes every line as JSON with FOLIO_LOG_FORMAT=json: start-up lines, schema warnings and request lines with their fields', async () => {
    const where = await installation();
    // A schema key Folio does not know: start-up warns about it (on stderr).
    const contentTypes = copyContentTypes();
    const tagFile = join(contentTypes, 'tag.json');
    const tag = JSON.parse(readFileSync(tagFile, 'utf8'));
    tag.attributes.name.requierd = true;
    writeFileSync(tagFile, JSON.stringify(tag));
    const server = await serveJson({ ...where, contentTypes, env: { FOLIO_LOG_FORMAT: 'json' } });
    const res = await fetch(`${server.url}/api/tags?sort=name`, { headers: { 'x-request-id': 'trace-42' } });
    expect(res.status).toBe(403);
    await lineMatching(server.stdout, /"msg":"request"/);
    await server.stop();
    const out = jsonLines(server.stdout());
    const err = jsonLines(server.stderr());
    for (const entry of [...out, ...err]) {
      // (typeof, not toMatchObject with expect.any: Bun's writes the matchers into the object it checks)
      expect([typeof entry.level, typeof entry.msg]).toEqual(['string', 'string']);
      expect(Number.isNaN(Date.parse(entry.time))).toBe(false);
    }
    expect(err.some((e) => e.level === 'warn' && /unknown key "requierd"/.test(e.msg))).toBe(true);
    expect(out.find((e) => e.msg === 'content type' && e.uid === 'api::tag.tag')).toMatchObject({
      routes: ['GET|POST /api/tags', 'GET|PUT|DELETE /api/tags/:documentId'],
    });
    expect(out.find((e) => e.msg.startsWith('Folio listening on'))).toMatchObject({ url: server.url });
    const request = out.find((e) => e.msg === 'request')!;
    expect(request).toMatchObject({
      level: 'info',
      method: 'GET',
      path: '/api/tags',
      status: 403,
      requestId: 'trace-42',
      bytes: Number(res.headers.get('content-length')),
    });
    expect(request.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('takes serve --log-format json as well, and exits 2 for another format', async () => {
    const where = await installation();
    const server = await serveJson(where, ['--log-format', 'json']);
    await fetch(`${server.url}/_health`);
    await lineMatching(server.stdout, /"path":"\/_health"/);
    await server.stop();
    expect(jsonLines(server.stdout()).length).toBeGreaterThan(3);
    const bad = runCli(['serve', '--port', '0', '--log-format', 'xml'], where);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--log-format must be text or json');
  });
});

describe('a failed start with JSON logs', () => {
  it('is one JSON error line naming the cause, exit 1, for a port in use and for a broken schema', async () => {
    const where = await installation();
    const first = await serve(where);
    const taken = runCli(['serve', '--port', String(first.port)], { ...where, env: { FOLIO_LOG_FORMAT: 'json' } });
    expect(taken.code).toBe(1);
    const [line, ...more] = jsonLines(taken.stderr);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: 'error', msg: `Port ${first.port} on 127.0.0.1 is already in use` });
    await first.stop();
    const contentTypes = copyContentTypes();
    writeFileSync(join(contentTypes, 'tag.json'), '{ not json');
    const broken = runCli(['serve', '--port', '0'], { ...where, contentTypes, env: { FOLIO_LOG_FORMAT: 'json' } });
    expect(broken.code).toBe(1);
    expect(jsonLines(broken.stderr).map((e) => [e.level, e.msg.startsWith('Invalid content type: ') && e.msg.includes('tag.json')])).toEqual([['error', true]]);
  });
});

describe('the start-up screen', () => {
  it('lists each content type with its routes, and on a new installation says content answers 403 and prints commands that work as printed', async () => {
    // Without the example content a new installation of the example types would start with (test/cli/first-start.test.ts).
    const where = { ...(await installation()), env: { FOLIO_EXAMPLE_CONTENT: 'false' } };
    const first = await serve(where);
    await first.stop();
    const out = first.stdout();
    expect(out).toMatch(/^Folio \d+\.\d+\.\d+: 6 content type\(s\)$/m);
    expect(out).toMatch(/^ {2}api::article\.article +GET\|POST \/api\/articles {2}GET\|PUT\|DELETE \/api\/articles\/:documentId$/m);
    expect(out).toMatch(/^ {2}api::global\.global +GET\|PUT\|DELETE \/api\/global$/m);
    expect(out).toContain('every content route answers 403');
    const grant = out.match(/^ {2}Let anyone read articles: {2}(.+)$/m)![1]!;
    const token = out.match(/^ {2}Or create a token .*: {2}(.+)$/m)![1]!;
    expect(grant).toContain(' permissions grant public api::article.article.find api::article.article.findOne --data ');
    expect(token).toContain(' token create --name dev --type full-access --data ');
    if (where.database) {
      // The password never reaches the log: the printed URL masks it.
      const password = new URL(where.database).password;
      expect(out).not.toContain(`:${password}@`);
      expect(grant).toContain(':****@');
    }
    // Paste them into a shell, as a user would (only the masked password put back).
    const unmask = (command: string) => (where.database ? command.replace(':****@', `:${new URL(where.database).password}@`) : command);
    for (const command of [grant, token]) {
      const run = Bun.spawnSync(['sh', '-c', unmask(command)], { cwd: ROOT, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' });
      expect(`${run.exitCode} ${run.stderr.toString().replace(/npm warn.*\n/g, '')}`).toBe('0 ');
    }
    const second = await serve(where);
    expect((await fetch(`${second.url}/api/articles`)).status).toBe(200);
    await second.stop();
    expect(second.stdout()).not.toContain('answers 403');
  }, 60_000);
});
