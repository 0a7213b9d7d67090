/**
 * Every attribute type of test/fixtures/all-types round-trips through POST and GET the way
 * Strapi 5 answers it (spec §2, §4; samples components-dynamic-zone.json, create.json).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_TYPES_CONTENT_TYPES, startServer, tempDir, type TestServer } from '../helpers/server';

const SCALARS = {
  aString: 'Hello world',
  aText: 'Line one\nLine two',
  aRichText: '## Title\n\n**bold** text',
  anEmail: 'ada@example.com',
  aUid: 'hello-world_1.~',
  anEnumeration: 'beta',
  anInteger: 42,
  aBigInteger: '9007199254740993',
  aFloat: 3.14159,
  aDecimal: 4.5,
  aBoolean: true,
  aDate: '2024-05-01',
  aJson: { nested: { list: [1, 'two', { three: [true, null] }] }, empty: {}, zero: 0 },
  aBlocks: [
    { type: 'heading', level: 2, children: [{ type: 'text', text: 'Heading' }] },
    {
      type: 'paragraph',
      children: [
        { type: 'text', text: 'Hello ', bold: true },
        { type: 'text', text: 'blocks' },
      ],
    },
  ],
};

const CARD = { label: 'Card', count: 3 };

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ contentTypes: ALL_TYPES_CONTENT_TYPES });
});
afterAll(() => server.stop());

async function create(data: Record<string, unknown>, query = '') {
  const created = await server.call('POST', `/api/showcases${query}`, { body: { data } });
  expect(created.status).toBe(201);
  return created.body.data;
}

async function read(documentId: string, query = '') {
  const found = await server.call('GET', `/api/showcases/${documentId}${query}`);
  expect(found.status).toBe(200);
  return found.body.data;
}

describe('scalar attributes', () => {
  it('returns every scalar value exactly as it was sent, on create and on a later GET', async () => {
    const created = await create(SCALARS);
    expect(created).toMatchObject(SCALARS);
    const found = await read(created.documentId);
    expect(found).toMatchObject(SCALARS);
    expect(found.documentId).toBe(created.documentId);
  });

  it('keeps a biginteger beyond 2^53 exact, as a string, in single reads and lists', async () => {
    const created = await create({ aBigInteger: '9007199254740993' });
    expect((await read(created.documentId)).aBigInteger).toBe('9007199254740993');
    const listed = await server.call('GET', `/api/showcases?filters[documentId][$eq]=${created.documentId}`);
    expect(listed.body.data[0].aBigInteger).toBe('9007199254740993');
    const negative = await create({ aBigInteger: '-9223372036854775807' });
    expect((await read(negative.documentId)).aBigInteger).toBe('-9223372036854775807');
  });

  it('answers booleans as true and false, never as 1 and 0', async () => {
    const yes = await read((await create({ aBoolean: true })).documentId);
    const no = await read((await create({ aBoolean: false })).documentId);
    expect(yes.aBoolean).toBe(true);
    expect(no.aBoolean).toBe(false);
  });

  it('completes a time to HH:mm:ss.SSS', async () => {
    const found = await read((await create({ aTime: '13:45:00' })).documentId);
    expect(found.aTime).toBe('13:45:00.000');
    const precise = await read((await create({ aTime: '07:05:09.120' })).documentId);
    expect(precise.aTime).toBe('07:05:09.120');
  });

  it('answers a date as YYYY-MM-DD without a time part', async () => {
    const found = await read((await create({ aDate: '2024-05-01' })).documentId);
    expect(found.aDate).toBe('2024-05-01');
  });

  it('normalises a datetime given in any ISO form to toISOString form, and answers a timestamp in unix milliseconds', async () => {
    const found = await read((await create({ aDateTime: '2024-05-01T13:45:00+02:00', aTimestamp: '2024-05-01T11:45:30Z' })).documentId);
    expect(found.aDateTime).toBe('2024-05-01T11:45:00.000Z');
    expect(found.aTimestamp).toBe(String(Date.UTC(2024, 4, 1, 11, 45, 30)));
  });

  it('round-trips json values of every shape, including falsy ones', async () => {
    for (const value of [{ deep: { a: [{ b: [1, 2] }] } }, [1, [2, [3]]], 'text', 0, false]) {
      const found = await read((await create({ aJson: value })).documentId);
      expect(found.aJson).toEqual(value);
    }
  });

  it('rejects values of the wrong type with a 400 ValidationError naming the attribute', async () => {
    for (const [name, value] of Object.entries({ anInteger: 'abc', aBoolean: 'maybe', anEnumeration: 'delta', aDate: '01/05/2024', aBigInteger: '12.5' })) {
      const response = await server.call('POST', '/api/showcases', { body: { data: { [name]: value } } });
      expect(response.status).toBe(400);
      expect(response.body.error.name).toBe('ValidationError');
      expect(response.body.error.details.errors[0].path).toEqual([name]);
    }
  });

  it('clears every attribute with null on update', async () => {
    const created = await create({
      ...SCALARS,
      aUid: 'to-be-cleared',
      aTime: '10:00:00',
      aDateTime: '2024-01-01T00:00:00Z',
      aTimestamp: '2024-01-01T00:00:00Z',
      aComponent: CARD,
      aRepeatableComponent: [CARD],
      aDynamicZone: [{ __component: 'parts.note', body: 'x' }],
    });
    const nulls = Object.fromEntries([...Object.keys(SCALARS), 'aTime', 'aDateTime', 'aTimestamp'].map((k) => [k, null]));
    const updated = await server.call('PUT', `/api/showcases/${created.documentId}`, {
      body: { data: { ...nulls, aComponent: null, aRepeatableComponent: [], aDynamicZone: [] } },
    });
    expect(updated.status).toBe(200);
    const found = await read(created.documentId, '?populate=*');
    expect(found).toMatchObject({ ...nulls, aComponent: null, aRepeatableComponent: [], aDynamicZone: [] });
  });

  it('refuses a second document with the same uid with 400 "This attribute must be unique"', async () => {
    await create({ aUid: 'taken-uid' });
    const again = await server.call('POST', '/api/showcases', { body: { data: { aUid: 'taken-uid' } } });
    expect(again.status).toBe(400);
    expect(again.body.error.details.errors[0]).toMatchObject({ path: ['aUid'], message: 'This attribute must be unique' });
  });

  it('answers null for every attribute omitted on create', async () => {
    const found = await read((await create({ aString: 'only this' })).documentId);
    for (const name of [...Object.keys(SCALARS), 'aTime', 'aDateTime', 'aTimestamp'].filter((n) => n !== 'aString')) {
      expect(found[name]).toBeNull();
    }
  });
});

describe('password attributes', () => {
  it('accepts a password but never returns it, not even when asked for by fields', async () => {
    const created = await create({ aString: 'with secret', aPassword: 's3cret-Passw0rd' });
    expect(created).not.toHaveProperty('aPassword');
    expect(await read(created.documentId)).not.toHaveProperty('aPassword');
    const listed = await server.call('GET', `/api/showcases?filters[documentId][$eq]=${created.documentId}`);
    expect(listed.body.data[0]).not.toHaveProperty('aPassword');
    const picked = await server.call('GET', `/api/showcases/${created.documentId}?fields[0]=aPassword&fields[1]=aString`);
    expect(picked.body.data ?? {}).not.toHaveProperty('aPassword');
  });

  it('stores a password hashed with Bun.password, never in clear text', async () => {
    const created = await create({ aPassword: 's3cret-Passw0rd' });
    const row = await server.instance.db.get<{ aPassword: string | null }>('SELECT "aPassword" FROM "showcases" WHERE "documentId" = ?', [created.documentId]);
    expect(row?.aPassword).toEqual(expect.any(String));
    expect(row!.aPassword).not.toContain('s3cret-Passw0rd');
    expect(await Bun.password.verify('s3cret-Passw0rd', row!.aPassword!)).toBe(true);
  });
});

describe('components, dynamic zones and media', () => {
  it('round-trips a single component, a repeatable component and a dynamic zone with populate=*, each item with an id', async () => {
    const created = await create({
      aString: 'composed',
      aComponent: CARD,
      aRepeatableComponent: [
        { label: 'first', count: 1 },
        { label: 'second', count: 2 },
      ],
      aDynamicZone: [
        { __component: 'parts.note', body: 'A note' },
        { __component: 'parts.card', label: 'In zone', count: 9 },
      ],
    });
    const found = await read(created.documentId, '?populate=*');
    expect(found.aComponent).toEqual({ id: expect.any(Number), ...CARD });
    expect(found.aRepeatableComponent).toEqual([
      { id: expect.any(Number), label: 'first', count: 1 },
      { id: expect.any(Number), label: 'second', count: 2 },
    ]);
    expect(found.aDynamicZone).toEqual([
      { id: expect.any(Number), __component: 'parts.note', body: 'A note' },
      { id: expect.any(Number), __component: 'parts.card', label: 'In zone', count: 9 },
    ]);
    expect(found.aRepeatableComponent[0].id).not.toBe(found.aRepeatableComponent[1].id);
  });

  it('leaves components, the dynamic zone and media out of the answer unless populated', async () => {
    const created = await create({ aComponent: CARD, aDynamicZone: [{ __component: 'parts.note', body: 'x' }] });
    const found = await read(created.documentId);
    for (const name of ['aComponent', 'aRepeatableComponent', 'aDynamicZone', 'aSingleMedia', 'aMultipleMedia']) {
      expect(found).not.toHaveProperty(name);
    }
  });

  it('defaults an omitted component to null and an omitted repeatable component or dynamic zone to []', async () => {
    const found = await read((await create({ aString: 'bare' })).documentId, '?populate=*');
    expect(found.aComponent).toBeNull();
    expect(found.aRepeatableComponent).toEqual([]);
    expect(found.aDynamicZone).toEqual([]);
  });

  it('replaces a repeatable component wholesale on update', async () => {
    const created = await create({ aRepeatableComponent: [{ label: 'a' }, { label: 'b' }] });
    await server.call('PUT', `/api/showcases/${created.documentId}`, { body: { data: { aRepeatableComponent: [{ label: 'c' }] } } });
    const found = await read(created.documentId, '?populate=*');
    expect(found.aRepeatableComponent).toEqual([{ id: expect.any(Number), label: 'c', count: null }]);
  });

  it('rejects a dynamic zone item whose __component is not allowed with a 400 naming its path', async () => {
    const response = await server.call('POST', '/api/showcases', {
      body: { data: { aDynamicZone: [{ __component: 'parts.nope', body: 'x' }] } },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.name).toBe('ValidationError');
    // Issue #5 asks for numeric indexes in paths (["blocks", 1, "body"]); Strapi writes them as strings.
    expect(response.body.error.details.errors[0].path).toEqual(['aDynamicZone', 0, '__component']);
  });

  it('accepts [] and null for media attributes and answers null and [] when populated', async () => {
    const created = await create({ aSingleMedia: null, aMultipleMedia: [] });
    const found = await read(created.documentId, '?populate=*');
    expect(found.aSingleMedia).toBeNull();
    expect(found.aMultipleMedia).toEqual([]);
    const cleared = await server.call('PUT', `/api/showcases/${created.documentId}`, { body: { data: { aSingleMedia: null, aMultipleMedia: null } } });
    expect(cleared.status).toBe(200);
  });
});

describe('default values', () => {
  let withDefaults: TestServer;
  let contentTypes: string;

  beforeAll(async () => {
    contentTypes = tempDir('folio-defaults-ct-');
    cpSync(join(ALL_TYPES_CONTENT_TYPES, 'components'), join(contentTypes, 'components'), { recursive: true });
    mkdirSync(contentTypes, { recursive: true });
    writeFileSync(
      join(contentTypes, 'preset.json'),
      JSON.stringify({
        kind: 'collectionType',
        collectionName: 'presets',
        info: { singularName: 'preset', pluralName: 'presets', displayName: 'Preset' },
        options: { draftAndPublish: false },
        attributes: {
          title: { type: 'string', default: 'Untitled' },
          count: { type: 'integer', default: 7 },
          ratio: { type: 'decimal', default: 1.5 },
          active: { type: 'boolean', default: true },
          hidden: { type: 'boolean', default: false },
          level: { type: 'enumeration', enum: ['low', 'high'], default: 'high' },
          settings: { type: 'json', default: { theme: 'dark', sizes: [1, 2] } },
          note: { type: 'text' },
          cards: { type: 'component', component: 'parts.card', repeatable: true },
        },
      }),
    );
    withDefaults = await startServer({ contentTypes });
  });
  afterAll(async () => {
    await withDefaults.stop();
    rmSync(contentTypes, { recursive: true, force: true });
  });

  it('applies each default on create when the attribute is omitted', async () => {
    const created = await withDefaults.call('POST', '/api/presets?populate=*', { body: { data: { note: 'n' } } });
    expect(created.status).toBe(201);
    const expected = {
      title: 'Untitled',
      count: 7,
      ratio: 1.5,
      active: true,
      hidden: false,
      level: 'high',
      settings: { theme: 'dark', sizes: [1, 2] },
      note: 'n',
    };
    expect(created.body.data).toMatchObject(expected);
    expect(created.body.data.cards).toEqual([]);
    const found = await withDefaults.call('GET', `/api/presets/${created.body.data.documentId}`);
    expect(found.body.data).toMatchObject(expected);
  });

  it('keeps given values over defaults and does not re-apply defaults on update', async () => {
    const created = await withDefaults.call('POST', '/api/presets', { body: { data: { title: 'Mine', count: 1, active: false } } });
    expect(created.body.data).toMatchObject({ title: 'Mine', count: 1, active: false, level: 'high' });
    const updated = await withDefaults.call('PUT', `/api/presets/${created.body.data.documentId}`, { body: { data: { level: null, note: 'x' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ title: 'Mine', count: 1, active: false, level: null, note: 'x' });
  });
});
