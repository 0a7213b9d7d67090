/**
 * `folio import strapi` into targets the peer tests do not cover, with a hand-built Strapi 5
 * project (test/helpers/strapi-project.ts; no peer needed), on the engine under test:
 *  - a collection name of 60 characters and a long relation name (Folio's link table and
 *    index names pass PostgreSQL's 63 bytes and are fitted): the import succeeds and the
 *    installation starts again and answers as the project holds it;
 *  - FOLIO_UPLOADS=s3://… (s3rver): the project's files go into the bucket, not a local
 *    folder; the imported file's URL is served from it and the row names the S3 provider;
 *    with FOLIO_UPLOADS_PUBLIC_URL the file's and its formats' URLs point under that base.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig, type Config } from '../../src/config';
import { importStrapi } from '../../src/transfer/strapi/import';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { startS3, type TestS3 } from '../helpers/s3-server';
import { startServer, tempDir, TEST_DATABASE_URL } from '../helpers/server';
import { COVER, strapi5Project, type StrapiProjectOptions } from '../helpers/strapi-project';

const dirs: string[] = [];
const databases: string[] = [];
let s3: TestS3 | undefined;

afterAll(async () => {
  await s3?.stop();
  if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, databases);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Imports a fresh hand-built project into a new installation on the engine under test; returns the target's config. */
async function imported(project: StrapiProjectOptions, extra: Partial<Config> = {}): Promise<Config> {
  const dir = tempDir('folio-strapi-hand-');
  dirs.push(dir);
  strapi5Project(dir, project);
  const base = tempDir('folio-strapi-hand-target-');
  dirs.push(base);
  const databaseUrl = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_strapi_hand') : undefined;
  if (databaseUrl) databases.push(databaseUrl);
  const config = {
    ...resolveConfig({ data: join(base, 'data'), contentTypes: join(base, 'content-types'), ...(databaseUrl ? { database: databaseUrl } : {}) }),
    ...extra,
  };
  await importStrapi({ source: dir, config, out: { write: () => {} } });
  return config;
}

async function serving(config: Config) {
  return startServer({
    dataDir: config.dataDir,
    contentTypes: config.contentTypesDir,
    config: { databaseUrl: config.databaseUrl, uploadsS3: config.uploadsS3, uploadsPublicUrl: config.uploadsPublicUrl },
  });
}

describe('folio import strapi into other targets', () => {
  test('a project with a 60-character collection name and a long relation name imports, and the installation starts again answering as the project holds it', async () => {
    const collection = 'reading_shelves_kept_for_the_longest_names_in_postgres_tests';
    const relation = 'recommendedTagsForReadersOfThisShelf';
    expect(collection).toHaveLength(60);
    const config = await imported({ collection, relation });
    // The import's own start made the tables; these two starts find them as they are.
    for (const round of [1, 2]) {
      const server = await serving(config);
      try {
        const res = await server.call('GET', '/api/shelves?populate=*');
        expect({ round, status: res.status }).toEqual({ round, status: 200 });
        const [shelf] = res.body.data;
        expect([shelf.title, shelf[relation].map((t: any) => t.name), shelf.cover.url]).toEqual(['Top', ['beta', 'alpha'], `/uploads/${COVER.name}`]);
      } finally {
        await server.stop({ keepData: true });
      }
    }
  }, 120_000);

  test("with S3 uploads the project's files go into the bucket: the imported file's URL is served from it, nothing lands in a local folder", async () => {
    s3 ??= await startS3();
    const prefix = `import-${Date.now().toString(36)}`;
    const config = await imported({}, { uploadsS3: s3.location(prefix) });
    expect(await s3.keys(prefix)).toEqual([`${prefix}/${COVER.name}`, `${prefix}/thumbnail_cover_abc.png`]);
    expect(existsSync(config.uploadsDir)).toBe(false);
    const server = await serving(config);
    try {
      const shelf = (await server.call('GET', '/api/shelves?populate=cover')).body.data[0];
      expect(shelf.cover.url).toBe(`/uploads/${COVER.name}`);
      expect(shelf.cover.provider).toBe('aws-s3');
      const file = await fetch(`${server.url}${shelf.cover.url}`);
      expect(file.status).toBe(200);
      expect(await file.text()).toBe(COVER.bytes);
      expect(await (await fetch(`${server.url}${shelf.cover.formats.thumbnail.url}`)).text()).toBe('thumbnail bytes');
    } finally {
      await server.stop({ keepData: true });
    }
  }, 120_000);

  test('with a public URL for the bucket the imported file and its formats point under it', async () => {
    s3 ??= await startS3();
    const prefix = `public-${Date.now().toString(36)}`;
    const base = `${s3.endpoint}/${s3.bucket}/${prefix}`;
    const config = await imported({}, { uploadsS3: s3.location(prefix), uploadsPublicUrl: base });
    const server = await serving(config);
    try {
      const shelf = (await server.call('GET', '/api/shelves?populate=cover')).body.data[0];
      expect([shelf.cover.url, shelf.cover.formats.thumbnail.url]).toEqual([`${base}/${COVER.name}`, `${base}/thumbnail_cover_abc.png`]);
      expect(await (await fetch(shelf.cover.url)).text()).toBe(COVER.bytes);
    } finally {
      await server.stop({ keepData: true });
    }
  }, 120_000);
});
