/**
 * The example content a first start gives the example content types (first-start.ts): a few
 * articles with authors, a category, tags, a cover image, a rich-text body and French
 * versions, the global settings and the homepage, in the seed format (library/seed.ts). The
 * images are drawn here (no file travels with the binary for them).
 */
import type { Seed } from '../library/seed';
import { png } from '../png';

type Block = Record<string, unknown>;
const text = (value: string, marks: Record<string, boolean> = {}) => ({ type: 'text', text: value, ...marks });
const paragraph = (...children: (string | Block)[]): Block => ({ type: 'paragraph', children: children.map((c) => (typeof c === 'string' ? text(c) : c)) });
const heading = (level: number, value: string): Block => ({ type: 'heading', level, children: [text(value)] });
const list = (...items: string[]): Block => ({ type: 'list', format: 'unordered', children: items.map((i) => ({ type: 'list-item', children: [text(i)] })) });
const code = (value: string): Block => ({ type: 'code', children: [text(value)] });
const link = (url: string, label: string): Block => ({ type: 'link', url, children: [text(label)] });

export const EXAMPLE_SEED: Seed = {
  authors: [
    {
      $key: 'ada',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      bio: 'Writes the guides. Thinks in notes and tables.',
      avatar: { $file: 'avatar-ada.png', alternativeText: 'Ada’s avatar' },
    },
    { $key: 'grace', name: 'Grace Hopper', email: 'grace@example.com', bio: 'Writes the news. Prefers working code to meetings.', mentor: '$ada' },
  ],
  categories: [
    { $key: 'guides', name: 'Guides', slug: 'guides', position: 1 },
    { $key: 'news', name: 'News', slug: 'news', position: 2 },
    { $document: '$guides', $locale: 'fr', name: 'Guides', slug: 'guides' },
    { $document: '$news', $locale: 'fr', name: 'Actualités', slug: 'actualites' },
  ],
  tags: [
    { $key: 'start', name: 'getting started', color: '#2f6fde' },
    { $key: 'api', name: 'REST API', color: '#1c8c5e' },
    { $key: 'strapi', name: 'Strapi', color: '#7b4fd6' },
  ],
  articles: [
    {
      $key: 'welcome',
      title: 'Welcome to Folio',
      slug: 'welcome-to-folio',
      summary: 'What this example blog is, and how to read it through the API.',
      kind: 'guide',
      featured: true,
      publishDate: '2025-01-06',
      author: '$ada',
      category: '$guides',
      tags: ['$start', '$api'],
      cover: { $file: 'cover-welcome.png', alternativeText: 'A blue and violet gradient' },
      body: [
        paragraph(
          'This article, its author, category, tags and cover image are ',
          text('example content', { bold: true }),
          ': a new installation of the example content types starts with them, so every route answers something.',
        ),
        heading(2, 'Read it'),
        paragraph('Anyone may read the example types until you revoke it. List the articles with their relations:'),
        code('curl -g "http://127.0.0.1:1337/api/articles?populate[author]=true&populate[cover]=true"'),
        paragraph(
          'Every request speaks Strapi 5’s REST dialect: ',
          text('filters', { code: true }),
          ', ',
          text('sort', { code: true }),
          ', ',
          text('populate', { code: true }),
          ', ',
          text('locale', { code: true }),
          ' and ',
          text('status', { code: true }),
          ' work as they do there.',
        ),
        heading(2, 'Then'),
        list(
          'Open the admin at /admin and edit this article.',
          'Create an API token to write (folio token create).',
          'Replace the example types with your own schemas.',
        ),
      ],
      seo: { metaTitle: 'Welcome to Folio', metaDescription: 'A first look at the example blog.' },
      links: [{ label: 'Strapi 5 REST API', url: 'https://docs.strapi.io/cms/api/rest', newTab: true }],
      blocks: [{ __component: 'shared.quote', title: 'Tip', body: 'Add ?locale=fr to read the French version.' }],
    },
    {
      $document: '$welcome',
      $locale: 'fr',
      title: 'Bienvenue dans Folio',
      slug: 'bienvenue-dans-folio',
      summary: 'Ce qu’est ce blog d’exemple, et comment le lire par l’API.',
      body: [
        paragraph(
          'Cet article, son auteur, sa catégorie, ses étiquettes et son image sont du ',
          text('contenu d’exemple', { bold: true }),
          ' : une nouvelle installation des types d’exemple commence avec eux.',
        ),
        paragraph('Lisez-le avec ', text('?locale=fr', { code: true }), ' ; les autres champs sont partagés entre les langues.'),
      ],
      seo: { metaTitle: 'Bienvenue dans Folio' },
      blocks: [{ __component: 'shared.quote', title: 'Astuce', body: 'Retirez ?locale=fr pour la version anglaise.' }],
    },
    {
      $key: 'first',
      title: 'Write your first article',
      slug: 'write-your-first-article',
      summary: 'Create, publish and read back an article with a relation and an image.',
      kind: 'guide',
      publishDate: '2025-01-07',
      author: '$ada',
      category: '$guides',
      tags: ['$start'],
      cover: { $file: 'cover-first.png', alternativeText: 'A green and yellow gradient' },
      body: [
        paragraph('Writing needs an API token: ', text('folio token create --name dev --type full-access', { code: true }), ' prints its key once.'),
        code(
          'curl -X POST http://127.0.0.1:1337/api/articles \\\n  -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\\n  -d \'{"data":{"title":"Hello","category":"<documentId of a category>"}}\'',
        ),
        paragraph(
          'The answer holds the new article’s ',
          text('documentId', { code: true }),
          '. Read it back with ',
          text('?populate=*', { code: true }),
          ', or from ',
          link('https://www.npmjs.com/package/@strapi/client', '@strapi/client'),
          '.',
        ),
      ],
      seo: { metaTitle: 'Write your first article' },
      related: ['$welcome'],
    },
    {
      $document: '$first',
      $locale: 'fr',
      title: 'Écrire votre premier article',
      slug: 'ecrire-votre-premier-article',
      summary: 'Créer, publier et relire un article avec une relation et une image.',
      body: [paragraph('Pour écrire, il faut un jeton : ', text('folio token create --name dev --type full-access', { code: true }), '.')],
      seo: { metaTitle: 'Écrire votre premier article' },
    },
    {
      $key: 'moving',
      title: 'Moving a Strapi project in',
      slug: 'moving-a-strapi-project-in',
      summary: 'folio import strapi brings schemas, content, files, users and tokens across.',
      kind: 'news',
      publishDate: '2025-01-08',
      author: '$grace',
      category: '$news',
      tags: ['$strapi'],
      cover: { $file: 'cover-moving.png', alternativeText: 'An orange and red gradient' },
      body: [
        paragraph(
          'Point ',
          text('folio import strapi', { code: true }),
          ' at a Strapi 5 project folder (or a ',
          text('strapi export', { code: true }),
          ' archive): ids, documentIds, every draft and locale, relations in order, media, users and API tokens come along.',
        ),
      ],
      seo: { metaTitle: 'Moving a Strapi project in' },
      related: ['$welcome', '$first'],
    },
    {
      title: 'Notes for a later article',
      slug: 'notes-for-a-later-article',
      summary: 'A draft: GET /api/articles leaves it out; ?status=draft shows it to a token that may.',
      $status: 'draft',
      author: '$grace',
      category: '$news',
    },
  ],
  global: {
    siteName: 'Folio example blog',
    siteDescription: 'The example content of a new Folio installation.',
    contactEmail: 'hello@example.com',
    defaultSeo: { metaTitle: 'Folio example blog', metaDescription: 'Articles, authors, categories and tags to try the API on.' },
  },
  homepage: [
    {
      headline: 'A headless CMS that speaks Strapi 5',
      intro: 'Start with **Welcome to Folio**, then write your own.',
      featuredArticles: ['$welcome', '$first'],
      seo: { metaTitle: 'Folio example blog' },
    },
    {
      $locale: 'fr',
      headline: 'Un CMS headless qui parle Strapi 5',
      intro: 'Commencez par **Bienvenue dans Folio**.',
      seo: { metaTitle: 'Blog d’exemple Folio' },
    },
  ],
};

/** The colours of each image the example names (a diagonal gradient between two). */
const IMAGES: Record<string, { size: [number, number]; from: number; to: number }> = {
  'cover-welcome.png': { size: [640, 360], from: 0x2f6fde, to: 0x7b4fd6 },
  'cover-first.png': { size: [640, 360], from: 0x1c8c5e, to: 0xe8c547 },
  'cover-moving.png': { size: [640, 360], from: 0xf08a24, to: 0xc7363d },
  'avatar-ada.png': { size: [160, 160], from: 0x7b4fd6, to: 0xe86aa6 },
};

const channel = (rgb: number, shift: number) => (rgb >> shift) & 0xff;

/** An image the example content names, drawn as a PNG; undefined for any other name. */
export function exampleImage(name: string): Uint8Array | undefined {
  const spec = IMAGES[name];
  if (!spec) return undefined;
  const [width, height] = spec.size;
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const i = (y * width + x) * 3;
      for (const [offset, shift] of [
        [0, 16],
        [1, 8],
        [2, 0],
      ] as const) {
        rgb[i + offset] = Math.round(channel(spec.from, shift) * (1 - t) + channel(spec.to, shift) * t);
      }
    }
  }
  return png(width, height, rgb);
}
