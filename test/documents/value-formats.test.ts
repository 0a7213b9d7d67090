/**
 * Attribute values as Strapi 5 accepts and answers them (its database fields and yup 0.32
 * validators): times need seconds, datetimes and timestamps take unix milliseconds, a
 * timestamp is answered as unix milliseconds, impossible dates and yup-invalid e-mails are
 * refused; a repeatable component or dynamic zone cannot be null, and publishing checks
 * required components. Fixture: test/fixtures/values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import qs from 'qs';
import { resolve } from 'node:path';
import { startServer, type TestServer } from '../helpers/server';

const VALUES = resolve(import.meta.dir, '../fixtures/values');
const VENUE = { name: 'Hall' };

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ contentTypes: VALUES });
});
afterAll(() => server.stop());

const post = (data: Record<string, unknown>, query = '') => server.call('POST', `/api/events${query}`, { body: { data } });

async function created(data: Record<string, unknown>, query = '') {
  const response = await post({ venue: VENUE, ...data }, query);
  expect(response.status).toBe(201);
  return response.body.data;
}

/** The 400 of a refused write, with the count of events before and after (nothing written). */
async function refused(data: Record<string, unknown>, query = '') {
  const before = (await server.call('GET', '/api/events?status=draft')).body.meta.pagination.total;
  const response = await post(data, query);
  expect(response.status).toBe(400);
  expect(response.body.data).toBeNull();
  expect(response.body.error.name).toBe('ValidationError');
  expect((await server.call('GET', '/api/events?status=draft')).body.meta.pagination.total).toBe(before);
  return response.body.error;
}

describe('time', () => {
  it('answers a time with seconds as HH:mm:ss.SSS', async () => {
    expect((await created({ opensAt: '09:30:15' })).opensAt).toBe('09:30:15.000');
    expect((await created({ opensAt: '23:59:59.5' })).opensAt).toBe('23:59:59.500');
  });

  it('refuses a time without seconds, or out of range, as Strapi does', async () => {
    for (const opensAt of ['09:30', '24:00:00', '12:60:00', '9:30:00', '12:00:00.1234']) {
      const error = await refused({ venue: VENUE, opensAt });
      expect(error.details.errors[0]).toMatchObject({ path: ['opensAt'], message: 'opensAt must be a valid time (HH:mm:ss.SSS)' });
    }
  });

  it('filters on a time given with seconds', async () => {
    const doc = await created({ title: 'time-filter', opensAt: '07:45:00' });
    const query = qs.stringify({ filters: { opensAt: { $eq: '07:45:00' }, title: 'time-filter' } });
    const found = await server.call('GET', `/api/events?${query}`);
    expect(found.body.data.map((e: any) => e.documentId)).toEqual([doc.documentId]);
  });
});

describe('datetime and timestamp', () => {
  const ms = Date.UTC(2024, 4, 1, 11, 45, 30);

  it('accepts a datetime given as unix milliseconds, a number or digits, and answers it in ISO form', async () => {
    expect((await created({ startsAt: ms })).startsAt).toBe('2024-05-01T11:45:30.000Z');
    expect((await created({ startsAt: String(ms) })).startsAt).toBe('2024-05-01T11:45:30.000Z');
  });

  it('answers a timestamp as unix milliseconds in a string, however it was given', async () => {
    const doc = await created({ stamp: '2024-05-01T13:45:30+02:00' });
    expect(doc.stamp).toBe(String(ms));
    expect((await created({ stamp: ms })).stamp).toBe(String(ms));
    const read = await server.call('GET', `/api/events/${doc.documentId}`);
    expect(read.body.data.stamp).toBe(String(ms));
  });

  it('filters and sorts timestamps given as ISO text or unix milliseconds', async () => {
    const early = await created({ title: 'stamps', stamp: ms });
    const late = await created({ title: 'stamps', stamp: ms + 1000 });
    const after = qs.stringify({ filters: { title: 'stamps', stamp: { $gt: String(ms) } } });
    expect((await server.call('GET', `/api/events?${after}`)).body.data.map((e: any) => e.documentId)).toEqual([late.documentId]);
    const iso = qs.stringify({ filters: { title: 'stamps', stamp: { $lte: new Date(ms).toISOString() } } });
    expect((await server.call('GET', `/api/events?${iso}`)).body.data.map((e: any) => e.documentId)).toEqual([early.documentId]);
    const sorted = qs.stringify({ filters: { title: 'stamps' }, sort: 'stamp:desc' });
    expect((await server.call('GET', `/api/events?${sorted}`)).body.data.map((e: any) => e.stamp)).toEqual([String(ms + 1000), String(ms)]);
  });

  it('refuses a value that is no instant', async () => {
    for (const stamp of ['yesterday', '2024-13-01T00:00:00Z', true]) {
      const error = await refused({ venue: VENUE, stamp });
      expect(error.details.errors[0].path).toEqual(['stamp']);
    }
  });
});

describe('date', () => {
  it('refuses a day the calendar does not have, and accepts a leap day', async () => {
    const error = await refused({ venue: VENUE, day: '2023-02-29' });
    expect(error.details.errors[0]).toMatchObject({ path: ['day'], message: 'day must be a valid date (YYYY-MM-DD)' });
    expect((await created({ day: '2024-02-29' })).day).toBe('2024-02-29');
  });
});

describe('email', () => {
  it('refuses addresses yup 0.32 refuses: no dot in the domain, a digit ending it, two dots, no local part', async () => {
    for (const contact of ['still@not', 'a@b.c1', 'a..b@example.com', '@example.com', 'a@example..com', 'a b@example.com']) {
      const error = await refused({ venue: VENUE, contact });
      expect(error.details.errors[0]).toMatchObject({ path: ['contact'], message: 'contact must be a valid email' });
    }
  });

  it('accepts the addresses yup 0.32 accepts, quoted local parts and non-ASCII letters included', async () => {
    for (const contact of ['ada@example.com', 'a.b+tag@sub.example.co', '"ada lovelace"@example.org', 'jürgen@bücher.de']) {
      expect((await created({ contact })).contact).toBe(contact);
    }
  });

  it('refuses an address over 254 characters before any pattern runs', async () => {
    const error = await refused({ venue: VENUE, contact: `${'a'.repeat(250)}@example.com` });
    expect(error.details.errors[0].path).toEqual(['contact']);
  });

  it('lets a draft keep an address that is not valid yet', async () => {
    expect((await created({ contact: 'still@not' }, '?status=draft')).contact).toBe('still@not');
  });
});

describe('components and dynamic zones', () => {
  it('refuses null for a repeatable component or a dynamic zone on create, in yup words', async () => {
    const slots = await refused({ venue: VENUE, slots: null });
    expect(slots.details.errors[0]).toMatchObject({ path: ['slots'], message: 'slots must be defined.', value: null });
    const sections = await refused({ venue: VENUE, sections: null }, '?status=draft');
    expect(sections.details.errors[0]).toMatchObject({ path: ['sections'], message: 'sections must be defined.' });
  });

  it('refuses null on update and changes nothing, while [] clears', async () => {
    const doc = await created({ slots: [VENUE], sections: [{ __component: 'event.venue', name: 'S' }] });
    const path = `/api/events/${doc.documentId}?populate=*`;
    const nulled = await server.call('PUT', path, { body: { data: { slots: null, sections: null } } });
    expect(nulled.status).toBe(400);
    expect(nulled.body.error.details.errors.map((e: any) => [e.path, e.message])).toEqual([
      [['slots'], 'slots cannot be null'],
      [['sections'], 'sections cannot be null'],
    ]);
    const kept = (await server.call('GET', path)).body.data;
    expect(kept.slots).toHaveLength(1);
    expect(kept.sections).toHaveLength(1);
    const cleared = await server.call('PUT', path, { body: { data: { slots: [], sections: [] } } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ slots: [], sections: [] });
  });

  it('refuses to publish a component that misses a required field, on create and on update, but keeps it in a draft', async () => {
    const error = await refused({ venue: { room: 'B2' } });
    expect(error.details.errors[0]).toMatchObject({ path: ['venue', 'name'] });
    const draft = await created({ venue: { room: 'B2' }, slots: [{ room: 'C' }] }, '?status=draft');
    const publish = await server.call('PUT', `/api/events/${draft.documentId}`, { body: { data: { slots: [{ room: 'C' }] } } });
    expect(publish.status).toBe(400);
    expect(publish.body.error.details.errors[0]).toMatchObject({ path: ['slots', 0, 'name'] });
    expect((await server.call('GET', `/api/events/${draft.documentId}`)).status).toBe(404);
    const fixed = await server.call('PUT', `/api/events/${draft.documentId}`, { body: { data: { venue: VENUE, slots: [VENUE] } } });
    expect(fixed.status).toBe(200);
  });

  it('refuses to publish without a required single component, or with it set to null, but lets a draft lack it', async () => {
    const missing = await refused({ title: 'no venue' });
    expect(missing.details.errors[0]).toMatchObject({ path: ['venue'], message: 'venue must be defined.' });
    const draft = await created({ venue: null }, '?status=draft');
    const nulled = await server.call('PUT', `/api/events/${draft.documentId}`, { body: { data: { venue: null } } });
    expect(nulled.status).toBe(400);
    expect(nulled.body.error.details.errors[0]).toMatchObject({ path: ['venue'], message: 'venue cannot be null' });
  });
});
