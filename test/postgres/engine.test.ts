/**
 * What must not depend on the engine (issue 10): the same rows seeded into a server on
 * SQLite and one on PostgreSQL answer the same pages, sorts, filters and value shapes;
 * big integers stay exact; `folio migrate --dry-run` creates nothing on PostgreSQL either.
 * Skipped unless FOLIO_TEST_DATABASE_URL is set (it is the admin URL used to create and
 * drop the databases these tests run on).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_TYPES_CONTENT_TYPES, EXAMPLE_CONTENT_TYPES, startServer, tempDir, type TestServer } from '../helpers/server';

import { createDatabase, dropDatabases, queryOnce } from '../helpers/postgres';
import { runCli } from '../helpers/spawn';

const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
const SLOW = 120_000;

const temps: string[] = [];
const databases: string[] = [];

/** A new, empty database (dropped after the file); returns its URL. */
async function freshDatabase(): Promise<string> {
  const url = await createDatabase(ADMIN_URL!, 'folio_engine');
  databases.push(url);
  return url;
}

const query = queryOnce;

afterAll(async () => {
  if (ADMIN_URL) await dropDatabases(ADMIN_URL, databases);
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** `bun src/cli.ts ARGS` with the flags in ARGS only. */
const cli = (args: string[]) => runCli(args, { data: null, contentTypes: null });

/** Unicode code point (= UTF-8 byte) order, the order SQLite's BINARY collation gives. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

const NAMES = [
  'apple',
  'Apple',
  'APPLE',
  'Zebra',
  'zebra',
  'z',
  'Z',
  'a',
  'éclair',
  'eclair',
  'Éclair',
  'Ärger',
  'ärger',
  'ÄRGER',
  'İstanbul',
  'istanbul',
  'ISTANBUL',
  'ß',
  'SS',
  'Ωmega',
  'ωmega',
  '_under',
  '%pct',
  'a_c',
  'abc',
  'a%c',
  'axc',
  'back\\slash',
  'backslash',
  '10',
  '9',
  ' space',
  'emoji 😀',
  'ﬁ ligature',
];

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.skipIf(!ADMIN_URL)('the same answers from SQLite and PostgreSQL', () => {
  let sqlite: TestServer;
  let postgres: TestServer;
  let both: [TestServer, TestServer];

  beforeAll(async () => {
    // The helper would give a new data dir a PostgreSQL database of its own; its marker file
    // keeps it from making one for the SQLite server.
    const sqliteDir = tempDir();
    writeFileSync(join(sqliteDir, 'test-database-url'), 'sqlite:unused');
    sqlite = await startServer({ contentTypes: ALL_TYPES_CONTENT_TYPES, dataDir: sqliteDir, config: { databaseUrl: undefined } });
    postgres = await startServer({ contentTypes: ALL_TYPES_CONTENT_TYPES });
    both = [sqlite, postgres];
    expect(sqlite.instance.db.dialect.name).toBe('sqlite');
    expect(postgres.instance.db.dialect.name).toBe('postgres');
    // The same rows, in the same order, on both.
    for (const server of both) {
      for (const [i, name] of NAMES.entries()) {
        const created = await server.call('POST', '/api/showcases', { body: { data: { aString: name, anInteger: i } } });
        if (created.status !== 201) throw new Error(`seeding "${name}": ${created.status} ${JSON.stringify(created.body)}`);
      }
      // Two rows without a string, to see where empty values sort.
      for (const i of [1000, 1001]) {
        const created = await server.call('POST', '/api/showcases', { body: { data: { anInteger: i } } });
        if (created.status !== 201) throw new Error(`seeding a null: ${created.status}`);
      }
    }
  }, SLOW);

  afterAll(async () => {
    await sqlite?.stop();
    await postgres?.stop();
  });

  /** Every page of a sorted list, as [page][aString]. */
  async function pages(server: TestServer, sort: string, filter = ''): Promise<(string | null)[][]> {
    const out: (string | null)[][] = [];
    for (let page = 1; page <= 20; page++) {
      const res = await server.call('GET', `/api/showcases?sort=${sort}&pagination[page]=${page}&pagination[pageSize]=7&fields[0]=aString${filter}`);
      expect(res.status).toBe(200);
      out.push(res.body.data.map((d: { aString: string | null }) => d.aString));
      if (page >= res.body.meta.pagination.pageCount) break;
    }
    return out;
  }

  async function matches(server: TestServer, filter: string): Promise<string[]> {
    const res = await server.call('GET', `/api/showcases?${filter}&fields[0]=aString&pagination[pageSize]=100&sort=anInteger:asc`);
    expect(res.status).toBe(200);
    return res.body.data.map((d: { aString: string }) => d.aString);
  }

  const f = (op: string, value: string) => `filters[aString][${op}]=${encodeURIComponent(value)}`;

  it('sorts strings by bytes on both engines (uppercase before lowercase, Z before a, é after z), every page the same', async () => {
    const expected = [...NAMES].sort(byteOrder);
    const nonNull = '&filters[aString][$notNull]=true';
    const [onSqlite, onPostgres] = await Promise.all(both.map((s) => pages(s, 'aString:asc', nonNull)));
    expect(onPostgres).toEqual(onSqlite);
    expect(onSqlite.flat()).toEqual(expected);
    const flat = onPostgres.flat() as string[];
    expect(flat.indexOf('Z')).toBeLessThan(flat.indexOf('a'));
    expect(flat.indexOf('APPLE')).toBeLessThan(flat.indexOf('apple'));
    expect(flat.indexOf('zebra')).toBeLessThan(flat.indexOf('éclair'));
    expect(flat.indexOf('10')).toBeLessThan(flat.indexOf('9'));

    const [descSqlite, descPostgres] = await Promise.all(both.map((s) => pages(s, 'aString:desc', nonNull)));
    expect(descPostgres).toEqual(descSqlite);
    expect(descSqlite.flat()).toEqual([...expected].reverse());
  });

  it('places rows without a value at the same end of a sort on both engines', async () => {
    for (const sort of ['aString:asc', 'aString:desc']) {
      const [onSqlite, onPostgres] = await Promise.all(both.map((s) => pages(s, `${sort}&sort[1]=anInteger:asc`)));
      expect({ sort, pages: onPostgres }).toEqual({ sort, pages: onSqlite });
      expect(onSqlite.flat().filter((v) => v === null).length).toBe(2);
    }
  });

  it('folds Unicode case for $eqi, $containsi, $startsWithi and $endsWithi on both engines (ÄRGER finds ärger)', async () => {
    const cases: [string, string[]][] = [
      [f('$eqi', 'ÄRGER'), ['Ärger', 'ärger', 'ÄRGER']],
      [f('$eqi', 'ärger'), ['Ärger', 'ärger', 'ÄRGER']],
      [f('$containsi', 'RGE'), ['Ärger', 'ärger', 'ÄRGER']],
      [f('$containsi', 'ä'), ['Ärger', 'ärger', 'ÄRGER']],
      [f('$eqi', 'ÉCLAIR'), ['éclair', 'Éclair']],
      [f('$startsWithi', 'ΩME'), ['Ωmega', 'ωmega']],
      [f('$endsWithi', 'PPLE'), ['apple', 'Apple', 'APPLE']],
      [f('$nei', 'APPLE') + '&filters[aString][$startsWithi]=a', ['a', 'a_c', 'abc', 'a%c', 'axc']],
      // Case-sensitive operators stay case-sensitive.
      [f('$eq', 'ärger'), ['ärger']],
      [f('$contains', 'Ä'), ['Ärger', 'ÄRGER']],
    ];
    for (const [filter, expected] of cases) {
      const [onSqlite, onPostgres] = await Promise.all(both.map((s) => matches(s, filter)));
      expect({ filter, onSqlite }).toEqual({ filter, onSqlite: expected });
      expect({ filter, onPostgres }).toEqual({ filter, onPostgres: expected });
    }
  });

  it('answers the special foldings (İ, ß, ligatures) the same on both engines, whatever they match', async () => {
    const filters = [
      f('$eqi', 'istanbul'),
      f('$eqi', 'İSTANBUL'),
      f('$containsi', 'İ'),
      f('$containsi', 'I'),
      f('$eqi', 'ss'),
      f('$eqi', 'ß'),
      f('$containsi', 'fi'),
      f('$containsi', 'ﬁ'),
    ];
    for (const filter of filters) {
      const [onSqlite, onPostgres] = await Promise.all(both.map((s) => matches(s, filter)));
      expect({ filter, onPostgres }).toEqual({ filter, onPostgres: onSqlite });
    }
    // The plain ASCII folding is not in doubt.
    expect(await matches(postgres, f('$eqi', 'ISTANBUL'))).toEqual(expect.arrayContaining(['istanbul', 'ISTANBUL']));
  });

  it('treats % and _ (and backslash) as literal characters in every text operator on both engines', async () => {
    const cases: [string, string[]][] = [
      [f('$contains', '%'), ['%pct', 'a%c']],
      [f('$contains', '_'), ['_under', 'a_c']],
      [f('$containsi', 'A_C'), ['a_c']],
      [f('$containsi', 'A%C'), ['a%c']],
      [f('$startsWith', '%'), ['%pct']],
      [f('$startsWith', '_'), ['_under']],
      [f('$endsWith', '_c'), ['a_c']],
      [f('$endsWithi', '%C'), ['a%c']],
      [f('$eqi', 'A_C'), ['a_c']],
      [f('$contains', '\\'), ['back\\slash']],
      [f('$contains', 'k\\s'), ['back\\slash']],
      [f('$notContains', '%') + '&' + f('$startsWith', 'a'), ['apple', 'a', 'a_c', 'abc', 'axc']],
      [f('$notContainsi', '_') + '&' + f('$startsWith', 'a'), ['apple', 'a', 'abc', 'a%c', 'axc']],
    ];
    for (const [filter, expected] of cases) {
      const [onSqlite, onPostgres] = await Promise.all(both.map((s) => matches(s, filter)));
      expect({ filter, onSqlite }).toEqual({ filter, onSqlite: expected });
      expect({ filter, onPostgres }).toEqual({ filter, onPostgres: expected });
    }
  });

  it('answers ids as numbers and timestamps as ISO strings on both engines, in lists, single reads, relations and components', async () => {
    const shapes = [];
    for (const server of both) {
      const target = await server.call('POST', '/api/showcases', { body: { data: { aString: 'shape target' } } });
      expect(target.status).toBe(201);
      const created = await server.call('POST', '/api/showcases?populate=*', {
        body: {
          data: {
            aString: 'shape',
            aDateTime: '2024-05-01T12:34:56.789Z',
            aTimestamp: '2024-05-01T00:00:00.000Z',
            aManyToOne: target.body.data.documentId,
            aManyToMany: [target.body.data.documentId],
            aComponent: { label: 'c', count: 1 },
            aRepeatableComponent: [{ label: 'r' }],
            aDynamicZone: [{ __component: 'parts.note', body: 'n' }],
          },
        },
      });
      expect(created.status).toBe(201);
      const single = await server.call('GET', `/api/showcases/${created.body.data.documentId}?populate=*`);
      const list = await server.call('GET', `/api/showcases?populate=*&filters[aString][$eq]=shape`);
      for (const doc of [created.body.data, single.body.data, list.body.data[0]]) {
        expect(typeof doc.id).toBe('number');
        expect(Number.isInteger(doc.id)).toBe(true);
        for (const key of ['createdAt', 'updatedAt', 'publishedAt']) expect({ key, value: doc[key] }).toEqual({ key, value: expect.stringMatching(ISO) });
        expect(doc.aDateTime).toBe('2024-05-01T12:34:56.789Z');
        expect(doc.aTimestamp).toBe(String(Date.parse('2024-05-01T00:00:00.000Z')));
        expect(typeof doc.aManyToOne.id).toBe('number');
        expect(doc.aManyToOne.createdAt).toMatch(ISO);
        expect(typeof doc.aManyToMany[0].id).toBe('number');
        expect(typeof doc.aComponent.id).toBe('number');
        expect(typeof doc.aComponent.count).toBe('number');
        expect(typeof doc.aRepeatableComponent[0].id).toBe('number');
        expect(typeof doc.aDynamicZone[0].id).toBe('number');
      }
      const { pagination } = list.body.meta;
      for (const key of ['page', 'pageSize', 'pageCount', 'total']) expect(typeof pagination[key]).toBe('number');
      // The same keys, in the same order, on both engines.
      shapes.push(Object.keys(single.body.data));
    }
    expect(shapes[1]).toEqual(shapes[0]!);
  });

  it('round-trips a biginteger beyond 2^53 exactly on PostgreSQL, and filters and sorts big integers by their exact value', async () => {
    const values = ['9007199254740993', '9007199254740992', '9007199254740994', '9223372036854775807', '-9223372036854775807'];
    const ids: Record<string, string> = {};
    for (const value of values) {
      const created = await postgres.call('POST', '/api/showcases', { body: { data: { aString: `big ${value}`, aBigInteger: value } } });
      expect(created.status).toBe(201);
      expect(created.body.data.aBigInteger).toBe(value);
      ids[value] = created.body.data.documentId;
    }
    const single = await postgres.call('GET', `/api/showcases/${ids['9007199254740993']}`);
    expect(single.body.data.aBigInteger).toBe('9007199254740993');
    const exact = await postgres.call('GET', '/api/showcases?filters[aBigInteger][$eq]=9007199254740993&fields[0]=aBigInteger');
    expect(exact.body.data.map((d: { aBigInteger: string }) => d.aBigInteger)).toEqual(['9007199254740993']);
    const above = await postgres.call('GET', '/api/showcases?filters[aBigInteger][$gt]=9007199254740992&fields[0]=aBigInteger&sort=aBigInteger:asc');
    expect(above.body.data.map((d: { aBigInteger: string }) => d.aBigInteger)).toEqual(['9007199254740993', '9007199254740994', '9223372036854775807']);
    const sorted = await postgres.call('GET', '/api/showcases?filters[aBigInteger][$notNull]=true&fields[0]=aBigInteger&sort=aBigInteger:desc');
    expect(sorted.body.data.map((d: { aBigInteger: string }) => d.aBigInteger)).toEqual([
      '9223372036854775807',
      '9007199254740994',
      '9007199254740993',
      '9007199254740992',
      '-9223372036854775807',
    ]);
    // Stored exactly, not through a double.
    const url = postgres.instance.config.databaseUrl!;
    const [row] = await query<{ v: string }>(url, `SELECT CAST("aBigInteger" AS TEXT) AS v FROM showcases WHERE "documentId" = '${ids['9007199254740993']}'`);
    expect(row!.v).toBe('9007199254740993');
    // An update keeps it exact too.
    const updated = await postgres.call('PUT', `/api/showcases/${ids['9007199254740992']}`, { body: { data: { aBigInteger: '9007199254740995' } } });
    expect(updated.body.data.aBigInteger).toBe('9007199254740995');
  });

  it(
    'plans with folio migrate --dry-run on an empty PostgreSQL database without creating anything, applies with folio migrate, and is up to date on a second run',
    async () => {
      const url = await freshDatabase();
      const data = tempDir();
      temps.push(data);
      const flags = ['--database', url, '--data', data, '--content-types', EXAMPLE_CONTENT_TYPES];
      const tables = async () =>
        (
          await query<{ t: string }>(url, 'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name')
        ).map((r) => r.t);

      const dry = cli(['migrate', '--dry-run', ...flags]);
      expect(dry.stderr).toBe('');
      expect(dry.code).toBe(0);
      expect(dry.stdout).toMatch(/^would apply system migration \S+/m);
      expect(dry.stdout).toMatch(/^would .*articles/m);
      expect(dry.stdout).toContain('nothing applied (dry run)');
      expect(dry.stdout).toContain('CREATE TABLE');
      expect(await tables()).toEqual([]);
      expect(existsSync(join(data, 'folio.db'))).toBe(false);

      const applied = cli(['migrate', ...flags]);
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      expect(applied.stdout).toMatch(/^applied system migration \S+/m);
      expect(applied.stdout).toMatch(/^\d+ change\(s\) applied$/m);
      const after = await tables();
      for (const table of ['folio_migrations', 'folio_roles', 'folio_locales', 'articles', 'tags', 'components_shared_seos']) expect(after).toContain(table);
      // Every change the dry run planned is what the real run applied.
      const planned = Number(dry.stdout.match(/^(\d+) change\(s\) planned/m)?.[1]);
      expect(applied.stdout).toContain(`${planned} change(s) applied`);

      const again = cli(['migrate', ...flags]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('content tables are up to date');
      expect(again.stdout).not.toMatch(/applied system migration/);
      expect(await tables()).toEqual(after);
      const dryAgain = cli(['migrate', '--dry-run', ...flags]);
      expect(dryAgain.code).toBe(0);
      expect(dryAgain.stdout).toContain('content tables are up to date');
      expect(dryAgain.stdout).not.toMatch(/would apply/);
    },
    SLOW,
  );
});
