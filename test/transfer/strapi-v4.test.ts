/**
 * `folio import strapi DIR` for a Strapi 4 project: the test builds one, its schemas in the
 * project layout and its SQLite database with Strapi 4's tables (no document_id, one row per
 * entry and locale, `published_at` null for a draft, `_links` / `_order` / `_components` /
 * `files_related_morphs` / `_localizations_links`, as Strapi 5's own 5.0.0 migrations name what
 * they rename). Folio must serve documents as Strapi 5's migration makes them: the locales of an
 * entry one document, a published entry keeping its id with a draft version beside it, relations
 * in order, components, media, the user's password and the API token. Needs no peer.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { Database as BunDatabase } from 'bun:sqlite';
import { createHmac } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { importStrapi } from '../../src/transfer/strapi/import';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { startServer, tempDir, TEST_DATABASE_URL } from '../helpers/server';

const SALT = 'v4-salt-for-tests';
const KEY = 'a'.repeat(64);
const PASSWORD = 'Secret-pass-1';
const T = Date.UTC(2023, 0, 2, 3, 4, 5);

const write = (file: string, value: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
};

/** A Strapi 4 project: posts (i18n, draft & publish, tags in order, an seo component, a cover), tags (draft & publish). */
async function strapi4Project(dir: string): Promise<void> {
  write(join(dir, 'src/api/post/content-types/post/schema.json'), {
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'posts' },
      seo: { type: 'component', repeatable: false, component: 'shared.seo', pluginOptions: { i18n: { localized: true } } },
      cover: { type: 'media', multiple: false, allowedTypes: ['images'], pluginOptions: { i18n: { localized: false } } },
    },
  });
  write(join(dir, 'src/api/tag/content-types/tag/schema.json'), {
    kind: 'collectionType',
    collectionName: 'tags',
    info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
    options: { draftAndPublish: true },
    attributes: { name: { type: 'string' }, posts: { type: 'relation', relation: 'manyToMany', target: 'api::post.post', mappedBy: 'tags' } },
  });
  write(join(dir, 'src/components/shared/seo.json'), {
    collectionName: 'components_shared_seos',
    info: { displayName: 'Seo' },
    attributes: { metaTitle: { type: 'string' } },
  });
  writeFileSync(join(dir, '.env'), `API_TOKEN_SALT=${SALT}\nJWT_SECRET=v4-jwt\n`);
  mkdirSync(join(dir, 'public/uploads'), { recursive: true });
  writeFileSync(join(dir, 'public/uploads/cover_abc.png'), 'not really a png');
  mkdirSync(join(dir, '.tmp'), { recursive: true });
  const db = new BunDatabase(join(dir, '.tmp/data.db'));
  const stamps = 'created_at datetime, updated_at datetime, created_by_id integer, updated_by_id integer';
  db.exec(`
    CREATE TABLE posts (id integer primary key, title varchar(255), ${stamps}, published_at datetime, locale varchar(255));
    CREATE TABLE posts_localizations_links (id integer primary key, post_id integer, inv_post_id integer, post_order float);
    CREATE TABLE posts_components (id integer primary key, entity_id integer, component_id integer, component_type varchar(255), field varchar(255), "order" float);
    CREATE TABLE components_shared_seos (id integer primary key, meta_title varchar(255));
    CREATE TABLE tags (id integer primary key, name varchar(255), ${stamps}, published_at datetime);
    CREATE TABLE posts_tags_links (id integer primary key, post_id integer, tag_id integer, tag_order float, post_order float);
    CREATE TABLE files (id integer primary key, name varchar(255), alternative_text varchar(255), caption varchar(255), width integer, height integer,
      formats json, hash varchar(255), ext varchar(255), mime varchar(255), size float, url varchar(255), preview_url varchar(255), provider varchar(255),
      provider_metadata json, folder_path varchar(255), ${stamps});
    CREATE TABLE files_related_morphs (id integer primary key, file_id integer, related_id integer, related_type varchar(255), field varchar(255), "order" float);
    CREATE TABLE i18n_locale (id integer primary key, name varchar(255), code varchar(255), ${stamps});
    CREATE TABLE strapi_core_store_settings (id integer primary key, key varchar(255), value text, type varchar(255), environment varchar(255), tag varchar(255));
    CREATE TABLE up_roles (id integer primary key, name varchar(255), description varchar(255), type varchar(255), ${stamps});
    CREATE TABLE up_permissions (id integer primary key, action varchar(255), ${stamps});
    CREATE TABLE up_permissions_role_links (id integer primary key, permission_id integer, role_id integer, permission_order float);
    CREATE TABLE up_users (id integer primary key, username varchar(255), email varchar(255), provider varchar(255), password varchar(255),
      reset_password_token varchar(255), confirmation_token varchar(255), confirmed boolean, blocked boolean, ${stamps});
    CREATE TABLE up_users_role_links (id integer primary key, user_id integer, role_id integer, user_order float);
    CREATE TABLE strapi_api_tokens (id integer primary key, name varchar(255), description varchar(255), type varchar(255), access_key varchar(255),
      last_used_at datetime, expires_at datetime, lifespan bigint, ${stamps});
  `);
  const run = (sql: string, ...rows: unknown[][]) => (rows.length ? rows : [[]]).forEach((r) => db.run(sql, r as never[]));
  run('INSERT INTO i18n_locale (id, name, code, created_at) VALUES (?, ?, ?, ?)', [1, 'English (en)', 'en', T], [2, 'French (fr)', 'fr', T]);
  run("INSERT INTO strapi_core_store_settings (id, key, value, type) VALUES (1, 'plugin_i18n_default_locale', '\"en\"', 'string')");
  // Hello (en) and Bonjour (fr) are one entry's locales, both published; "Draft only" never was.
  run(
    'INSERT INTO posts (id, title, created_at, updated_at, published_at, locale) VALUES (?, ?, ?, ?, ?, ?)',
    [1, 'Hello', T, T, T + 1, 'en'],
    [2, 'Bonjour', T, T, T + 2, 'fr'],
    [3, 'Draft only', T, T, null, 'en'],
  );
  run('INSERT INTO posts_localizations_links (id, post_id, inv_post_id, post_order) VALUES (?, ?, ?, ?)', [1, 1, 2, 1], [2, 2, 1, 1]);
  run('INSERT INTO tags (id, name, created_at, updated_at, published_at) VALUES (?, ?, ?, ?, ?)', [1, 'alpha', T, T, T], [2, 'beta', T, T, null]);
  // Hello lists beta before alpha; the draft-only post lists alpha.
  run('INSERT INTO posts_tags_links (id, post_id, tag_id, tag_order, post_order) VALUES (?, ?, ?, ?, ?)', [1, 1, 2, 1, 1], [2, 1, 1, 2, 1], [3, 3, 1, 1, 2]);
  run('INSERT INTO components_shared_seos (id, meta_title) VALUES (?, ?)', [1, 'Hello SEO']);
  run("INSERT INTO posts_components (id, entity_id, component_id, component_type, field, \"order\") VALUES (1, 1, 1, 'shared.seo', 'seo', 1)");
  run(
    `INSERT INTO files (id, name, hash, ext, mime, size, url, provider, width, height, folder_path, created_at, updated_at)
    VALUES (1, 'cover.png', 'cover_abc', '.png', 'image/png', 0.02, '/uploads/cover_abc.png', 'local', 4, 3, '/', ?, ?)`,
    [T, T],
  );
  run("INSERT INTO files_related_morphs (id, file_id, related_id, related_type, field, \"order\") VALUES (1, 1, 1, 'api::post.post', 'cover', 1)");
  run("INSERT INTO up_roles (id, name, description, type, created_at) VALUES (1, 'Authenticated', 'a', 'authenticated', ?), (2, 'Public', 'p', 'public', ?)", [
    T,
    T,
  ]);
  ['api::post.post.find', 'api::post.post.findOne', 'api::tag.tag.find', 'plugin::users-permissions.auth.callback'].forEach((action, i) => {
    run('INSERT INTO up_permissions (id, action, created_at) VALUES (?, ?, ?)', [i + 1, action, T]);
    run('INSERT INTO up_permissions_role_links (id, permission_id, role_id, permission_order) VALUES (?, ?, 2, ?)', [i + 1, i + 1, i + 1]);
  });
  const hash = await Bun.password.hash(PASSWORD, { algorithm: 'bcrypt', cost: 4 });
  run(
    "INSERT INTO up_users (id, username, email, provider, password, confirmed, blocked, created_at, updated_at) VALUES (1, 'reader', 'reader@example.com', 'local', ?, 1, 0, ?, ?)",
    [hash, T, T],
  );
  run('INSERT INTO up_users_role_links (id, user_id, role_id, user_order) VALUES (1, 1, 1, 1)');
  run(
    "INSERT INTO strapi_api_tokens (id, name, description, type, access_key, lifespan, created_at, updated_at) VALUES (1, 'ci', '', 'read-only', ?, NULL, ?, ?)",
    [createHmac('sha512', SALT).update(KEY).digest('hex'), T, T],
  );
  db.close();
}

const dirs: string[] = [];
const databases: string[] = [];

afterAll(async () => {
  if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, databases);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('folio import strapi from a Strapi 4 project', () => {
  test('entries become documents with their locales, a draft beside each published version, relations in order, components, media, users and tokens', async () => {
    const project = tempDir('folio-strapi4-');
    dirs.push(project);
    await strapi4Project(project);
    const base = tempDir('folio-strapi4-target-');
    dirs.push(base);
    const databaseUrl = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_v4') : undefined;
    if (databaseUrl) databases.push(databaseUrl);
    const flags = { data: join(base, 'data'), contentTypes: join(base, 'content-types'), ...(databaseUrl ? { database: databaseUrl } : {}) };
    const report = await importStrapi({ source: project, config: resolveConfig(flags), out: { write: () => {} } });
    expect(report.documents.find((d) => d.uid === 'api::post.post')).toEqual({ uid: 'api::post.post', documents: 2, versions: 5 });
    expect(report.notes.join('\n')).toContain('a Strapi 4 database');
    const server = await startServer({ dataDir: flags.data, contentTypes: flags.contentTypes, publicAccess: false, config: { databaseUrl } });
    try {
      const get = async (path: string) => (await server.call('GET', path)).body;
      const published = (await get('/api/posts?populate=*&sort=id')).data;
      // The published versions keep Strapi 4's ids; their drafts come after the table's last id.
      expect(published.map((p: any) => [p.id, p.title, p.tags.map((t: any) => t.name), p.seo?.metaTitle, p.cover?.url])).toEqual([
        [1, 'Hello', ['alpha'], 'Hello SEO', '/uploads/cover_abc.png'],
      ]);
      const drafts = (await get('/api/posts?populate=*&status=draft&sort=id')).data;
      expect(drafts.map((p: any) => [p.id, p.title, p.publishedAt, p.tags.map((t: any) => t.name), p.seo?.metaTitle, p.cover?.url])).toEqual([
        [3, 'Draft only', null, ['alpha'], undefined, undefined],
        [4, 'Hello', null, ['beta', 'alpha'], 'Hello SEO', '/uploads/cover_abc.png'],
      ]);
      expect(drafts[1].documentId).toBe(published[0].documentId);
      const french = (await get('/api/posts?locale=fr')).data;
      expect(french.map((p: any) => [p.id, p.title, p.documentId])).toEqual([[2, 'Bonjour', published[0].documentId]]);
      // The seo component's draft copy is a row of its own: editing one version leaves the other.
      expect(drafts[1].seo.id).not.toBe(published[0].seo.id);
      const tags = (await get('/api/tags?status=draft&sort=name')).data;
      expect(tags.map((t: any) => t.name)).toEqual(['alpha', 'beta']);
      const login = await server.call('POST', '/api/auth/local', { body: { identifier: 'reader@example.com', password: PASSWORD } });
      expect(login.status).toBe(200);
      const token = await fetch(`${server.url}/api/posts`, { headers: { Authorization: `Bearer ${KEY}` } });
      expect(token.status).toBe(200);
      const file = await fetch(`${server.url}/uploads/cover_abc.png`);
      expect(await file.text()).toBe('not really a png');
    } finally {
      await server.stop({ keepData: true });
    }
  }, 60_000);
});
