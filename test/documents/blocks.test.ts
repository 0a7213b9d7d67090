/**
 * Rich text (`blocks`) attributes are checked node by node as Strapi 5's blocks validator
 * checks them, plus Folio's own rules: no script-running link or image URLs, no text that
 * cannot be stored as sent, and a bounded walk. Errors carry the path into the value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { BLOCKS_MAX_DEPTH, BLOCKS_MAX_NODES, checkBlocks, hasBlockedScheme } from '../../src/registry/fields/blocks';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** The file object Strapi's media library puts in an image node. */
const IMAGE = {
  name: 'cat.png',
  alternativeText: 'A cat',
  url: '/uploads/cat.png',
  caption: null,
  width: 640,
  height: 480,
  formats: { thumbnail: { name: 'thumbnail_cat.png', url: '/uploads/thumbnail_cat.png', width: 156, height: 117 } },
  hash: 'cat_1a2b3c',
  ext: '.png',
  mime: 'image/png',
  size: 12.5,
  previewUrl: null,
  provider: 'local',
  provider_metadata: null,
  createdAt: '2024-05-01T10:00:00.000Z',
  updatedAt: '2024-05-01T10:00:00.000Z',
};

const text = (value: string, marks: Record<string, boolean> = {}) => ({ type: 'text', text: value, ...marks });
const paragraph = (...children: unknown[]) => ({ type: 'paragraph', children });

/** One node of every type Strapi's editor produces. */
const EVERY_NODE = [
  { type: 'heading', level: 1, children: [text('Title')] },
  { type: 'heading', level: 6, children: [text('Small')] },
  paragraph(
    text('Plain '),
    text('marked', { bold: true, italic: false, underline: true, strikethrough: false, code: true }),
    { type: 'link', url: 'https://strapi.io/docs?a=1#b', children: [text('absolute')] },
    { type: 'link', url: '/relative/path', children: [text('relative')] },
    { type: 'link', url: 'mailto:hello@example.com', children: [text('mail')] },
    text(''),
  ),
  {
    type: 'list',
    format: 'unordered',
    children: [
      { type: 'list-item', children: [text('one')] },
      { type: 'list', format: 'ordered', indentLevel: 1, children: [{ type: 'list-item', children: [text('nested')] }] },
      { type: 'list-item', children: [] },
    ],
  },
  { type: 'quote', children: [text('Quoted '), { type: 'link', url: 'https://example.com', children: [text('source')] }] },
  { type: 'code', language: 'ts', children: [text('const a = 1;')] },
  { type: 'code', children: [text('plain code')] },
  { type: 'image', image: IMAGE, children: [text('')] },
];

async function articleCount() {
  return (await server.call('GET', '/api/articles?status=draft&pagination[pageSize]=1')).body.meta.pagination.total as number;
}

/** A create whose `body` must be refused with exactly one error at `path`; nothing is stored. */
async function refusedAt(body: unknown, path: (string | number)[], message?: string | RegExp) {
  const before = await articleCount();
  const response = await server.call('POST', '/api/articles', { body: { data: { title: 'blocks', body } } });
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
  const errors = response.body.error.details.errors;
  expect(errors).toHaveLength(1);
  expect(errors[0].path).toEqual(path);
  if (message) expect(errors[0].message).toMatch(message);
  expect(await articleCount()).toBe(before);
  return errors[0];
}

describe('valid rich text', () => {
  it('stores a value using every node type and reads it back exactly', async () => {
    const created = await server.call('POST', '/api/articles', { body: { data: { title: 'every node', body: EVERY_NODE } } });
    expect(created.status).toBe(201);
    expect(created.body.data.body).toEqual(EVERY_NODE);
    expect((await server.call('GET', `/api/articles/${created.body.data.documentId}`)).body.data.body).toEqual(EVERY_NODE);
  });

  it('accepts an empty list of blocks and null', async () => {
    expect((await server.call('POST', '/api/articles', { body: { data: { title: 'empty', body: [] } } })).status).toBe(201);
    expect((await server.call('POST', '/api/articles', { body: { data: { title: 'null', body: null } } })).status).toBe(201);
  });
});

describe('node rules (as Strapi)', () => {
  it('refuses an unknown block type, and a text node at block level', async () => {
    await refusedAt([{ type: 'table', children: [text('x')] }], ['body', 0], 'body[0] must be a paragraph, heading, quote, list, image or code node');
    await refusedAt([text('loose')], ['body', 0]);
    await refusedAt(['paragraph'], ['body', 0], /must be an object/);
    await refusedAt([{ children: [text('no type')] }], ['body', 0]);
  });

  it('points into the value: a bad second child of the second block is body[1].children[1]', async () => {
    const error = await refusedAt(
      [paragraph(text('fine')), paragraph(text('fine'), { type: 'image', image: IMAGE, children: [] })],
      ['body', 1, 'children', 1],
    );
    expect(error.message).toBe('body[1].children[1] must be a text or link node');
    expect(error.value).toEqual({ type: 'image', image: IMAGE, children: [] });
  });

  it('requires a heading level from 1 to 6', async () => {
    await refusedAt([{ type: 'heading', level: 7, children: [text('h')] }], ['body', 0, 'level']);
    await refusedAt([{ type: 'heading', level: '2', children: [text('h')] }], ['body', 0, 'level']);
    await refusedAt([{ type: 'heading', children: [text('h')] }], ['body', 0, 'level']);
  });

  it('requires a list format and list-item or list children', async () => {
    await refusedAt([{ type: 'list', format: 'bulleted', children: [{ type: 'list-item', children: [] }] }], ['body', 0, 'format']);
    await refusedAt([{ type: 'list', format: 'ordered', children: [paragraph(text('not an item'))] }], ['body', 0, 'children', 0]);
    await refusedAt([{ type: 'list', format: 'ordered', children: [] }], ['body', 0, 'children'], /at least 1/);
    await refusedAt(
      [{ type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [paragraph(text('x'))] }] }],
      ['body', 0, 'children', 0, 'children', 0],
    );
  });

  it('requires non-empty children for paragraphs, headings, quotes and code, and an array everywhere', async () => {
    await refusedAt([paragraph()], ['body', 0, 'children'], 'body[0].children must have at least 1 text or link node');
    await refusedAt([{ type: 'quote', children: [] }], ['body', 0, 'children']);
    await refusedAt([{ type: 'heading', level: 2, children: [] }], ['body', 0, 'children']);
    await refusedAt([{ type: 'code', children: [] }], ['body', 0, 'children']);
    await refusedAt([{ type: 'paragraph' }], ['body', 0, 'children'], 'body[0].children must be an array');
    await refusedAt([{ type: 'image', image: IMAGE }], ['body', 0, 'children']);
  });

  it('allows only text inside code blocks and links', async () => {
    await refusedAt([{ type: 'code', children: [{ type: 'link', url: '/x', children: [] }] }], ['body', 0, 'children', 0], /must be a text node/);
    const nested = { type: 'link', url: '/a', children: [{ type: 'link', url: '/b', children: [text('b')] }] };
    await refusedAt([paragraph(nested)], ['body', 0, 'children', 0, 'children', 0]);
    await refusedAt([{ type: 'code', language: 42, children: [text('x')] }], ['body', 0, 'language']);
  });

  it('requires text nodes to carry a string and boolean marks', async () => {
    await refusedAt([paragraph(text('ok'), { type: 'text' })], ['body', 0, 'children', 1, 'text'], 'body[0].children[1].text must be a string');
    await refusedAt([paragraph({ type: 'text', text: 42 })], ['body', 0, 'children', 0, 'text']);
    await refusedAt([paragraph({ type: 'text', text: 'x', bold: 'yes' })], ['body', 0, 'children', 0, 'bold'], /must be a boolean/);
    await refusedAt([paragraph({ type: 'text', text: 'x', code: 1 })], ['body', 0, 'children', 0, 'code']);
  });

  it('requires a link url that is absolute or starts with /', async () => {
    await refusedAt([paragraph({ type: 'link', children: [text('no url')] })], ['body', 0, 'children', 0, 'url']);
    await refusedAt([paragraph({ type: 'link', url: 'not a url', children: [text('x')] })], ['body', 0, 'children', 0, 'url'], /must be a valid link/);
    await refusedAt([paragraph({ type: 'link', url: '', children: [text('x')] })], ['body', 0, 'children', 0, 'url']);
  });

  it("requires the image node's file object with its required keys", async () => {
    await refusedAt([{ type: 'image', children: [] }], ['body', 0, 'image']);
    const { url: _, ...noUrl } = IMAGE;
    await refusedAt([{ type: 'image', image: noUrl, children: [] }], ['body', 0, 'image', 'url']);
    await refusedAt([{ type: 'image', image: { ...IMAGE, width: '640' }, children: [] }], ['body', 0, 'image', 'width']);
    await refusedAt([{ type: 'image', image: { ...IMAGE, name: '' }, children: [] }], ['body', 0, 'image', 'name']);
    await refusedAt([{ type: 'image', image: { ...IMAGE, alternativeText: 3 }, children: [] }], ['body', 0, 'image', 'alternativeText']);
    await refusedAt([{ type: 'image', image: { ...IMAGE, formats: 'small' }, children: [] }], ['body', 0, 'image', 'formats']);
  });

  it('refuses a value that is not an array with the type message', async () => {
    await refusedAt(
      paragraph(text('not in a list')),
      ['body'],
      'body must be a `array` type, but the final value was: `{"type":"paragraph","children":[{"type":"text","text":"not in a list"}]}`.',
    );
  });

  it('checks updates and drafts too, and keeps the stored value when refused', async () => {
    const created = (await server.call('POST', '/api/articles', { body: { data: { title: 'keep', body: [paragraph(text('kept'))] } } })).body.data;
    for (const query of ['', '?status=draft']) {
      const response = await server.call('PUT', `/api/articles/${created.documentId}${query}`, { body: { data: { body: [paragraph()] } } });
      expect(response.status).toBe(400);
      expect(response.body.error.details.errors[0].path).toEqual(['body', 0, 'children']);
    }
    expect((await server.call('GET', `/api/articles/${created.documentId}?status=draft`)).body.data.body).toEqual([paragraph(text('kept'))]);
    expect((await server.call('POST', '/api/articles?status=draft', { body: { data: { title: 'draft', body: [{ type: 'table' }] } } })).status).toBe(400);
  });
});

describe('script-running URLs', () => {
  const DANGEROUS = [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    '  javascript:alert(1)',
    '\u0001\u001f javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscr\ript:alert(1)',
    'vbscript:msgbox(1)',
    'VBSCRIPT:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    ' DATA:text/html,<script>alert(1)</script>',
  ];

  it('refuses a link whose url runs script, however it is cased, padded or split by tabs and newlines', async () => {
    for (const url of DANGEROUS) {
      await refusedAt(
        [paragraph(text('click '), { type: 'link', url, children: [text('me')] })],
        ['body', 0, 'children', 1, 'url'],
        /javascript:, vbscript: or data:/,
      );
    }
  });

  it('refuses such a url in an image node: its url, previewUrl and format urls', async () => {
    await refusedAt([{ type: 'image', image: { ...IMAGE, url: 'javascript:alert(1)' }, children: [] }], ['body', 0, 'image', 'url']);
    await refusedAt([{ type: 'image', image: { ...IMAGE, previewUrl: ' vbscript:x' }, children: [] }], ['body', 0, 'image', 'previewUrl']);
    const formats = { thumbnail: { url: 'data:image/svg+xml,<svg onload=alert(1)>' } };
    await refusedAt([{ type: 'image', image: { ...IMAGE, formats }, children: [] }], ['body', 0, 'image', 'formats', 'thumbnail', 'url']);
  });

  it('reads schemes as a browser does, and only the scheme', () => {
    for (const url of DANGEROUS) expect(hasBlockedScheme(url)).toBe(true);
    for (const url of ['https://example.com/javascript:x', '/javascript:x', 'mailto:a@b.c', 'javascriptx:1', '#data:', 'java script:x', '']) {
      expect(hasBlockedScheme(url)).toBe(false);
    }
  });
});

describe('text that cannot be stored as sent', () => {
  it('refuses NUL and lone surrogates in text nodes and urls, naming the path', async () => {
    await refusedAt([paragraph(text('a\u0000b'))], ['body', 0, 'children', 0, 'text'], /NUL/);
    await refusedAt([paragraph(text('\ud800'))], ['body', 0, 'children', 0, 'text'], /surrogates/);
    await refusedAt([paragraph({ type: 'link', url: '/a\u0000', children: [] })], ['body', 0, 'children', 0, 'url'], /NUL/);
  });
});

describe('a bounded walk', () => {
  it(`refuses lists nested deeper than ${BLOCKS_MAX_DEPTH} levels, without recursing even a million levels down`, () => {
    let node: unknown = { type: 'list-item', children: [text('deep')] };
    for (let i = 0; i < 1_000_000; i++) node = { type: 'list', format: 'ordered', children: [node] };
    const problem = checkBlocks([node], 'body');
    expect(problem?.message).toContain(`nested too deeply (at most ${BLOCKS_MAX_DEPTH} levels)`);
    expect(problem?.path).toHaveLength(2 * (BLOCKS_MAX_DEPTH + 1) - 1); // [0, children, 0, …] down to the first node too deep

    let fits: unknown = { type: 'list-item', children: [text('ok')] };
    for (let i = 0; i < BLOCKS_MAX_DEPTH - 2; i++) fits = { type: 'list', format: 'ordered', children: [fits] };
    expect(checkBlocks([fits], 'body')).toBeUndefined();
  });

  it(`refuses more than ${BLOCKS_MAX_NODES} nodes in one value and accepts exactly that many`, () => {
    const many = (count: number) => [paragraph(...Array.from({ length: count - 1 }, () => text('x')))];
    expect(checkBlocks(many(BLOCKS_MAX_NODES), 'body')).toBeUndefined();
    expect(checkBlocks(many(BLOCKS_MAX_NODES + 1), 'body')).toEqual({
      path: [],
      message: `body has too many nodes (at most ${BLOCKS_MAX_NODES})`,
      value: null,
    });
  });
});
