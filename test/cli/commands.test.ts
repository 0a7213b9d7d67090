/**
 * The CLI run from source (`bun src/cli.ts …`) as a user runs it: real processes, real
 * SQLite files in temp data dirs, real servers on 127.0.0.1 with port 0.
 */
import { Database } from 'bun:sqlite';
import { afterAll, afterEach, describe, expect, it } from 'bun:test';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../..');
const CLI = join(ROOT, 'src/cli.ts');
const BUN = process.execPath;
const CONTENT_TYPES = join(ROOT, 'content-types');
const COMMANDS = ['serve', 'migrate', 'locales', 'permissions', 'token', 'init'];
const SLOW = 30_000;

const temps: string[] = [];
function tempDir(prefix = 'folio-cli-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The environment without anything that would steer Folio (so the flags under test decide). */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('FOLIO_') || k === 'PORT' || k === 'HOST') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  /** --data; pass null to leave the flag out. */
  data?: string | null;
  /** --content-types; pass null to leave the flag out. */
  contentTypes?: string | null;
  env?: Record<string, string>;
  cwd?: string;
}

/** `bun src/cli.ts ARGS --data DATA --content-types CT`, synchronously. */
function cli(args: string[], options: RunOptions = {}): Run {
  const flags: string[] = [];
  if (options.data !== null) flags.push('--data', options.data ?? tempDir());
  if (options.contentTypes !== null) flags.push('--content-types', options.contentTypes ?? CONTENT_TYPES);
  const result = Bun.spawnSync([BUN, CLI, ...args, ...flags], {
    cwd: options.cwd ?? ROOT,
    env: cleanEnv(options.env),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return { code: result.exitCode ?? -1, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/** Like cli() but with no flags at all. */
const bare = (args: string[], options: Omit<RunOptions, 'data' | 'contentTypes'> = {}) =>
  cli(args, { ...options, data: null, contentTypes: null });

const lines = (text: string) => text.split('\n').filter((l) => l.length > 0);

/** A private copy of the example content types that a test may edit. */
function copyContentTypes(): string {
  const dir = join(tempDir('folio-ct-'), 'content-types');
  cpSync(CONTENT_TYPES, dir, { recursive: true });
  return dir;
}

function tableNames(dataDir: string): string[] {
  const file = join(dataDir, 'folio.db');
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true });
  try {
    return db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((r) => r.name);
  } finally {
    db.close();
  }
}

function columnNames(dataDir: string, table: string): string[] {
  const db = new Database(join(dataDir, 'folio.db'), { readonly: true });
  try {
    return db.query<{ name: string }, []>(`PRAGMA table_info("${table}")`).all().map((r) => r.name);
  } finally {
    db.close();
  }
}

function withDb<T>(dataDir: string, fn: (db: Database) => T): T {
  const db = new Database(join(dataDir, 'folio.db'));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------
// serve helpers

function timeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
    }),
  ]);
}

interface Served {
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
  port: number;
  stdout(): string;
  /** SIGTERM, then the exit code (rejects if the process does not exit). */
  stop(): Promise<number>;
}

const running = new Set<ReturnType<typeof Bun.spawn>>();
afterEach(() => {
  // Only the servers this file started, each by its own handle.
  for (const proc of running) if (proc.exitCode === null && !proc.killed) proc.kill('SIGKILL');
  running.clear();
});

/** Starts `serve --port 0` and waits for "Folio listening on http://127.0.0.1:<port>". */
async function serve(dataDir: string, contentTypes = CONTENT_TYPES): Promise<Served> {
  const proc = Bun.spawn([BUN, CLI, 'serve', '--port', '0', '--data', dataDir, '--content-types', contentTypes], {
    cwd: ROOT,
    env: cleanEnv(),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  running.add(proc);
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let out = '';
  const listening = /^Folio listening on (http:\/\/127\.0\.0\.1:(\d+))$/m;
  let match: RegExpMatchArray | null = null;
  await timeout(
    (async () => {
      while (!(match = out.match(listening))) {
        const chunk = await reader.read();
        if (chunk.done) {
          const err = await new Response(proc.stderr as ReadableStream).text();
          throw new Error(`serve ended before listening (exit ${await proc.exited})\nstdout: ${out}\nstderr: ${err}`);
        }
        out += decoder.decode(chunk.value, { stream: true });
      }
    })(),
    15_000,
    'waiting for "Folio listening on"',
  );
  // Keep draining stdout so the server never blocks on a full pipe.
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) break;
      out += decoder.decode(chunk.value, { stream: true });
    }
  })();
  const m = match as unknown as RegExpMatchArray;
  return {
    proc,
    url: m[1]!,
    port: Number(m[2]),
    stdout: () => out,
    async stop() {
      proc.kill('SIGTERM');
      const code = await timeout(proc.exited, 10_000, 'serve to exit after SIGTERM');
      running.delete(proc);
      return code;
    },
  };
}

// ---------------------------------------------------------------------------------------

describe('help and usage errors', () => {
  it('prints the overall usage with every command and exits 0 for --help, -h and help', () => {
    for (const word of ['--help', '-h', 'help']) {
      const run = bare([word]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Usage: folio <command>');
      for (const command of COMMANDS) expect(run.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });

  it.each(COMMANDS)('prints the usage of "%s --help" and exits 0 without touching the data directory', (command) => {
    const data = join(tempDir(), 'never-created');
    const run = cli([command, '--help'], { data });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`folio ${command}`);
    expect(run.stdout).toContain('Usage');
    expect(run.stdout).toContain('--data DIR');
    expect(run.stdout).toContain('--content-types DIR');
    expect(existsSync(data)).toBe(false);
  });

  it('prints the usage and exits 2 when no command is given', () => {
    const run = bare([]);
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain('Usage: folio <command>');
  });

  it('exits 2 and names an unknown command on stderr', () => {
    const run = cli(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('frobnicate');
    expect(run.stderr).toContain('Usage: folio <command>');
  });

  it('exits 2 with the command usage on stderr for a flag the command does not know', () => {
    const data = tempDir();
    const run = cli(['migrate', '--bogus'], { data });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--bogus');
    expect(run.stderr).toContain('Usage: folio migrate');
    expect(run.stdout).toBe('');
    expect(tableNames(data)).toEqual([]);
  });

  it.each([
    ['locales add', ['locales', 'add'], 'folio locales add'],
    ['locales with no sub-command', ['locales'], 'folio locales list'],
    ['permissions grant public', ['permissions', 'grant', 'public'], 'folio permissions grant'],
    ['token create --type read-only (no --name)', ['token', 'create', '--type', 'read-only'], 'folio token create'],
    ['token create --name x --type admin', ['token', 'create', '--name', 'x', '--type', 'admin'], 'folio token create'],
    ['token create --lifespan-days 0', ['token', 'create', '--name', 'x', '--type', 'read-only', '--lifespan-days', '0'], 'folio token create'],
    ['token revoke (no name)', ['token', 'revoke'], 'folio token revoke'],
    ['migrate with a stray argument', ['migrate', 'now'], 'folio migrate'],
  ])('exits 2 with the usage on stderr for a missing or wrong argument: %s', (_label, args, usage) => {
    const run = cli(args as string[]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(usage as string);
  });

  it('creates no token when token create is called with a wrong --type', () => {
    const data = tempDir();
    expect(cli(['token', 'create', '--name', 'x', '--type', 'admin'], { data }).code).toBe(2);
    const list = cli(['token', 'list'], { data });
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain('x\t');
  });
});

describe('migrate', () => {
  it('lists the tables and indexes it would create on a fresh data dir with --dry-run, and creates none of them', () => {
    const data = tempDir();
    const first = cli(['migrate', '--dry-run'], { data });
    expect(first.code).toBe(0);
    for (const table of ['articles', 'authors', 'categories', 'tags', 'globals', 'homepages']) {
      expect(first.stdout).toMatch(new RegExp(`^would create table ${table}$`, 'm'));
    }
    expect(first.stdout).toMatch(/^would create index articles_version_uq$/m);
    expect(first.stdout).toMatch(/^  CREATE TABLE "articles" \(/m);
    expect(first.stdout).toMatch(/change\(s\) planned; nothing applied \(dry run\)/);
    expect(first.stdout).not.toMatch(/^create table/m);

    const tables = tableNames(data);
    expect(tables).not.toContain('articles');
    expect(tables).not.toContain('tags');

    const second = cli(['migrate', '--dry-run'], { data });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^would create table articles$/m);
    expect(second.stdout).not.toContain('content tables are up to date');
  });

  it('applies no system migration with --dry-run either (it promises to change nothing)', () => {
    const data = tempDir();
    const run = cli(['migrate', '--dry-run'], { data });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('nothing applied (dry run)');
    expect(lines(run.stdout).filter((l) => l.startsWith('applied'))).toEqual([]);
    expect(tableNames(data)).toEqual([]);
  });

  it('applies the plan, and a second migrate reports that the content tables are up to date', () => {
    const data = tempDir();
    const first = cli(['migrate'], { data });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^applied system migration 0001_system$/m);
    expect(first.stdout).toMatch(/^create table articles$/m);
    expect(first.stdout).toMatch(/^\d+ change\(s\) applied$/m);
    expect(first.stdout).not.toContain('would');
    const tables = tableNames(data);
    for (const table of ['articles', 'authors', 'categories', 'tags', 'globals', 'homepages', 'folio_locales', 'folio_api_tokens']) {
      expect(tables).toContain(table);
    }
    expect(columnNames(data, 'articles')).toEqual(expect.arrayContaining(['documentId', 'locale', 'publishedAt', 'title', 'slug', 'views']));

    const second = cli(['migrate'], { data });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('content tables are up to date');
    expect(second.stdout).not.toMatch(/^(create|add|applied)/m);

    const dry = cli(['migrate', '--dry-run'], { data });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('content tables are up to date');
    expect(dry.stdout).not.toContain('would');
  });
});

describe('schema evolution', () => {
  // The tests below run in order on one data dir and one copy of the content types.
  const data = tempDir();
  const types = copyContentTypes();
  const articleFile = join(types, 'article.json');
  const original = readFileSync(articleFile, 'utf8');
  const documentId = 'evolutionaaaaaaaaaaaaaaa';

  it('adds a column for a new attribute: --dry-run shows it without applying, migrate applies it', () => {
    expect(cli(['migrate'], { data, contentTypes: types }).code).toBe(0);
    const now = new Date().toISOString();
    withDb(data, (db) =>
      db.run('INSERT INTO articles ("documentId", "locale", "createdAt", "updatedAt", "publishedAt", "title") VALUES (?, ?, ?, ?, ?, ?)', [
        documentId, 'en', now, now, now, 'Written before',
      ]),
    );

    const schema = JSON.parse(original);
    schema.attributes.subtitle = { type: 'string' };
    writeFileSync(articleFile, JSON.stringify(schema, null, 2));

    const dry = cli(['migrate', '--dry-run'], { data, contentTypes: types });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^would add column articles\.subtitle$/m);
    expect(dry.stdout).toMatch(/ALTER TABLE "articles" ADD COLUMN "subtitle"/);
    expect(columnNames(data, 'articles')).not.toContain('subtitle');

    const applied = cli(['migrate'], { data, contentTypes: types });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^add column articles\.subtitle$/m);
    // A string attribute is sortable, so it gets its (locale, column) index too.
    expect(applied.stdout).toMatch(/^create index articles_subtitle_idx$/m);
    expect(applied.stdout).toMatch(/^2 change\(s\) applied$/m);
    expect(columnNames(data, 'articles')).toContain('subtitle');

    withDb(data, (db) => db.run('UPDATE articles SET "subtitle" = ? WHERE "documentId" = ?', ['A subtitle', documentId]));
    expect(cli(['migrate'], { data, contentTypes: types }).stdout).toContain('content tables are up to date');
  });

  it('keeps the column and its data when the attribute is removed, and migrate does not fail', () => {
    writeFileSync(articleFile, original);

    const dry = cli(['migrate', '--dry-run'], { data, contentTypes: types });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^keep column articles\.subtitle .*data kept/m);
    expect(dry.stdout).not.toMatch(/DROP/i);

    const run = cli(['migrate'], { data, contentTypes: types });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^keep column articles\.subtitle/m);
    expect(run.stdout).toContain('content tables are up to date');
    expect(run.stderr).toBe('');

    expect(columnNames(data, 'articles')).toContain('subtitle');
    const row = withDb(data, (db) =>
      db.query<{ title: string; subtitle: string }, [string]>('SELECT "title", "subtitle" FROM articles WHERE "documentId" = ?').get(documentId),
    );
    expect(row).toEqual({ title: 'Written before', subtitle: 'A subtitle' });
  });

  it('lets the server start and serve the old rows after the attribute was removed', async () => {
    const server = await serve(data, types);
    try {
      expect(cli(['permissions', 'grant', 'public', 'api::article.article.find'], { data, contentTypes: types }).code).toBe(0);
      const response = await fetch(`${server.url}/api/articles`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: Record<string, unknown>[] };
      expect(body.data.map((a) => a.title)).toEqual(['Written before']);
      expect(body.data[0]).not.toHaveProperty('subtitle');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, SLOW);
});

describe('environment variables', () => {
  it('uses FOLIO_DATA and FOLIO_CONTENT_TYPES when the flags are absent', () => {
    const cwd = tempDir();
    const data = join(tempDir(), 'from-env');
    const run = bare(['migrate'], { cwd, env: { FOLIO_DATA: data, FOLIO_CONTENT_TYPES: CONTENT_TYPES } });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^create table articles$/m);
    expect(tableNames(data)).toContain('articles');
    expect(readdirSync(cwd)).toEqual([]);

    const locales = bare(['locales', 'list'], { cwd, env: { FOLIO_DATA: data, FOLIO_CONTENT_TYPES: CONTENT_TYPES } });
    expect(locales.code).toBe(0);
    expect(locales.stdout).toMatch(/^en\t/m);
  });

  it('fails naming the folder when neither flag nor FOLIO_CONTENT_TYPES points at content types and ./content-types is missing', () => {
    const cwd = tempDir();
    const run = bare(['migrate'], { cwd, env: { FOLIO_DATA: join(cwd, 'd') } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('content-types');
  });

  it('lets --data and --content-types win over FOLIO_DATA and FOLIO_CONTENT_TYPES', () => {
    const cwd = tempDir();
    const fromEnv = join(tempDir(), 'env-data');
    const fromFlag = join(tempDir(), 'flag-data');
    const run = cli(['migrate'], {
      cwd,
      data: fromFlag,
      contentTypes: CONTENT_TYPES,
      env: { FOLIO_DATA: fromEnv, FOLIO_CONTENT_TYPES: join(cwd, 'missing') },
    });
    expect(run.code).toBe(0);
    expect(tableNames(fromFlag)).toContain('articles');
    expect(existsSync(fromEnv)).toBe(false);
  });
});

describe('locales', () => {
  it('lists en as the only locale and the default on a new database', () => {
    const run = cli(['locales', 'list']);
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(1);
    expect(run.stdout).toMatch(/^en\t.*\(default\)$/m);
  });

  it('adds fr with its name and makes it the default on request, en no longer being the default', () => {
    const data = tempDir();
    const add = cli(['locales', 'add', 'fr', '--name', 'French'], { data });
    expect(add.code).toBe(0);
    const listed = cli(['locales', 'list'], { data }).stdout;
    expect(listed).toMatch(/^fr\tFrench$/m);
    expect(listed).toMatch(/^en\t.*\(default\)$/m);

    const def = cli(['locales', 'default', 'fr'], { data });
    expect(def.code).toBe(0);
    const after = cli(['locales', 'list'], { data }).stdout;
    expect(after).toMatch(/^fr\tFrench\t\(default\)$/m);
    expect(after).toMatch(/^en\t/m);
    expect(after).not.toMatch(/^en\t.*\(default\)/m);
    expect(after.match(/\(default\)/g)).toHaveLength(1);
  });

  it('refuses to add a locale that exists with exit 1 and a message naming it', () => {
    const data = tempDir();
    expect(cli(['locales', 'add', 'fr', '--name', 'French'], { data }).code).toBe(0);
    const again = cli(['locales', 'add', 'fr'], { data });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/"fr".*already exists/);
    expect(again.stderr).not.toContain('    at ');
    expect(lines(cli(['locales', 'list'], { data }).stdout).filter((l) => l.startsWith('fr\t'))).toHaveLength(1);
  });

  it('refuses an unknown locale as default with exit 1 and keeps the current default', () => {
    const data = tempDir();
    const run = cli(['locales', 'default', 'xx'], { data });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('"xx"');
    expect(run.stderr).not.toContain('    at ');
    expect(cli(['locales', 'list'], { data }).stdout).toMatch(/^en\t.*\(default\)$/m);
  });
});

describe('permissions', () => {
  // A new installation grants what Strapi's users & permissions plugin grants: logging in for
  // the public, the own account for users. No content action.
  const DEFAULTS = [
    'authenticated\tplugin::users-permissions.auth.changePassword',
    'authenticated\tplugin::users-permissions.user.me',
    'public\tplugin::users-permissions.auth.callback',
    'public\tplugin::users-permissions.auth.forgotPassword',
    'public\tplugin::users-permissions.auth.register',
    'public\tplugin::users-permissions.auth.resetPassword',
  ];
  const contentOnly = (stdout: string) => lines(stdout).filter((l) => !l.includes('plugin::users-permissions.'));

  it('grants no content action on a new database, only the users & permissions defaults', () => {
    const run = cli(['permissions', 'list']);
    expect(run.code).toBe(0);
    expect(lines(run.stdout).sort()).toEqual(DEFAULTS);
    const publicRole = cli(['permissions', 'list', 'public']);
    expect(publicRole.code).toBe(0);
    expect(publicRole.stdout).not.toContain('api::');
  });

  it('lists exactly the granted actions for the role', () => {
    const data = tempDir();
    const grant = cli(['permissions', 'grant', 'public', 'api::article.article.find', 'api::article.article.findOne'], { data });
    expect(grant.code).toBe(0);
    const list = cli(['permissions', 'list', 'public'], { data });
    expect(list.code).toBe(0);
    expect(contentOnly(list.stdout).sort()).toEqual(['public\tapi::article.article.find', 'public\tapi::article.article.findOne']);
    expect(cli(['permissions', 'list', 'authenticated'], { data }).stdout).not.toContain('api::');
  });

  it('expands api::article.article.* to the five actions of the collection type', () => {
    const data = tempDir();
    expect(cli(['permissions', 'grant', 'public', 'api::article.article.*'], { data }).code).toBe(0);
    const list = cli(['permissions', 'list', 'public'], { data });
    expect(contentOnly(list.stdout).sort()).toEqual(
      ['create', 'delete', 'find', 'findOne', 'update'].map((a) => `public\tapi::article.article.${a}`),
    );
  });

  it('revokes only the named action', () => {
    const data = tempDir();
    cli(['permissions', 'grant', 'public', 'api::article.article.find', 'api::article.article.findOne'], { data });
    const revoke = cli(['permissions', 'revoke', 'public', 'api::article.article.find'], { data });
    expect(revoke.code).toBe(0);
    expect(contentOnly(cli(['permissions', 'list', 'public'], { data }).stdout)).toEqual(['public\tapi::article.article.findOne']);
    expect(cli(['permissions', 'revoke', 'public', 'api::article.article.*'], { data }).code).toBe(0);
    expect(cli(['permissions', 'list', 'public'], { data }).stdout).not.toContain('api::');
  });

  it('refuses an unknown action with exit 1 naming it, and grants nothing of the batch', () => {
    const data = tempDir();
    const run = cli(['permissions', 'grant', 'public', 'api::article.article.find', 'api::nope.nope.find'], { data });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('api::nope.nope.find');
    expect(cli(['permissions', 'list', 'public'], { data }).stdout).not.toContain('api::article.article.find');
  });

  it('refuses an unknown role with exit 1 for grant, revoke and list', () => {
    const data = tempDir();
    for (const args of [
      ['permissions', 'grant', 'nobody', 'api::article.article.find'],
      ['permissions', 'revoke', 'nobody', 'api::article.article.find'],
      ['permissions', 'list', 'nobody'],
    ]) {
      const run = cli(args, { data });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('"nobody"');
    }
    expect(lines(cli(['permissions', 'list'], { data }).stdout).sort()).toEqual(DEFAULTS);
  });
});

describe('tokens', () => {
  const keyOf = (run: Run) => lines(run.stdout).at(-1)!;

  it('prints the 256-hex-character key alone on the last line of stdout', () => {
    const run = cli(['token', 'create', '--name', 't1', '--type', 'read-only']);
    expect(run.code).toBe(0);
    expect(keyOf(run)).toMatch(/^[0-9a-f]{256}$/);
    expect(run.stdout.endsWith(`${keyOf(run)}\n`)).toBe(true);
  });

  it('lists the token name and type but never the key, and stores no clear key', () => {
    const data = tempDir();
    const key = keyOf(cli(['token', 'create', '--name', 't1', '--type', 'read-only'], { data }));
    const list = cli(['token', 'list'], { data });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^t1\tread-only\t/m);
    expect(list.stdout).not.toContain(key);
    expect(list.stdout).not.toMatch(/[0-9a-f]{64}/);
    const stored = withDb(data, (db) => JSON.stringify(db.query('SELECT * FROM folio_api_tokens').all()));
    expect(stored).toContain('t1');
    expect(stored).not.toContain(key);
  });

  it('refuses a second token with the same name with exit 1', () => {
    const data = tempDir();
    expect(cli(['token', 'create', '--name', 't1', '--type', 'read-only'], { data }).code).toBe(0);
    const again = cli(['token', 'create', '--name', 't1', '--type', 'full-access'], { data });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('"t1"');
    expect(again.stdout).not.toMatch(/[0-9a-f]{256}/);
    expect(lines(cli(['token', 'list'], { data }).stdout)).toHaveLength(1);
  });

  it('gives a token created with --lifespan-days 7 an expiry seven days ahead, in create and list', () => {
    const data = tempDir();
    const before = Date.now();
    const run = cli(['token', 'create', '--name', 'week', '--type', 'full-access', '--lifespan-days', '7'], { data });
    expect(run.code).toBe(0);
    const shown = run.stdout.match(/expires (\d{4}-\d\d-\d\dT[\d:.]+Z)/);
    expect(shown).not.toBeNull();
    const expires = Date.parse(shown![1]!);
    const week = 7 * 24 * 3600 * 1000;
    expect(expires).toBeGreaterThanOrEqual(before + week - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + week + 1000);
    expect(cli(['token', 'list'], { data }).stdout).toMatch(new RegExp(`^week\\tfull-access\\texpires ${shown![1]!.replace(/\./g, '\\.')}`, 'm'));

    const forever = cli(['token', 'create', '--name', 'forever', '--type', 'read-only'], { data });
    expect(forever.stdout).toContain('never expires');
  });

  it('removes a revoked token from the list and exits 1 when revoking an unknown name', () => {
    const data = tempDir();
    cli(['token', 'create', '--name', 't1', '--type', 'read-only'], { data });
    cli(['token', 'create', '--name', 't2', '--type', 'read-only'], { data });
    const revoke = cli(['token', 'revoke', 't1'], { data });
    expect(revoke.code).toBe(0);
    const list = cli(['token', 'list'], { data }).stdout;
    expect(list).not.toMatch(/^t1\t/m);
    expect(list).toMatch(/^t2\t/m);

    const unknown = cli(['token', 'revoke', 'nope'], { data });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"nope"');
  });
});

describe('init', () => {
  it('writes the example content types, identical to the repository copies', () => {
    const dir = join(tempDir(), 'ct');
    const run = cli(['init', dir]);
    expect(run.code).toBe(0);
    for (const file of ['article.json', 'author.json', 'tag.json', 'components/shared/seo.json', 'components/shared/link.json']) {
      expect(existsSync(join(dir, file))).toBe(true);
      expect(readFileSync(join(dir, file), 'utf8')).toBe(readFileSync(join(CONTENT_TYPES, file), 'utf8'));
    }
  });

  it('writes into ./content-types of the working directory when no folder is given', () => {
    const cwd = tempDir();
    const run = bare(['init'], { cwd });
    expect(run.code).toBe(0);
    expect(existsSync(join(cwd, 'content-types/article.json'))).toBe(true);
    expect(existsSync(join(cwd, 'content-types/components/shared/seo.json'))).toBe(true);
  });

  it('refuses a non-empty folder with exit 1 and writes nothing there', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mine.txt'), 'keep me');
    const run = cli(['init', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not empty');
    expect(readdirSync(dir)).toEqual(['mine.txt']);
  });

  it('produces a folder that migrate accepts', () => {
    const dir = join(tempDir(), 'ct');
    expect(cli(['init', dir]).code).toBe(0);
    const data = tempDir();
    const run = cli(['migrate'], { data, contentTypes: dir });
    expect(run.code).toBe(0);
    expect(tableNames(data)).toContain('articles');
  });
});

describe('serve', () => {
  it('listens on the real port for --port 0, answers /_health with 204, keeps content private and exits on SIGTERM', async () => {
    const server = await serve(tempDir());
    expect(server.port).toBeGreaterThan(0);
    const health = await fetch(`${server.url}/_health`);
    expect(health.status).toBe(204);
    const articles = await fetch(`${server.url}/api/articles`);
    expect(articles.status).toBe(403);
    const body = (await articles.json()) as { data: unknown; error: { status: number; name: string } };
    expect(body).toMatchObject({ data: null, error: { status: 403, name: 'ForbiddenError' } });
    expect(await server.stop()).toBe(0);
    await expect(fetch(`${server.url}/_health`)).rejects.toThrow();
  }, SLOW);

  it('accepts a token created with the CLI and rejects an unknown one with 401', async () => {
    const data = tempDir();
    const server = await serve(data);
    try {
      const created = cli(['token', 'create', '--name', 'reader', '--type', 'read-only'], { data });
      const key = lines(created.stdout).at(-1)!;
      const ok = await fetch(`${server.url}/api/articles`, { headers: { authorization: `Bearer ${key}` } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { data: unknown[] }).data).toEqual([]);
      const bad = await fetch(`${server.url}/api/articles`, { headers: { authorization: `Bearer ${'0'.repeat(256)}` } });
      expect(bad.status).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, SLOW);

  it('exits non-zero naming the file when a content type is not valid JSON', async () => {
    const types = copyContentTypes();
    writeFileSync(join(types, 'article.json'), '{ "kind": "collectionType", ');
    const proc = Bun.spawn([BUN, CLI, 'serve', '--port', '0', '--data', tempDir(), '--content-types', types], {
      cwd: ROOT, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe',
    });
    running.add(proc);
    const code = await timeout(proc.exited, 15_000, 'serve to fail');
    const stderr = await new Response(proc.stderr as ReadableStream).text();
    const stdout = await new Response(proc.stdout as ReadableStream).text();
    expect(code).not.toBe(0);
    expect(stderr).toContain('article.json');
    expect(stderr).toMatch(/JSON/);
    expect(stdout).not.toContain('Folio listening');
  }, SLOW);

  it('exits non-zero naming the file and the attribute when a relation targets a missing content type', async () => {
    const types = copyContentTypes();
    const schema = JSON.parse(readFileSync(join(types, 'article.json'), 'utf8'));
    schema.attributes.category.target = 'api::nope.nope';
    writeFileSync(join(types, 'article.json'), JSON.stringify(schema));
    const proc = Bun.spawn([BUN, CLI, 'serve', '--port', '0', '--data', tempDir(), '--content-types', types], {
      cwd: ROOT, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe',
    });
    running.add(proc);
    const code = await timeout(proc.exited, 15_000, 'serve to fail');
    const stderr = await new Response(proc.stderr as ReadableStream).text();
    expect(code).not.toBe(0);
    expect(stderr).toContain('article.json');
    expect(stderr).toContain('category');
    expect(stderr).toContain('api::nope.nope');
    expect(stderr).not.toContain('    at ');
  }, SLOW);

  it('keeps the data across a restart on the same data dir, and the restart changes no schema', async () => {
    const data = tempDir();
    const first = await serve(data);
    let documentId: string;
    try {
      expect(first.stdout()).toMatch(/synced content tables: \d+ change\(s\)/);
      expect((await fetch(`${first.url}/api/articles`)).status).toBe(403);
      const grant = cli(['permissions', 'grant', 'public', 'api::article.article.create', 'api::article.article.find'], { data });
      expect(grant.code).toBe(0);
      const created = await fetch(`${first.url}/api/articles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { title: 'Survives a restart' } }),
      });
      expect(created.status).toBe(201);
      documentId = ((await created.json()) as { data: { documentId: string } }).data.documentId;
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const second = await serve(data);
    try {
      expect(second.stdout()).not.toContain('synced content tables');
      const list = await fetch(`${second.url}/api/articles`);
      expect(list.status).toBe(200);
      const body = (await list.json()) as { data: { documentId: string; title: string }[] };
      expect(body.data.map((a) => [a.documentId, a.title])).toEqual([[documentId, 'Survives a restart']]);
    } finally {
      expect(await second.stop()).toBe(0);
    }

    const migrate = cli(['migrate'], { data });
    expect(migrate.code).toBe(0);
    expect(migrate.stdout).toContain('content tables are up to date');
    expect(migrate.stdout).not.toMatch(/^applied system migration/m);
  }, SLOW);
});

// A data dir that a command creates from nothing (nested folders included).
it('creates a missing nested data directory on first use', () => {
  const data = join(tempDir(), 'a', 'b', 'c');
  const run = cli(['locales', 'list'], { data });
  expect(run.code).toBe(0);
  expect(existsSync(join(data, 'folio.db'))).toBe(true);
  expect(existsSync(join(data, 'secrets.json'))).toBe(true);
});
