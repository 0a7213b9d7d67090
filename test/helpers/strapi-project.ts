/**
 * A small Strapi 5 project built by hand (no peer needed): its schemas in the project layout
 * and its SQLite database with Strapi 5's tables, named as Strapi names them (long names
 * shortened: src/transfer/strapi/identifiers.ts, checked against Strapi's own code). A
 * `shelf` (collection name and relation name configurable) lists tags in a chosen order and
 * has a cover image whose bytes sit in public/uploads, as Strapi's local provider keeps them.
 */
import { Database as BunDatabase } from 'bun:sqlite';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { linkColumns, linkTable, tableName } from '../../src/transfer/strapi/identifiers';

export interface StrapiProjectOptions {
  /** The shelf's collectionName (default `shelves`). */
  collection?: string;
  /** The shelf's manyToMany relation to tags (default `tags`). */
  relation?: string;
}

/** The cover's stored name and bytes (what the imported file's URL must serve). */
export const COVER = { name: 'cover_abc.png', bytes: 'not really a png, but bytes to compare' };

const T = Date.UTC(2024, 0, 2, 3, 4, 5);
const write = (file: string, value: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
};
const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Writes the project into `dir`: shelf "Top" links tags beta, alpha (in that order) and shows the cover. */
export function strapi5Project(dir: string, options: StrapiProjectOptions = {}): void {
  const collection = options.collection ?? 'shelves';
  const relation = options.relation ?? 'tags';
  write(join(dir, 'src/api/shelf/content-types/shelf/schema.json'), {
    kind: 'collectionType',
    collectionName: collection,
    info: { singularName: 'shelf', pluralName: 'shelves', displayName: 'Shelf' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      [relation]: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
    },
  });
  write(join(dir, 'src/api/tag/content-types/tag/schema.json'), {
    kind: 'collectionType',
    collectionName: 'tags',
    info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' } },
  });
  writeFileSync(join(dir, '.env'), 'API_TOKEN_SALT=hand-built-salt\nJWT_SECRET=hand-built-jwt\n');
  mkdirSync(join(dir, 'public/uploads'), { recursive: true });
  writeFileSync(join(dir, 'public/uploads', COVER.name), COVER.bytes);
  mkdirSync(join(dir, '.tmp'), { recursive: true });

  const shelves = tableName(collection);
  const links = linkTable(shelves, relation);
  const c = linkColumns('shelf', 'tag');
  const db = new BunDatabase(join(dir, '.tmp/data.db'));
  const stamps = 'created_at datetime, updated_at datetime, published_at datetime, created_by_id integer, updated_by_id integer, locale varchar(255)';
  db.exec(`
    CREATE TABLE ${q(shelves)} (id integer primary key, document_id varchar(255), title varchar(255), ${stamps});
    CREATE TABLE tags (id integer primary key, document_id varchar(255), name varchar(255), ${stamps});
    CREATE TABLE ${q(links)} (id integer primary key, ${q(c.source)} integer, ${q(c.target)} integer, ${q(c.order)} float, ${q(c.inverseOrder)} float);
    CREATE TABLE files (id integer primary key, document_id varchar(255), name varchar(255), alternative_text varchar(255), caption varchar(255),
      width integer, height integer, formats json, hash varchar(255), ext varchar(255), mime varchar(255), size float, url varchar(255),
      preview_url varchar(255), provider varchar(255), provider_metadata json, folder_path varchar(255), ${stamps});
    CREATE TABLE files_related_mph (id integer primary key, file_id integer, related_id integer, related_type varchar(255), field varchar(255), "order" float);
    CREATE TABLE i18n_locale (id integer primary key, document_id varchar(255), name varchar(255), code varchar(255), ${stamps});
  `);
  const run = (text: string, ...rows: unknown[][]) => (rows.length ? rows : [[]]).forEach((r) => db.run(text, r as never[]));
  run('INSERT INTO i18n_locale (id, document_id, name, code, created_at, published_at) VALUES (1, ?, ?, ?, ?, ?)', ['loc1', 'English (en)', 'en', T, T]);
  run(`INSERT INTO ${q(shelves)} (id, document_id, title, created_at, updated_at, published_at) VALUES (1, 'shelfdoc1', 'Top', ?, ?, ?)`, [T, T, T]);
  run(
    'INSERT INTO tags (id, document_id, name, created_at, updated_at, published_at) VALUES (?, ?, ?, ?, ?, ?)',
    [1, 'tagdoc1', 'alpha', T, T, T],
    [2, 'tagdoc2', 'beta', T, T, T],
  );
  run(`INSERT INTO ${q(links)} (id, ${q(c.source)}, ${q(c.target)}, ${q(c.order)}, ${q(c.inverseOrder)}) VALUES (?, 1, ?, ?, 1)`, [1, 2, 1], [2, 1, 2]);
  const formats = JSON.stringify({
    thumbnail: {
      name: 'thumbnail_cover.png',
      hash: 'thumbnail_cover_abc',
      ext: '.png',
      mime: 'image/png',
      width: 4,
      height: 3,
      size: 0.01,
      url: '/uploads/thumbnail_cover_abc.png',
    },
  });
  run(
    `INSERT INTO files (id, document_id, name, hash, ext, mime, size, url, provider, width, height, formats, folder_path, created_at, updated_at, published_at)
    VALUES (1, 'filedoc1', 'cover.png', 'cover_abc', '.png', 'image/png', 0.04, ?, 'local', 4, 3, ?, '/', ?, ?, ?)`,
    [`/uploads/${COVER.name}`, formats, T, T, T],
  );
  run("INSERT INTO files_related_mph (id, file_id, related_id, related_type, field, \"order\") VALUES (1, 1, 1, 'api::shelf.shelf', 'cover', 1)");
  db.close();
  writeFileSync(join(dir, 'public/uploads/thumbnail_cover_abc.png'), 'thumbnail bytes');
}
