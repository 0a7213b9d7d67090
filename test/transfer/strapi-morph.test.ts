/**
 * Polymorphic relations (`morphToOne`, `morphToMany`) of a Strapi project come along: the peer (a
 * private copy) gets a `comment` type (draft & publish; `subject` morphToOne, `mentions`
 * morphToMany) and a `pin` type (no draft & publish; `items` morphToMany), seeded through
 * Strapi's document service (its REST API refuses morph keys); Strapi's answers are recorded
 * and the project is imported from its directory and from a `strapi export` archive. Folio must
 * answer the same items, in the same order, with `__type`. Skips when the peer is not installed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { importStrapi } from '../../src/transfer/strapi/import';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { startServer, tempDir, TEST_DATABASE_URL } from '../helpers/server';
import { addMorphTypes, answers, makeProject, MORPH_QUERIES, peerMissing, seed, seedMorphs, type StrapiProject } from './strapi-peer';

const missing = peerMissing();
if (missing) console.warn(`skipping test/transfer/strapi-morph.test.ts: ${missing}`);

const databases: string[] = [];
const dirs: string[] = [];

describe.skipIf(!!missing)('folio import strapi with polymorphic relations', () => {
  let project: StrapiProject;
  let strapi: Record<string, unknown>;
  let archive: string;

  beforeAll(async () => {
    project = makeProject();
    dirs.push(project.dir);
    addMorphTypes(project.dir);
    await project.start();
    try {
      await seed(project);
    } finally {
      await project.stop();
    }
    seedMorphs(project);
    await project.start();
    try {
      strapi = await answers(project.url, project.tokens.fullAccess, MORPH_QUERIES);
    } finally {
      await project.stop();
    }
    const out = tempDir('folio-strapi-morph-export-');
    dirs.push(out);
    archive = project.exportArchive(join(out, 'export'));
  }, 300_000);

  afterAll(async () => {
    await project?.stop();
    if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, databases);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('the seeded Strapi answers hold the polymorphic items the imports must keep', () => {
    const [first] = (strapi[MORPH_QUERIES[0]!] as any).body.data;
    expect(first.subject.__type).toBe('api::tag.tag');
    expect(first.mentions.map((m: any) => m.__type)).toEqual(['api::article.article', 'api::tag.tag', 'api::article.article']);
    const [pin] = (strapi[MORPH_QUERIES[2]!] as any).body.data;
    expect(pin.items.map((m: any) => [m.__type, m.publishedAt === null])).toEqual([
      ['api::article.article', true],
      ['api::tag.tag', false],
    ]);
  });

  for (const kind of ['project directory', 'strapi export archive'] as const) {
    test(`a ${kind} with morphToOne and morphToMany links imports with every item, its type and its order as Strapi answered`, async () => {
      const base = tempDir('folio-strapi-morph-');
      dirs.push(base);
      const databaseUrl = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_morph') : undefined;
      if (databaseUrl) databases.push(databaseUrl);
      const flags = { data: join(base, 'data'), contentTypes: join(base, 'content-types'), ...(databaseUrl ? { database: databaseUrl } : {}) };
      await importStrapi({ source: kind === 'project directory' ? project.dir : archive, config: resolveConfig(flags), out: { write: () => {} } });
      const server = await startServer({ dataDir: flags.data, contentTypes: flags.contentTypes, publicAccess: false, config: { databaseUrl } });
      try {
        const folio = await answers(server.url, server.tokens.fullAccess || project.tokens.fullAccess, MORPH_QUERIES);
        for (const path of MORPH_QUERIES) expect({ path, ...(folio[path] as object) }).toEqual({ path, ...(strapi[path] as object) });
      } finally {
        await server.stop({ keepData: true });
      }
    }, 120_000);
  }
});
