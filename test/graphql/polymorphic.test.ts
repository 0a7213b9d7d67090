/**
 * Polymorphic relations as Strapi 5.54.0's plugin answers them (checked on the peer with the
 * morph fixture): morphTo sides are `GenericMorph` fields whose every read fails with null
 * and, per row, "Missing schema in validateQuery"; morphOne/morphMany sides are not in the schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import { seedCreate, startServer, type TestServer } from '../helpers/server';
import { gql } from './helpers';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ contentTypes: resolve(import.meta.dir, '../fixtures/morph') });
  const video = await seedCreate(server, '/api/videos', { title: 'V1', length: 3 });
  await seedCreate(server, '/api/comments', { body: 'c1', subject: { __type: 'api::video.video', documentId: video.documentId } });
  await seedCreate(server, '/api/comments', { body: 'c2' });
});
afterAll(() => server.stop());

describe('GraphQL polymorphic relations', () => {
  it('answers a morphTo field null with an error per row, as Strapi', async () => {
    const { status, body } = await gql(server, '{ comments(sort: "body") { body subject { __typename ... on Video { title } } mentions { __typename } } }');
    expect(status).toBe(200);
    expect(body.data).toEqual({
      comments: [
        { body: 'c1', subject: null, mentions: null },
        { body: 'c2', subject: null, mentions: null },
      ],
    });
    const error = (i: number, field: string) => ({
      message: 'Missing schema in validateQuery',
      locations: [{ line: 1, column: field === 'subject' ? 33 : 79 }],
      path: ['comments', i, field],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(body.errors).toEqual([error(0, 'subject'), error(0, 'mentions'), error(1, 'subject'), error(1, 'mentions')]);
  });

  it('shows morphTo sides as GenericMorph and leaves the other sides out', async () => {
    const { body } = await gql(server, '{ c: __type(name: "Comment") { fields { name } } v: __type(name: "Video") { fields { name } } }');
    expect(body.data.c.fields.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['subject', 'mentions']));
    expect(body.data.v.fields.map((f: { name: string }) => f.name)).not.toContain('mentionedIn');
  });
});
