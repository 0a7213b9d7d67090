/**
 * The rest of `@strapi/client` a front end uses, beside the content managers
 * (test/documents/strapi-client.test.ts): `client.files` (upload a Buffer with its info, find
 * with filters and sort, findOne, update the info, delete, its FileNotFoundError),
 * `client.collection('users')` (the users-permissions plugin: unwrapped bodies, numeric ids) and
 * `client.fetch`. The real package against a real server, on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { strapi } from '@strapi/client';
import { startServer, type TestServer } from '../helpers/server';
import { rejection } from '../helpers/rejection';
import { makeImage } from '../upload/helpers';

let server: TestServer;
let client: ReturnType<typeof strapi>;
beforeAll(async () => {
  server = await startServer({ publicAccess: false });
  client = strapi({ baseURL: `${server.url}/api`, auth: server.tokens.fullAccess });
});
afterAll(() => server.stop());

describe('client.files', () => {
  it('uploads a Buffer with its file info, then finds, updates and deletes it', async () => {
    const bytes = Buffer.from(await makeImage(300, 200));
    const uploaded: any = await client.files.upload(bytes, {
      filename: 'client-hero.png',
      mimetype: 'image/png',
      fileInfo: { alternativeText: 'A hero', caption: 'Hero' },
    });
    expect(Array.isArray(uploaded)).toBe(true);
    const [file] = uploaded;
    expect(file).toMatchObject({ name: 'client-hero.png', mime: 'image/png', width: 300, height: 200, alternativeText: 'A hero', caption: 'Hero' });
    expect(file.formats.thumbnail).toMatchObject({ width: 234, height: 156 });

    await client.files.upload(new Blob([new TextEncoder().encode('plain text')], { type: 'text/plain' }), { fileInfo: { name: 'client-notes.txt' } });
    const images: any = await client.files.find({ filters: { mime: { $contains: 'image' }, name: { $startsWith: 'client-' } }, sort: 'name:asc' });
    expect(images.map((f: { name: string }) => f.name)).toEqual(['client-hero.png']);
    const all: any = await client.files.find({ filters: { name: { $startsWith: 'client-' } }, sort: ['name:desc'] });
    expect(all.map((f: { name: string }) => f.name)).toEqual(['client-notes.txt', 'client-hero.png']);

    const found: any = await client.files.findOne(file.id);
    expect(found).toMatchObject({ id: file.id, documentId: file.documentId, url: file.url });

    // update() posts only `fileInfo` (no file): the info changes, the bytes and their URL stay.
    const updated: any = await client.files.update(file.id, { alternativeText: 'A better hero', caption: 'Better' });
    expect(updated).toMatchObject({ id: file.id, alternativeText: 'A better hero', caption: 'Better', url: file.url });
    expect((await fetch(`${server.url}${file.url}`)).status).toBe(200);

    const deleted: any = await client.files.delete(file.id);
    expect(deleted).toMatchObject({ id: file.id });
    const missing = await rejection(client.files.findOne(file.id));
    expect(missing.name).toBe('FileNotFoundError');
    expect(missing.fileId).toBe(file.id);
  });

  it('answers FileForbiddenError to a read-only token that tries to delete', async () => {
    const readOnly = strapi({ baseURL: `${server.url}/api`, auth: server.tokens.readOnly });
    const [file]: any = await client.files.upload(Buffer.from('kept'), { filename: 'client-kept.txt', mimetype: 'text/plain' });
    const refused = await rejection(readOnly.files.delete(file.id));
    expect(refused.name).toBe('FileForbiddenError');
    expect(((await client.files.findOne(file.id)) as any).name).toBe('client-kept.txt');
  });
});

describe("client.collection('users')", () => {
  it('creates, finds, updates and deletes users with unwrapped bodies and numeric ids', async () => {
    const users = client.collection('users');
    const created: any = await users.create({ username: 'clientuser', email: 'clientuser@example.com', password: 'secret123', role: 'authenticated' });
    expect(created).toMatchObject({ username: 'clientuser', email: 'clientuser@example.com', confirmed: true, blocked: false });
    expect(JSON.stringify(created)).not.toContain('password');

    const listed: any = await users.find({ filters: { username: { $eq: 'clientuser' } }, fields: ['username'], populate: ['role'] });
    expect(listed).toEqual([
      { id: created.id, documentId: created.documentId, username: 'clientuser', role: expect.objectContaining({ type: 'authenticated' }) },
    ]);

    const one: any = await (users as any).findOne(created.id);
    expect(one.username).toBe('clientuser');
    const updated: any = await (users as any).update(created.id, { username: 'clientuser2' });
    expect(updated.username).toBe('clientuser2');

    await (users as any).delete(created.id);
    const gone = await rejection((users as any).findOne(created.id));
    expect(gone.name).toBe('HTTPNotFoundError');
  });
});

describe('client.fetch', () => {
  it('sends the token and the JSON content type to any API path', async () => {
    const made = await client.fetch('/categories', { method: 'POST', body: JSON.stringify({ data: { name: 'Fetched' } }) });
    expect(made.status).toBe(201);
    const response = await client.fetch('/categories?filters[name][$eq]=Fetched');
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).data.map((c: { name: string }) => c.name)).toEqual(['Fetched']);
  });
});
