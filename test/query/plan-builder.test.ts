/**
 * The typed plan builder (src/query/plan-builder.ts) beyond what REST's parameters reach:
 * Strapi 5's `publicationFilter` (on the root, and inherited by populated relations when
 * asked), and aliases in populate (one attribute read several times under other keys, each
 * with its own filters and sort), run through the document service on a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { ValidationError } from '../../src/errors';
import { buildReadPlan, type PlanParams, type PlanOptions } from '../../src/query/plan-builder';
import type { ContentType } from '../../src/registry/types';
import { seedCreate, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let article: ContentType;
let tag: ContentType;
const options: PlanOptions = { defaultLocale: 'en' };

const titles = async (params: PlanParams, planOptions: PlanOptions = options) =>
  (await server.instance.documents.findMany(article, buildReadPlan(server.instance.registry, article, { sort: ['title'], ...params }, planOptions))).data;

beforeAll(async () => {
  server = await startServer();
  article = server.instance.registry.contentType('api::article.article')!;
  tag = server.instance.registry.contentType('api::tag.tag')!;
  const alpha = (await seedCreate(server, '/api/tags', { name: 'alpha' })).documentId;
  const beta = (await seedCreate(server, '/api/tags', { name: 'beta' })).documentId;
  const gamma = (await seedCreate(server, '/api/tags', { name: 'gamma' })).documentId;
  expect((await server.call('PUT', `/api/tags/${beta}?status=draft`, { body: { data: { name: 'beta (edited)' } } })).status).toBe(200);
  const one = (await seedCreate(server, '/api/articles', { title: 'One', tags: [gamma, alpha, beta] })).documentId;
  await seedCreate(server, '/api/articles', { title: 'Two', tags: [beta] });
  await seedCreate(server, '/api/articles', { title: 'Draft', tags: [alpha] }, '?status=draft');
  expect((await server.call('PUT', `/api/articles/${one}?status=draft`, { body: { data: { title: 'One (edited)' } } })).status).toBe(200);
});
afterAll(() => server.stop());

describe('publicationFilter', () => {
  it('keeps the versions of the status asked by how they stand beside the other status', async () => {
    const draft = async (publicationFilter: PlanParams['publicationFilter']) => (await titles({ status: 'draft', publicationFilter })).map((a) => a.title);
    expect(await draft('never-published')).toEqual(['Draft']);
    expect(await draft('has-published-version')).toEqual(['One (edited)', 'Two']);
    expect(await draft('modified')).toEqual(['One (edited)']);
    expect(await draft('unmodified')).toEqual(['Two']);
    expect(await draft('published-with-draft')).toEqual([]);
    const published = async (publicationFilter: PlanParams['publicationFilter']) =>
      (await titles({ status: 'published', publicationFilter })).map((a) => a.title);
    expect(await published('never-published')).toEqual([]);
    expect(await published('modified')).toEqual(['One']);
    expect(await published('published-with-draft')).toEqual(['One', 'Two']);
    expect(await published('published-without-draft')).toEqual([]);
  });

  it('applies to populated relations only when asked to inherit it', async () => {
    const populate = { tags: { sort: ['name'] } };
    const plain = await titles({ status: 'draft', publicationFilter: 'modified', populate });
    expect(plain.map((a) => (a.tags as { name: string }[]).map((t) => t.name))).toEqual([['alpha', 'beta (edited)', 'gamma']]);
    const inherited = await titles({ status: 'draft', publicationFilter: 'modified', populate }, { ...options, inheritPublicationFilter: true });
    expect(inherited.map((a) => (a.tags as { name: string }[]).map((t) => t.name))).toEqual([['beta (edited)']]);
  });

  it('refuses a value it does not know, naming the ones it does', () => {
    expect(() => buildReadPlan(server.instance.registry, tag, { publicationFilter: 'nope' as never }, options)).toThrow(ValidationError);
    expect(() => buildReadPlan(server.instance.registry, tag, { publicationFilter: 'nope' as never }, options)).toThrow(/Expected one of: never-published, /);
  });
});

describe('aliases in populate', () => {
  it('reads one relation under several keys, each with its own filters and sort', async () => {
    const [one] = await titles({
      filters: { title: { $eq: 'One' } },
      populate: {
        first: { attribute: 'tags', sort: ['name'], fields: ['name'] },
        last: { attribute: 'tags', sort: ['name:desc'], fields: ['name'] },
        noAlpha: { attribute: 'tags', filters: { name: { $ne: 'alpha' } }, fields: ['name'] },
        tags: true,
      },
    });
    const names = (key: string) => (one![key] as { name: string }[]).map((t) => t.name);
    expect(names('first')).toEqual(['alpha', 'beta', 'gamma']);
    expect(names('last')).toEqual(['gamma', 'beta', 'alpha']);
    expect(names('noAlpha')).toEqual(['gamma', 'beta']);
    expect(names('tags')).toEqual(['gamma', 'alpha', 'beta']);
  });

  it('checks each aliased entry as REST populate is checked', () => {
    const plan = (populate: PlanParams['populate']) => buildReadPlan(server.instance.registry, article, { populate }, options);
    expect(() => plan({ x: { attribute: 'nope' } })).toThrow('Invalid key nope');
    expect(() => plan({ x: { attribute: 'tags', filters: { nope: { $eq: 1 } } } })).toThrow('Invalid key nope');
  });
});
