/**
 * Safe schema changes (issue #17), end to end on one installation: documents written under
 * schema A, the schema files changed, `folio migrate --dry-run` read for its warnings,
 * `--rename` run, then the REST API read under the new names. Runs on SQLite, and on
 * PostgreSQL with FOLIO_TEST_DATABASE_URL (the installation's database is the one
 * startServer made for the data dir).
 */
import { afterAll, describe, expect, it } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, tempDir, type TestServer } from '../helpers/server';
import { runCli, type CliRun } from '../helpers/spawn';
import { makeImage, upload } from '../upload/helpers';

const types = join(tempDir('folio-schema-ct-'), 'content-types');
const data = tempDir('folio-schema-data-');
mkdirSync(join(types, 'components/shared'), { recursive: true });

type Attributes = Record<string, Record<string, unknown>>;
const writeType = (file: string, singular: string, plural: string, attributes: Attributes) =>
  writeFileSync(
    join(types, file),
    JSON.stringify({
      kind: 'collectionType',
      info: { singularName: singular, pluralName: plural, displayName: singular },
      options: { draftAndPublish: false },
      attributes,
    }),
  );
const writeSeo = (attributes: Attributes) =>
  writeFileSync(join(types, 'components/shared/seo.json'), JSON.stringify({ info: { displayName: 'Seo' }, attributes }));

const postA: Attributes = {
  title: { type: 'string', required: true },
  summary: { type: 'string' },
  views: { type: 'integer' },
  note: { type: 'json' },
  tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
  seo: { type: 'component', component: 'shared.seo', repeatable: false },
  cover: { type: 'media', multiple: false },
};
// Schema B: four renames (one per storage: column, link table, component rows, media links),
// a widened type, a removed attribute, two new required ones (one with a default).
const { summary: _s, tags: _t, seo: _o, cover: _c, note: _n, ...kept } = postA;
const postB: Attributes = {
  ...kept,
  abstract: { type: 'string' },
  views: { type: 'biginteger' },
  labels: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
  meta: { type: 'component', component: 'shared.seo', repeatable: false },
  image: { type: 'media', multiple: false },
  subtitle: { type: 'text', required: true },
  kind: { type: 'enumeration', enum: ['news', 'guide'], required: true, default: 'news' },
};

writeType('post.json', 'post', 'posts', postA);
writeType('tag.json', 'tag', 'tags', { name: { type: 'string' } });
writeSeo({ metaTitle: { type: 'string' } });

let server: TestServer | undefined;
const databaseUrl = () => {
  try {
    return readFileSync(join(data, 'test-database-url'), 'utf8');
  } catch {
    return undefined; // SQLite: the data dir's own file
  }
};
const migrate = (...args: string[]): CliRun => runCli(['migrate', ...args], { data, contentTypes: types, database: databaseUrl() });
const start = async () => (server = await startServer({ contentTypes: types, dataDir: data }));

afterAll(async () => {
  await server?.stop();
});

describe('safe schema changes', () => {
  const ids: Record<string, string> = {};
  let fileId = 0;

  it('starts with schema A and writes documents holding a value of every storage kind', async () => {
    const s = await start();
    const auth = { Authorization: `Bearer ${s.tokens.fullAccess}` };
    const uploaded = await upload(s.url, { files: [{ bytes: await makeImage(2, 2), filename: 'cover.png', type: 'image/png' }], headers: auth });
    expect(uploaded.status).toBe(201);
    fileId = uploaded.body[0].id;
    const create = async (plural: string, body: Record<string, unknown>) => {
      const res = await s.call('POST', `/api/${plural}`, { body: { data: body } });
      expect(res.status).toBe(201);
      return res.body.data.documentId as string;
    };
    ids.tag = await create('tags', { name: 'dup' });
    ids.tag2 = await create('tags', { name: 'dup' });
    ids.first = await create('posts', {
      title: 'First',
      summary: 'kept summary',
      views: 5,
      note: { a: 1 },
      tags: [ids.tag],
      seo: { metaTitle: 'kept meta' },
      cover: fileId,
    });
    ids.second = await create('posts', { title: 'Second', views: 7 });
    await s.stop({ keepData: true });
    server = undefined;
  });

  it('warns on --dry-run about renames, removed data, type changes, new required and unique attributes, and changes nothing', async () => {
    writeType('post.json', 'post', 'posts', postB);
    writeType('tag.json', 'tag', 'tags', { name: { type: 'string', unique: true } });
    writeSeo({ headline: { type: 'string' } });
    const dry = migrate('--dry-run');
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    const out = dry.stdout;
    for (const rename of ['post.summary=abstract', 'post.tags=labels', 'post.seo=meta', 'post.cover=image', 'shared.seo.metaTitle=headline']) {
      expect(out).toContain(`folio migrate --rename ${rename}`);
    }
    expect(out).toMatch(/^warning: post\.summary is no longer in .*post\.json, but its column posts\.summary still holds values in 1 row\(s\)/m);
    expect(out).toMatch(/^warning: post\.note is no longer in .*post\.json, but its column posts\.note still holds values in 1 row\(s\)/m);
    expect(out).toMatch(/^warning: post\.tags \(relation \(api::tag\.tag\)\) is no longer in .*, but 1 of its link table posts_tags_lnk still hold it/m);
    expect(out).toMatch(/^warning: post\.views changed from integer to biginteger: stored values convert$/m);
    const required = out.split('\n').find((l) => l.startsWith('warning: post.subtitle is now required'))!;
    expect(required).toContain('2 document(s) have no value');
    expect(required).toContain(ids.first);
    expect(required).toContain(ids.second);
    expect(out).toMatch(/^would write the default of new required post\.kind into 2 row\(s\)$/m);
    expect(out).toMatch(/^warning: tag\.name is now unique .* repeat values: "dup" \(2 times\)/m);
    expect(out).toContain('nothing applied (dry run)');
    // Nothing changed: a second dry run says the same.
    expect(migrate('--dry-run').stdout).toBe(out);
  });

  it('moves column, link, component and media data with --rename, in one run, and the API reads every value under the new names', async () => {
    // As after a start with the new schema: empty columns, link table and snapshot for the new names exist already.
    const started = migrate();
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/^add column posts\.abstract$/m);
    expect(started.stdout).toMatch(/^create table posts_labels_lnk$/m);
    const renamed = migrate(
      '--rename',
      'post.summary=abstract',
      '--rename',
      'api::post.post.tags=labels',
      '--rename',
      'post.seo=meta',
      '--rename',
      'post.cover=image',
      '--rename',
      'shared.seo.metaTitle=headline',
    );
    expect(renamed.stderr).toBe('');
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toMatch(/^rename column posts\.summary to abstract$/m);
    expect(renamed.stdout).toMatch(/^drop the empty column posts\.abstract$/m);
    expect(renamed.stdout).toMatch(/^rename link table posts_tags_lnk to posts_labels_lnk$/m);
    // No rename is suggested any more: the data moved and the snapshot says so.
    expect(renamed.stdout).not.toContain('--rename');

    const s = await start();
    const first = (await s.call('GET', `/api/posts/${ids.first}?populate=*`)).body.data;
    expect(first).toMatchObject({ title: 'First', abstract: 'kept summary', views: '5', kind: 'news', meta: { headline: 'kept meta' }, image: { id: fileId } });
    expect(first.labels.map((t: { documentId: string }) => t.documentId)).toEqual([ids.tag]);
    expect(first).not.toHaveProperty('summary');
    // `_q` searches the renamed column: its index was made again under the new name.
    const found = (await s.call('GET', '/api/posts?_q=kept%20sum')).body.data;
    expect(found.map((p: { documentId: string }) => p.documentId)).toEqual([ids.first]);
    expect((await s.call('GET', `/api/posts/${ids.second}`)).body.data).toMatchObject({ views: '7', kind: 'news' });
    // Filters reach the renamed relation's links.
    const filter = (await s.call('GET', '/api/posts?filters[labels][name][$eq]=dup')).body.data;
    expect(filter).toHaveLength(1);
  });

  it('lets an old row be updated without the new required attribute, while a create still needs it', async () => {
    const s = server!;
    // Past 32 bits: the integer column became a biginteger one (PostgreSQL: BIGINT).
    const updated = await s.call('PUT', `/api/posts/${ids.second}`, { body: { data: { views: '3000000000' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ views: '3000000000', subtitle: null });
    const cleared = await s.call('PUT', `/api/posts/${ids.second}`, { body: { data: { subtitle: null } } });
    expect(cleared.status).toBe(400);
    const created = await s.call('POST', '/api/posts', { body: { data: { title: 'Third' } } });
    expect(created.status).toBe(400);
    expect(created.body.error.details.errors.map((e: { path: string[] }) => e.path)).toEqual([['subtitle']]);
    await s.stop({ keepData: true });
    server = undefined;
  });

  it('refuses a type change that cannot convert, naming the schema file and attribute, and changes nothing', async () => {
    writeType('post.json', 'post', 'posts', { ...postB, title: { type: 'integer', required: true } });
    const refused = migrate();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('post.json (attribute "title")');
    expect(refused.stderr).toContain('changed from string to integer');
    expect(refused.stdout).toBe('');
    await expect(startServer({ contentTypes: types, dataDir: data })).rejects.toThrow('attribute "title"');

    writeType('post.json', 'post', 'posts', postB);
    const s = await start();
    expect((await s.call('GET', `/api/posts/${ids.first}`)).body.data.title).toBe('First');
  });
});
