/**
 * FOLIO_UPLOADS=s3://bucket/prefix: uploads go to an S3-compatible server started here
 * (test/helpers/s3-server.ts) through Bun's S3 client, are served by Folio streaming from the
 * bucket or from a public base URL, are replaced under new names and deleted with every
 * format, and two instances sharing one database and one bucket see each other's files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { startS3, type TestS3 } from '../helpers/s3-server';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { startServer, TEST_DATABASE_URL, tempDir, type TestServer } from '../helpers/server';
import { spawnCli } from '../helpers/spawn';
import { makeImage, upload, UPLOAD_ACTIONS } from './helpers';

const PREFIX = 'site/media';
let s3: TestS3;
let server: TestServer;
let png: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  s3 = await startS3();
  server = await startServer({ config: { uploadsS3: s3.location(PREFIX) } });
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  png = await makeImage(600, 400);
}, 30_000);
afterAll(async () => {
  await server?.stop();
  await s3?.stop();
});

/** Stored names of a file object: the original and each format, from their URLs. */
const namesOf = (file: { url: string; formats: Record<string, { url: string }> | null }) =>
  [file.url, ...Object.values(file.formats ?? {}).map((f) => f.url)].map((u) => decodeURIComponent(u.slice(u.lastIndexOf('/') + 1))).sort();

const fetchBytes = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
};

function withEnv<T>(vars: Record<string, string>, fn: () => T): T {
  const previous = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return fn();
  } finally {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('configuration', () => {
  it('reads the bucket and prefix from FOLIO_UPLOADS and the endpoint, region and keys from the standard AWS variables', () => {
    const env = {
      FOLIO_UPLOADS: 's3://my-bucket/site/media/',
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9000',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKID',
      AWS_SECRET_ACCESS_KEY: 'SECRET',
      FOLIO_UPLOADS_PUBLIC_URL: 'https://cdn.example.com/media/',
    };
    const config = withEnv(env, () => resolveConfig({ data: '/tmp/folio-data' }));
    expect(config.uploadsS3).toEqual({
      bucket: 'my-bucket',
      prefix: 'site/media',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      accessKeyId: 'AKID',
      secretAccessKey: 'SECRET',
      sessionToken: undefined,
    });
    expect(config.uploadsPublicUrl).toBe('https://cdn.example.com/media');
    // The local folder stays the default and is not the s3:// text made into a path.
    expect(config.uploadsDir).toBe('/tmp/folio-data/uploads');
    expect(withEnv({ FOLIO_UPLOADS: 's3://root-only' }, () => resolveConfig()).uploadsS3).toMatchObject({ bucket: 'root-only', prefix: '' });
    expect(withEnv({ FOLIO_UPLOADS: '/srv/files' }, () => resolveConfig()).uploadsS3).toBeUndefined();
  });

  it('stops the start with a message on a bad bucket, prefix or public URL', () => {
    for (const bad of ['s3://', 's3://Bad_Bucket/x', 's3://ok-bucket/a/../b']) {
      expect(() => withEnv({ FOLIO_UPLOADS: bad }, () => resolveConfig())).toThrow(/FOLIO_UPLOADS/);
    }
    expect(() => withEnv({ FOLIO_UPLOADS_PUBLIC_URL: 'cdn.example.com' }, () => resolveConfig())).toThrow(/FOLIO_UPLOADS_PUBLIC_URL must be an http\(s\) URL/);
  });
});

describe('uploads in a bucket', () => {
  it('stores an image and its formats under the prefix, nothing on the local disk, and records the aws-s3 provider', async () => {
    const res = await upload(server.url, { files: [{ bytes: png, filename: 'bucket shot.png', type: 'image/png' }] });
    expect(res.status).toBe(201);
    const [file] = res.body;
    expect(file).toMatchObject({ provider: 'aws-s3', width: 600, height: 400, url: `/uploads/${file.hash}.png` });
    expect(Object.keys(file.formats).sort()).toEqual(['small', 'thumbnail']);
    const keys = await s3.keys(PREFIX);
    for (const name of namesOf(file)) expect(keys).toContain(`${PREFIX}/${name}`);
    expect(new Uint8Array(await s3.client.file(`${PREFIX}/${file.hash}.png`).arrayBuffer())).toEqual(png);
    expect(existsSync(join(server.dataDir, 'uploads'))).toBe(false);
  });

  it('serves a stored file through /uploads by streaming it from the bucket, revalidated, with a 304 on its ETag', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: png, filename: 'served.png', type: 'image/png' }] })).body;
    const got = await fetchBytes(server.url + file.url);
    expect(got.status).toBe(200);
    expect(got.bytes).toEqual(png);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('cache-control')).toBe('public, max-age=60, must-revalidate');
    const head = await fetch(server.url + file.formats.thumbnail.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(file.formats.thumbnail.sizeInBytes);
    const again = await fetch(server.url + file.url, { headers: { 'if-none-match': got.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('answers 404 with the envelope for a name the bucket does not hold or one that tries to leave the prefix', async () => {
    await s3.client.write('outside.txt', 'not under the prefix');
    for (const path of ['/uploads/missing_0123456789.png', '/uploads/..%2Foutside.txt', '/uploads/%2E%2E%2F%2E%2E%2Foutside.txt']) {
      const res = await server.call('GET', path);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ data: null, error: { status: 404, name: 'NotFoundError' } });
    }
  });

  it('writes a download (non-media) object with its type and an attachment disposition, as /uploads serves it', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: 'plain words', filename: 'notes.txt', type: 'text/plain' }] })).body;
    const stat = await s3.client.file(`${PREFIX}/${file.hash}.txt`).stat();
    expect(stat.type).toStartWith('text/plain');
    const direct = await fetch(`${s3.endpoint}/${s3.bucket}/${PREFIX}/${file.hash}.txt`);
    expect(direct.headers.get('content-disposition')).toBe(`attachment; filename="${file.hash}.txt"`);
    const viaFolio = await fetch(server.url + file.url);
    expect(viaFolio.headers.get('content-disposition')).toBe(direct.headers.get('content-disposition'));
  });

  it('replaces a file under its names in the bucket (its URL stays) and removes the formats it no longer has', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: png, filename: 'swap.png', type: 'image/png' }] })).body;
    const smaller = await makeImage(200, 100);
    const res = await upload(server.url, { query: `?id=${file.id}`, files: [{ bytes: smaller, filename: 'swap.png', type: 'image/png' }] });
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(file.url);
    const keys = await s3.keys(PREFIX);
    for (const name of namesOf(res.body)) expect(keys).toContain(`${PREFIX}/${name}`);
    for (const name of namesOf(file).filter((n) => !namesOf(res.body).includes(n))) expect(keys).not.toContain(`${PREFIX}/${name}`);
    expect((await fetchBytes(server.url + file.url)).bytes).toEqual(smaller);
  });

  it('deletes the file and every format object from the bucket', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: png, filename: 'doomed.png', type: 'image/png' }] })).body;
    const names = namesOf(file);
    expect(names.length).toBe(3);
    const before = await s3.keys(PREFIX);
    for (const name of names) expect(before).toContain(`${PREFIX}/${name}`);
    const res = await server.call('DELETE', `/api/upload/files/${file.id}`);
    expect(res.status).toBe(200);
    const keys = await s3.keys(PREFIX);
    for (const name of names) expect(keys).not.toContain(`${PREFIX}/${name}`);
    expect((await fetch(server.url + file.url)).status).toBe(404);
  });

  it('answers 503 with the envelope and keeps no row when the bucket cannot be reached', async () => {
    const dead = await startS3('gone-bucket');
    const location = dead.location('x');
    await dead.stop();
    const offline = await startServer({ config: { uploadsS3: location } });
    try {
      await offline.instance.roles.grant('public', UPLOAD_ACTIONS);
      const res = await upload(offline.url, { files: [{ bytes: png, filename: 'lost.png', type: 'image/png' }] });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ data: null, error: { status: 503, name: 'ServiceUnavailableError' } });
      expect(res.headers.get('retry-after')).toBe('1');
      expect((await offline.call('GET', '/api/upload/files')).body).toEqual([]);
      const served = await offline.call('GET', '/uploads/lost_0123456789.png');
      expect(served.status).toBe(503);
    } finally {
      await offline.stop();
    }
  }, 30_000); // starts servers of its own (on PostgreSQL each makes a database)
});

describe('FOLIO_UPLOADS_PUBLIC_URL', () => {
  it('makes file and format URLs absolute under the public base, which serves the same bytes', async () => {
    const base = `${s3.endpoint}/${s3.bucket}/${PREFIX}`;
    const cdn = await startServer({ config: { uploadsS3: s3.location(PREFIX), uploadsPublicUrl: base } });
    try {
      await cdn.instance.roles.grant('public', UPLOAD_ACTIONS);
      const [file] = (await upload(cdn.url, { files: [{ bytes: png, filename: 'public.png', type: 'image/png' }] })).body;
      expect(file.url).toBe(`${base}/${file.hash}.png`);
      expect(file.formats.thumbnail.url).toBe(`${base}/thumbnail_${file.hash}.png`);
      expect((await fetchBytes(file.url)).bytes).toEqual(png);
      expect((await fetch(file.formats.small.url)).status).toBe(200);
      // Folio still serves the name itself, for URLs stored before the base was set.
      expect((await fetchBytes(`${cdn.url}/uploads/${file.hash}.png`)).bytes).toEqual(png);
    } finally {
      await cdn.stop();
    }
  }, 30_000); // starts servers of its own (on PostgreSQL each makes a database)
});

describe('two instances on one database and one bucket', () => {
  it('serve, list and delete each other’s files without a shared disk', async () => {
    const dataDir = tempDir();
    const location = s3.location('shared');
    // Each instance is given its own empty uploads folder: only the bucket is shared.
    const a = await startServer({ dataDir, config: { uploadsS3: location, uploadsDir: tempDir() } });
    const b = await startServer({ dataDir, config: { uploadsS3: location, uploadsDir: tempDir() } });
    try {
      await a.instance.roles.grant('public', UPLOAD_ACTIONS);
      const [file] = (await upload(a.url, { files: [{ bytes: png, filename: 'shared.png', type: 'image/png' }] })).body;
      expect((await fetchBytes(b.url + file.url)).bytes).toEqual(png);
      expect((await fetch(b.url + file.formats.thumbnail.url)).status).toBe(200);
      expect((await b.call('GET', `/api/upload/files/${file.id}`)).body.url).toBe(file.url);
      expect((await b.call('DELETE', `/api/upload/files/${file.id}`)).status).toBe(200);
      expect((await fetch(a.url + file.url)).status).toBe(404);
      expect(await s3.keys('shared')).toEqual([]);
    } finally {
      await b.stop({ keepData: true });
      await a.stop();
    }
  }, 30_000); // starts servers of its own (on PostgreSQL each makes a database)
});

describe('backup and restore with the files in a bucket', () => {
  it('a backup streams the bucket’s files into the archive and a restore writes them to the target’s bucket', async () => {
    const dataDir = tempDir();
    const source = await startServer({ dataDir, config: { uploadsS3: s3.location('backup-src') } });
    const created: string[] = [];
    try {
      await source.instance.roles.grant('public', UPLOAD_ACTIONS);
      const [file] = (await upload(source.url, { files: [{ bytes: png, filename: 'kept.png', type: 'image/png' }] })).body;
      const names = namesOf(file);
      // The CLI runs as its own process (asynchronously: the S3 server answers from this one).
      const env = { AWS_ENDPOINT_URL_S3: s3.endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
      const database = TEST_DATABASE_URL ? readFileSync(join(dataDir, 'test-database-url'), 'utf8') : undefined;
      const archive = join(tempDir(), 'backup.tar.gz');
      const backup = await spawnCli(['backup', archive], { data: dataDir, database, uploads: `s3://${s3.bucket}/backup-src`, env });
      expect(backup.stderr).toBe('');
      expect(backup.stdout).toContain(`, ${names.length} files`);

      const target = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_s3_restore') : undefined;
      if (target) created.push(target);
      const restore = await spawnCli(['restore', archive], { data: tempDir(), database: target, uploads: `s3://${s3.bucket}/restored`, env });
      expect(restore.code).toBe(0);
      expect(await s3.keys('restored')).toEqual(names.map((n) => `restored/${n}`));
      expect(new Uint8Array(await s3.client.file(`restored/${file.hash}.png`).arrayBuffer())).toEqual(png);
    } finally {
      await source.stop();
      if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, created);
    }
  }, 60_000); // two CLI processes, each opening an installation
});
