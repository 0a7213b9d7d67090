/**
 * Strapi 5 shortens database names over 55 characters with a hash; `folio import strapi` must
 * find them. The peer (a private copy) gets two more content types whose table, component join
 * table, column and link table names Strapi shortens (strapi-peer.ts addLongNamedTypes); they
 * are seeded, then imported from the project directory and from a `strapi export` archive
 * (whose links the archive source lays out under the same shortened names). Folio must answer
 * as Strapi did. Skips when the peer is not installed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Database as BunDatabase } from 'bun:sqlite';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { importStrapi } from '../../src/transfer/strapi/import';
import { startServer, tempDir } from '../helpers/server';
import { addLongNamedTypes, answers, LONG, LONG_QUERIES, makeProject, peerMissing, seed, seedLongNames, type StrapiProject } from './strapi-peer';

const missing = peerMissing();
if (missing) console.warn(`skipping test/transfer/strapi-long-names.test.ts: ${missing}`);

const dirs: string[] = [];

describe.skipIf(!!missing)('folio import strapi with names Strapi shortened', () => {
  let project: StrapiProject;
  let strapi: Record<string, unknown>;
  let archive: string;

  beforeAll(async () => {
    project = makeProject();
    dirs.push(project.dir);
    addLongNamedTypes(project.dir);
    await project.start();
    try {
      await seed(project);
      await seedLongNames(project);
      strapi = await answers(project.url, project.tokens.fullAccess, LONG_QUERIES);
    } finally {
      await project.stop();
    }
    const out = tempDir('folio-strapi-long-export-');
    dirs.push(out);
    archive = project.exportArchive(join(out, 'export'));
  }, 300_000);

  afterAll(async () => {
    await project?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test("the peer's database really holds shortened names (what the imports below must resolve)", () => {
    const db = new BunDatabase(join(project.dir, '.tmp', 'data.db'), { readonly: true });
    try {
      const tables = db
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((t) => t.name);
      expect(tables).not.toContain(LONG.collection);
      expect(tables).toContain('reading_lists_kept_for_the_identifier_shortening_tfd89a');
      expect(tables.filter((t) => t.startsWith('reading_lists_kept') && t.endsWith('_cmps'))).toHaveLength(1);
      expect(tables).toContain('shelves_recommended_articles_for_readers_of_th65b97_lnk');
    } finally {
      db.close();
    }
  });

  for (const kind of ['project directory', 'strapi export archive'] as const) {
    test(`a ${kind} with shortened table, join table, column and link names imports with every document answering as Strapi did`, async () => {
      const base = tempDir('folio-strapi-long-');
      dirs.push(base);
      // Always a SQLite target: what is tested is reading Strapi's shortened names from the
      // source. Folio's own PostgreSQL layout cannot hold a 57-character table yet (its index
      // names, `<table>_…`, pass PostgreSQL's 63-byte limit and collide when cut).
      const databaseUrl = undefined;
      const flags = { data: join(base, 'data'), contentTypes: join(base, 'content-types') };
      await importStrapi({ source: kind === 'project directory' ? project.dir : archive, config: resolveConfig(flags), out: { write: () => {} } });
      const server = await startServer({ dataDir: flags.data, contentTypes: flags.contentTypes, publicAccess: false, config: { databaseUrl } });
      try {
        const folio = await answers(server.url, server.tokens.fullAccess || project.tokens.fullAccess, LONG_QUERIES);
        for (const path of LONG_QUERIES) expect({ path, ...(folio[path] as object) }).toEqual({ path, ...(strapi[path] as object) });
        // The values behind the long names came along (not merely absent on both sides).
        const list = (folio[LONG_QUERIES[0]!] as any).body.data[0];
        expect(list[LONG.column]).toBe('kept whole');
        expect(list.links.map((l: any) => l.label)).toEqual(['A', 'B']);
        expect((folio[LONG_QUERIES[2]!] as any).body.data[0][LONG.relation]).toHaveLength(2);
      } finally {
        await server.stop({ keepData: true });
      }
    }, 120_000);
  }
});
