/**
 * Dynamic zone fragments as front ends send them (test/fixtures/public-projects/course-site: a
 * page and a home page whose zones hold different block types, read by one shared loader).
 * Every answer here is Strapi 5.54.0's: a fragment given as `true` populates the zone's entries
 * of that type; a fragment naming a type the zone does not hold (or any other known model) is
 * taken and populates nothing; `{ populate: true }` inside a fragment is Strapi's 400 with
 * Strapi's message ("Invalid key true"); a key of a nested populate string is named by its
 * place in that string. Real servers, both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import qs from 'qs';
import { startServer, type TestServer } from '../helpers/server';

const PROJECT = resolve(import.meta.dir, '../fixtures/public-projects/course-site');

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ contentTypes: PROJECT });
  const page = await server.call('POST', '/api/pages', {
    body: {
      data: {
        title: 'About',
        blocks: [
          { __component: 'layout.hero-section', heading: 'Learn', subHeading: 'Fast', link: { url: '/start', text: 'Start' } },
          { __component: 'blocks.heading', heading: 'Our story', linkId: 'story' },
          { __component: 'blocks.subscribe', headline: 'News', placeholder: 'you@example.com', buttonText: 'Join' },
        ],
      },
    },
  });
  expect(page.status).toBe(201);
});
afterAll(() => server.stop());

/** GET /api/pages with a qs-built query (as the front end builds it), fields: title. */
const pages = (query: Record<string, unknown>) => server.call('GET', `/api/pages?${qs.stringify({ fields: ['title'], ...query }, { encodeValuesOnly: true })}`);

/** One loader for every page type: fragments for the block types of all zones. */
const sharedLoader = {
  blocks: {
    on: {
      'layout.hero-section': { populate: { image: { fields: ['url', 'alternativeText'] }, link: true } },
      'layout.features-section': { populate: { feature: true } },
      'blocks.heading': true,
      'blocks.subscribe': true,
    },
  },
};

describe('dynamic zone fragments', () => {
  it('populates the entries of a fragment given as true with their own values', async () => {
    const res = await pages({ populate: { blocks: { on: { 'blocks.heading': true } } } });
    expect(res.status).toBe(200);
    expect(res.body.data[0].blocks).toEqual([{ id: expect.any(Number), __component: 'blocks.heading', heading: 'Our story', linkId: 'story' }]);
  });

  it("takes a fragment for a type the zone does not hold, as a shared loader sends it, and populates the zone's own types", async () => {
    const res = await pages({ populate: sharedLoader });
    expect(res.status).toBe(200);
    const blocks = res.body.data[0].blocks;
    expect(blocks.map((b: any) => b.__component)).toEqual(['layout.hero-section', 'blocks.heading', 'blocks.subscribe']);
    expect(blocks[0]).toMatchObject({ heading: 'Learn', image: null, link: { url: '/start', text: 'Start', isExternal: false } });
    expect(blocks[2]).toMatchObject({ headline: 'News', buttonText: 'Join' });
    // The home page's zone holds no heading or subscribe block: the same loader is answered there too.
    const home = await server.call('PUT', '/api/home-page', {
      body: {
        data: { title: 'Home', blocks: [{ __component: 'layout.features-section', title: 'Why', feature: [{ heading: 'Quick', icon: 'CLOCK_ICON' }] }] },
      },
    });
    expect(home.status).toBe(200);
    const read = await server.call('GET', `/api/home-page?${qs.stringify({ populate: sharedLoader }, { encodeValuesOnly: true })}`);
    expect(read.status).toBe(200);
    expect(read.body.data.blocks).toMatchObject([
      { __component: 'layout.features-section', title: 'Why', feature: [{ heading: 'Quick', icon: 'CLOCK_ICON' }] },
    ]);
  });

  it('takes a fragment naming a content type or a component of another zone and populates nothing for it', async () => {
    for (const uid of ['layout.features-section', 'components.link', 'api::page.page']) {
      const res = await pages({ populate: { blocks: { on: { [uid]: true } } } });
      expect(res.status).toBe(200);
      expect(res.body.data[0].blocks).toEqual([]);
    }
  });

  it('refuses a fragment naming no model, with the path Strapi names', async () => {
    const res = await pages({ populate: { blocks: { on: { 'blocks.nope': true } } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key blocks.nope at blocks.on.blocks.nope',
      details: { key: 'blocks.nope', path: 'blocks.on.blocks.nope', source: 'query', param: 'populate' },
    });
  });

  it("answers { populate: true } inside a fragment with Strapi's 400 and message", async () => {
    for (const uid of ['layout.hero-section', 'blocks.subscribe']) {
      const res = await pages({ populate: { blocks: { on: { [uid]: { populate: true } } } } });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key true',
        details: { key: 'true', path: 'true', source: 'query', param: 'populate' },
      });
    }
  });

  it('names a key of a nested populate string by its place in that string', async () => {
    const nested = await pages({ populate: { blocks: { on: { 'layout.hero-section': { populate: 'link.nope' } } } } });
    expect(nested.status).toBe(400);
    expect(nested.body.error.message).toBe('Invalid key nope at link.nope');
    const first = await pages({ populate: { blocks: { on: { 'layout.hero-section': { populate: 'nope,link' } } } } });
    expect(first.body.error).toMatchObject({ message: 'Invalid key nope', details: { key: 'nope', path: 'nope' } });
    const top = await pages({ populate: 'blocks.nope' });
    expect(top.body.error.message).toBe('Invalid key nope at blocks.nope');
  });

  it('skips a boolean word given as a populate key, and refuses a fragment value that is no boolean word', async () => {
    const skipped = await pages({ populate: { blocks: { on: { 'layout.hero-section': { populate: { true: true, link: true } } } } } });
    expect(skipped.status).toBe(200);
    expect(skipped.body.data[0].blocks[0].link).toMatchObject({ url: '/start' });
    const word = await pages({ populate: { blocks: { on: { 'blocks.heading': 'yes' } } } });
    expect(word.status).toBe(400);
    expect(word.body.error.message).toBe('Invalid key yes at blocks');
  });

  it('refuses a nested populate of a zone other than *, naming populate as Strapi does', async () => {
    const res = await pages({ populate: { blocks: { populate: true } } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid key populate at blocks');
  });
});
