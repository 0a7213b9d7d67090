/**
 * The GraphQL answers Folio is diffed on against Strapi 5.54.0's plugin: one fixed set of
 * documents seeded through REST (the same calls on both servers), then every query shape of
 * issue #39 played in order (lists with filters/sort/pagination, `_connection`, one document,
 * single types, relations and nested `*_connection`, components, zones, media,
 * `localizations`, status and locale, Strapi's plugin types, mutations, users-permissions,
 * errors and transports). Answers are masked (documentIds by the name of what was seeded or
 * by order of first appearance, ids, timestamps, JWTs, upload hashes) so two servers' answers
 * compare as equal values.
 *
 * Permissions are the peer's `STRAPI_PEER_PROFILE=conformance` set: the public role reads
 * article, category, tag, homepage, global and files (nothing on author); a signed-in user
 * also reads authors and writes articles and tags.
 *
 * Used by test/fixtures/graphql/record-answers.ts (recording the peer) and
 * test/graphql/strapi-answers.test.ts (replaying on Folio).
 */
import { makeImage } from '../upload/helpers';

export interface Target {
  url: string;
  /** A full-access API token: seeds the documents, and plays the scenarios marked `full`. */
  fullAccess: string;
}

/** What seeding made: documentIds by name, the uploaded file's id, a signed-in user's JWT. */
export interface Seeded {
  ids: Record<string, string>;
  file: number;
  jwt: string;
}

export interface Scenario {
  name: string;
  /** The operation (or, with `raw`, ignored). */
  query: string;
  variables?: (seeded: Seeded, answers: Record<string, any>) => Record<string, unknown>;
  /** Who asks: nobody (default), the signed-in user, the full-access token, or a bearer token that is not one. */
  as?: 'public' | 'user' | 'full' | 'bad-token';
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A body sent as is (malformed JSON). */
  raw?: string;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** The peer's GraphQL settings (shared/peers/strapi/app/config/plugins.js). */
export const PEER_GRAPHQL_CONFIG = {
  endpoint: '/graphql',
  shadowCRUD: true,
  landingPage: false,
  depthLimit: 10,
  defaultLimit: 25,
  maxLimit: 100,
  apolloServer: { introspection: true },
};

/** The conformance profile's permissions (shared/peers/strapi/app/src/index.js conformanceActions). */
export function conformanceActions(role: 'public' | 'authenticated'): string[] {
  const read: string[] = [];
  for (const ct of ['article', 'category', 'tag']) read.push(`api::${ct}.${ct}.find`, `api::${ct}.${ct}.findOne`);
  for (const ct of ['homepage', 'global']) read.push(`api::${ct}.${ct}.find`);
  read.push('plugin::upload.content-api.find', 'plugin::upload.content-api.findOne');
  if (role === 'public') return read;
  const write: string[] = [];
  for (const ct of ['article', 'tag']) write.push(`api::${ct}.${ct}.create`, `api::${ct}.${ct}.update`, `api::${ct}.${ct}.delete`);
  return [...read, ...write, 'api::author.author.find', 'api::author.author.findOne'];
}

async function rest(target: Target, method: string, path: string, data?: unknown): Promise<any> {
  const response = await fetch(target.url + path, {
    method,
    headers: { authorization: `Bearer ${target.fullAccess}`, ...(data === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(data === undefined ? {} : { body: JSON.stringify({ data }) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`seed ${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** The documents every scenario reads, created through REST in a fixed order. */
export async function seed(target: Target): Promise<Seeded> {
  const ids: Record<string, string> = {};
  const form = new FormData();
  form.append('files', new Blob([await makeImage(8, 6)], { type: 'image/png' }), 'pic.png');
  const uploaded = await fetch(`${target.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${target.fullAccess}` } });
  if (uploaded.status !== 201) throw new Error(`seed upload: ${uploaded.status} ${await uploaded.text()}`);
  const [file] = (await uploaded.json()) as { id: number; documentId: string }[];
  ids.pic = file!.documentId;
  const second = new FormData();
  second.append('files', new Blob([await makeImage(4, 4)], { type: 'image/png' }), 'another.png');
  second.append('fileInfo', JSON.stringify({ alternativeText: 'Another', caption: 'Second' }));
  const more = await fetch(`${target.url}/api/upload`, { method: 'POST', body: second, headers: { authorization: `Bearer ${target.fullAccess}` } });
  if (more.status !== 201) throw new Error(`seed upload: ${more.status} ${await more.text()}`);
  const [another] = (await more.json()) as { id: number; documentId: string }[];
  ids.another = another!.documentId;
  const create = async (name: string, path: string, data: object, query = '') => {
    ids[name] = (await rest(target, 'POST', path + query, data)).data.documentId;
  };
  await create('ada', '/api/authors', { name: 'Ada', email: 'ada@example.com', bio: 'Writes guides', birthday: '1990-05-01', avatar: file!.id });
  await create('bob', '/api/authors', { name: 'Bob', mentor: ids.ada });
  await create('tech', '/api/categories', { name: 'Tech', slug: 'tech', position: 1 });
  await create('life', '/api/categories', { name: 'Life', slug: 'life', position: 2 });
  await create('alpha', '/api/tags', { name: 'alpha', color: '#ff0000' });
  await create('beta', '/api/tags', { name: 'beta' });
  await create('gamma', '/api/tags', { name: 'gamma', color: '#00ff00' });
  await create('one', '/api/articles', {
    title: 'One',
    slug: 'one',
    summary: 'The first',
    kind: 'guide',
    views: 7,
    rating: 4.5,
    featured: true,
    publishDate: '2024-01-02',
    body: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello' }] }],
    meta: { reading: 3, tags: ['x'] },
    cover: file!.id,
    gallery: [file!.id, another!.id],
    category: ids.tech,
    author: ids.ada,
    tags: [ids.alpha, ids.beta, ids.gamma],
    seo: { metaTitle: 'Seo one', metaDescription: 'About one', shareImage: file!.id },
    links: [
      { label: 'a', url: '/a' },
      { label: 'b', url: '/b', newTab: true },
      { label: 'c', url: '/c' },
    ],
    blocks: [
      { __component: 'shared.quote', title: 'Q', body: 'quoted' },
      { __component: 'shared.rich-text', body: '# hi' },
      { __component: 'shared.media', file: file!.id },
    ],
  });
  await create('two', '/api/articles', { title: 'Two', kind: 'news', views: 3, category: ids.life, author: ids.bob, tags: [ids.beta], related: [ids.one] });
  await create('three', '/api/articles', { title: 'Three', kind: 'opinion', featured: false, tags: [ids.gamma, ids.alpha] });
  await create('draft', '/api/articles', { title: 'Draft only', kind: 'news' }, '?status=draft');
  await rest(target, 'PUT', `/api/articles/${ids.one}?locale=fr`, {
    title: 'Un',
    summary: 'Le premier',
    seo: { metaTitle: 'Seo un' },
    blocks: [{ __component: 'shared.quote', title: 'Citation' }],
  });
  await rest(target, 'PUT', `/api/articles/${ids.two}?status=draft`, { title: 'Two (edited)' });
  await rest(target, 'PUT', `/api/categories/${ids.tech}?locale=fr`, { name: 'Technologie' });
  await rest(target, 'PUT', '/api/global', { siteName: 'Folio blog', siteDescription: 'A blog', maintenance: false, defaultSeo: { metaTitle: 'Global seo' } });
  await rest(target, 'PUT', '/api/homepage', { headline: 'Welcome', intro: '**Hi**', featuredArticles: [ids.two, ids.one] });
  const registered = await fetch(`${target.url}/api/auth/local/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'reader', email: 'reader@example.com', password: 'Reader123!' }),
  });
  if (registered.status !== 200) throw new Error(`seed register: ${registered.status} ${await registered.text()}`);
  const { jwt } = (await registered.json()) as { jwt: string };
  return { ids, file: file!.id, jwt };
}

/** The documentId a mutation scenario answered (`missing` when it failed, so the next scenarios still play). */
const created = (answers: Record<string, any>, scenario: string, field: string): string => answers[scenario]?.data?.[field]?.documentId ?? 'missing';

const ARTICLE_SCALARS = 'documentId title slug summary body kind views rating featured publishDate meta locale createdAt updatedAt publishedAt';

export const SCENARIOS: Scenario[] = [
  // Lists: filters, sort, pagination.
  { name: 'list: every scalar, default order', query: `{ articles { ${ARTICLE_SCALARS} } }` },
  { name: 'list: filter gt, sort desc', query: '{ articles(sort: "title:desc", filters: { views: { gt: 1 } }) { title views } }' },
  { name: 'list: sort by several, one ascending by default', query: '{ articles(sort: ["kind", "title:desc"]) { title kind } }' },
  {
    name: 'list: or through a relation',
    query: '{ articles(filters: { or: [{ title: { eq: "Three" } }, { tags: { name: { eq: "beta" } } }] }, sort: "title") { title } }',
  },
  {
    name: 'list: and, not, containsi, in, null, notNull, between',
    query: `{
    a: articles(filters: { and: [{ title: { containsi: "o" } }, { not: { kind: { eq: "news" } } }] }, sort: "title") { title }
    b: articles(filters: { kind: { in: ["news", "opinion"] } }, sort: "title") { title }
    c: articles(filters: { rating: { null: true } }, sort: "title") { title }
    d: articles(filters: { rating: { notNull: true } }) { title }
    e: articles(filters: { views: { between: [1, 5] } }) { title }
    f: articles(filters: { title: { startsWith: "T", endsWith: "e" } }) { title }
    g: articles(filters: { title: { notContainsi: "O" } }) { title }
    h: articles(filters: { featured: { eq: true } }) { title }
    i: articles(filters: { publishDate: { gte: "2024-01-01" } }) { title }
    j: articles(filters: { documentId: { eq: "nope" } }) { title }
    k: articles(filters: { category: { slug: { eq: "tech" } } }) { title }
    l: articles(filters: { seo: { metaTitle: { eq: "Seo one" } } }) { title }
    m: articles(filters: { title: { eqi: "TWO" } }) { title }
    n: articles(filters: { title: { ne: "One" }, views: { lte: 3 } }, sort: "title") { title }
  }`,
  },
  {
    name: 'list: filter with variables',
    query: 'query($f: ArticleFiltersInput) { articles(filters: $f, sort: "title") { title } }',
    variables: () => ({ f: { tags: { name: { in: ['alpha'] } } } }),
  },
  { name: 'list: page and pageSize', query: '{ articles(sort: "title", pagination: { page: 2, pageSize: 1 }) { title } }' },
  { name: 'list: start and limit', query: '{ articles(sort: "title", pagination: { start: 1, limit: 2 }) { title } }' },
  { name: 'list: limit -1', query: '{ articles(sort: "title", pagination: { limit: -1 }) { title } }' },
  { name: 'list: pageSize above maxLimit', query: '{ articles(sort: "title", pagination: { pageSize: 500 }) { title } }' },
  { name: 'list: page beyond the end', query: '{ articles(pagination: { page: 9, pageSize: 2 }) { title } }' },
  { name: 'list: page and start mixed', query: '{ articles(pagination: { page: 1, start: 0 }) { title } }' },
  { name: 'list: unknown sort key', query: '{ articles(sort: "nope") { title } }' },
  {
    name: 'list: unknown filter key through variables',
    query: 'query($f: ArticleFiltersInput) { articles(filters: $f) { title } }',
    variables: () => ({ f: { nope: { eq: 1 } } }),
  },

  // _connection and pageInfo.
  {
    name: 'connection: nodes and pageInfo',
    query: '{ articles_connection(sort: "title", pagination: { page: 2, pageSize: 2 }) { nodes { title } pageInfo { total page pageSize pageCount } } }',
  },
  { name: 'connection: pageInfo alone', query: '{ articles_connection(filters: { kind: { eq: "news" } }) { pageInfo { total page pageSize pageCount } } }' },
  {
    name: 'connection: start and limit',
    query: '{ articles_connection(pagination: { start: 1, limit: 1 }, sort: "title") { nodes { title } pageInfo { total page pageSize pageCount } } }',
  },
  { name: 'connection: tags', query: '{ tags_connection(sort: "name") { nodes { name color } pageInfo { total pageCount } } }' },

  // One document, single types.
  { name: 'one: by documentId', query: 'query($id: ID!) { article(documentId: $id) { title kind locale } }', variables: (s) => ({ id: s.ids.one }) },
  { name: 'one: unknown documentId', query: '{ article(documentId: "nope") { title } }' },
  {
    name: 'one: a draft',
    query: 'query($id: ID!) { published: article(documentId: $id) { title } draft: article(documentId: $id, status: DRAFT) { title publishedAt } }',
    variables: (s) => ({ id: s.ids.draft }),
  },
  {
    name: 'one: the modified draft and its published version',
    query: 'query($id: ID!) { published: article(documentId: $id) { title } draft: article(documentId: $id, status: DRAFT) { title } }',
    variables: (s) => ({ id: s.ids.two }),
  },
  {
    name: 'single types',
    query:
      '{ global { siteName siteDescription contactEmail maintenance defaultSeo { metaTitle } createdAt } homepage { headline intro featuredArticles { title } } }',
  },
  { name: 'single type in another locale', query: '{ homepage(locale: "fr") { headline } }' },
  { name: 'single type draft', query: '{ homepage(status: DRAFT) { headline publishedAt } }' },

  // Relations.
  {
    name: 'relations: to-one, to-many, nested arguments',
    query: `query($id: ID!) { article(documentId: $id) {
    category { name slug position articles { title } }
    tags(sort: "name:desc", pagination: { limit: 2 }) { name }
    tags_connection(filters: { name: { ne: "beta" } }) { nodes { name } }
    related { title }
  } }`,
    variables: (s) => ({ id: s.ids.one }),
  },
  {
    name: 'relations: nested *_connection and inverse sides',
    query: `{ categories(sort: "name") { name articles_connection(sort: "title") { nodes { title tags_connection { nodes { name } } } } } }`,
  },
  { name: 'relations: lists on every row', query: '{ articles(sort: "title") { title category { name } tags { name } related { title } } }' },
  { name: 'relations: the other side of manyToMany', query: '{ tags(sort: "name") { name articles(sort: "title:desc") { title } } }' },
  { name: 'relations: a forbidden relation', query: '{ articles(sort: "title") { title author { name } } }' },
  { name: 'relations: a forbidden root beside another', query: '{ authors { name } tags { name } }' },
  { name: 'relations: a filter through a forbidden relation', query: '{ articles(filters: { author: { name: { eq: "Ada" } } }) { title } }' },
  {
    name: 'relations: a signed-in reader sees authors',
    as: 'user',
    query: '{ articles(sort: "title") { title author { name email bio birthday mentor { name } articles { title } } } }',
  },
  { name: 'relations: author avatar and mentor', as: 'user', query: '{ authors(sort: "name") { name avatar { name } mentor { name } } }' },

  // Components and zones.
  {
    name: 'components: single and repeatable with arguments',
    query: `query($id: ID!) { article(documentId: $id) {
    seo { id metaTitle metaDescription shareImage { name mime } }
    links { id label url newTab }
    paged: links(pagination: { start: 1, limit: 1 }) { label }
    sorted: links(sort: "label:desc") { label }
    filtered: links(filters: { newTab: { eq: true } }) { label }
  } }`,
    variables: (s) => ({ id: s.ids.one }),
  },
  {
    name: 'zones: fragments and __typename',
    query: `query($id: ID!) { article(documentId: $id) {
    blocks {
      __typename
      ... on ComponentSharedQuote { id title body }
      ... on ComponentSharedRichText { body }
      ... on ComponentSharedMedia { file { name url } }
    }
  } }`,
    variables: (s) => ({ id: s.ids.one }),
  },
  {
    name: 'zones: named fragments on a list',
    query: `{ articles(sort: "title") { title blocks { __typename ...Q } } }
    fragment Q on ComponentSharedQuote { title }`,
  },
  { name: 'zones: only __typename', query: '{ articles(sort: "title") { blocks { __typename } } }' },

  // Media.
  {
    name: 'media: single, multiple and _connection',
    query: `query($id: ID!) { article(documentId: $id) {
    cover { documentId name alternativeText caption width height formats hash ext mime size url previewUrl provider provider_metadata createdAt publishedAt }
    gallery { name } gallery_connection { nodes { name mime } }
  } }`,
    variables: (s) => ({ id: s.ids.one }),
  },
  {
    name: 'media: nested filters and sort',
    query: `query($id: ID!) { article(documentId: $id) {
    byName: gallery(sort: "name") { name alternativeText caption }
    byNameDesc: gallery(sort: "name:desc") { name }
    filtered: gallery(filters: { name: { eq: "another.png" } }) { name }
    none: gallery_connection(filters: { mime: { ne: "image/png" } }) { nodes { name } }
    paged: gallery(pagination: { start: 1, limit: 1 }) { name }
  } }`,
    variables: (s) => ({ id: s.ids.one }),
  },
  {
    name: 'media: uploadFiles filtered and sorted',
    query: '{ uploadFiles(sort: "name:desc", filters: { width: { gt: 5 } }) { name width } all: uploadFiles(sort: ["width", "name"]) { name } }',
  },
  { name: 'media: articles without media', query: '{ articles(sort: "title") { title cover { name } gallery { name } } }' },
  { name: 'media: uploadFiles', query: '{ uploadFiles { name mime ext width height } uploadFiles_connection { pageInfo { total } } }' },
  { name: 'media: uploadFile by documentId', query: 'query($id: ID!) { uploadFile(documentId: $id) { name url } }', variables: (s) => ({ id: s.ids.pic }) },
  {
    name: 'media: UploadFile.related',
    query: '{ uploadFiles { name related { __typename ... on Article { title } ... on Author { name } ... on ComponentSharedSeo { metaTitle } } } }',
    as: 'full',
  },

  // Localizations, status and locale.
  {
    name: 'locale: another locale with its localizations',
    query:
      'query($id: ID!) { article(documentId: $id, locale: "fr") { title summary kind views locale localizations { title locale } seo { metaTitle } blocks { __typename ... on ComponentSharedQuote { title } } } }',
    variables: (s) => ({ id: s.ids.one }),
  },
  {
    name: 'locale: localizations of the default locale',
    query: 'query($id: ID!) { article(documentId: $id) { locale localizations { title locale } localizations_connection { nodes { locale } } } }',
    variables: (s) => ({ id: s.ids.one }),
  },
  { name: 'locale: a list in fr', query: '{ articles(locale: "fr") { title locale category { name locale } } categories(locale: "fr") { name } }' },
  { name: 'locale: every locale', query: '{ articles(locale: "*", sort: ["title"]) { title locale } }' },
  { name: 'locale: a known code without content', query: '{ articles(locale: "de") { title } }' },
  { name: 'locale: an unknown code', query: '{ articles(locale: "xx") { title } }' },
  { name: 'locale: an unknown code through a variable', query: 'query($l: I18NLocaleCode) { articles(locale: $l) { title } }', variables: () => ({ l: 'xx' }) },
  {
    name: 'locale: filter on locale and localizations',
    query: '{ articles(locale: "*", filters: { locale: { eq: "fr" } }) { title } b: articles(filters: { localizations: { title: { eq: "Un" } } }) { title } }',
  },
  {
    name: 'locale: localizations filters count the version itself and drafts',
    query: `{
    itself: articles(filters: { localizations: { title: { eq: "One" } } }) { title }
    draft: articles(filters: { localizations: { title: { eq: "Two (edited)" } } }) { title }
    notUn: articles(filters: { not: { localizations: { title: { eq: "Un" } } } }, sort: "title") { title }
    fr: articles(locale: "fr", filters: { localizations: { locale: { eq: "en" } } }) { title }
    none: articles(filters: { localizations: { locale: { eq: "de" } } }) { title }
  }`,
  },
  {
    name: 'locale: localizations with arguments',
    query:
      'query($id: ID!) { article(documentId: $id) { localizations(filters: { locale: { eq: "fr" } }, sort: "title:desc") { title } none: localizations(filters: { title: { eq: "nope" } }) { title } } }',
    variables: (s) => ({ id: s.ids.one }),
  },
  { name: 'status: drafts', query: '{ articles(status: DRAFT, sort: "title") { title publishedAt } }' },
  {
    name: 'status: hasPublishedVersion',
    query:
      '{ never: articles(status: DRAFT, hasPublishedVersion: false) { title } has: articles(status: DRAFT, hasPublishedVersion: true, sort: "title") { title } }',
  },
  {
    name: 'status: publicationFilter',
    query: `{
    a: articles(status: DRAFT, publicationFilter: NEVER_PUBLISHED) { title }
    b: articles(status: DRAFT, publicationFilter: HAS_PUBLISHED_VERSION, sort: "title") { title }
    c: articles(status: DRAFT, publicationFilter: MODIFIED) { title }
    d: articles(status: DRAFT, publicationFilter: UNMODIFIED, sort: "title") { title }
    e: articles(publicationFilter: PUBLISHED_WITH_DRAFT, sort: "title") { title }
    f: articles(publicationFilter: PUBLISHED_WITHOUT_DRAFT) { title }
  }`,
  },
  {
    name: 'status: publicationFilter applies to relations too',
    query: `{
    tags(status: DRAFT, publicationFilter: MODIFIED, sort: "name") { name articles(sort: "title") { title } }
    unmodified: tags(status: DRAFT, publicationFilter: UNMODIFIED, sort: "name") { name articles(sort: "title") { title } }
    published: articles(publicationFilter: PUBLISHED_WITH_DRAFT, sort: "title") { title tags(sort: "name") { name } related { title } }
    categories(status: DRAFT, publicationFilter: NEVER_PUBLISHED, sort: "name") { name articles(sort: "title") { title } }
  }`,
  },
  {
    name: 'status: publicationFilter on one document',
    query:
      'query($id: ID!) { a: article(documentId: $id, status: DRAFT, publicationFilter: MODIFIED) { title } b: article(documentId: $id, status: DRAFT, hasPublishedVersion: false) { title } }',
    variables: (s) => ({ id: s.ids.two }),
  },
  { name: 'status: drafts of relations', query: '{ tags(status: DRAFT, sort: "name") { name articles(sort: "title") { title } } }' },

  // Several aliases of one relation with different arguments.
  {
    name: 'aliases: one relation with different arguments on every row',
    query: `{ articles(sort: "title") {
    title
    first: tags(sort: "name", pagination: { limit: 1 }) { name }
    last: tags(sort: "name:desc") { name }
    noBeta: tags(filters: { name: { ne: "beta" } }, sort: "name") { name }
    links(sort: "label:desc") { label }
    firstLink: links(pagination: { limit: 1 }) { label }
  } }`,
  },
  {
    name: 'aliases: inside a nested level',
    query: `{ categories(sort: "name") { name
    articles(sort: "title") { title a: tags(sort: "name") { name } b: tags(sort: "name:desc", pagination: { limit: 1 }) { name } }
  } }`,
  },

  // Strapi's plugin types.
  { name: 'plugins: i18NLocales for the public', query: '{ i18NLocales { code name } }' },
  { name: 'plugins: i18NLocales with a token', as: 'full', query: '{ i18NLocales(sort: "code") { code name } i18NLocales_connection { pageInfo { total } } }' },
  {
    name: 'plugins: roles with permissions and users',
    as: 'full',
    query: `{ usersPermissionsRoles(sort: "name") {
    name description type
    permissions(filters: { action: { startsWith: "api::" } }, sort: "action", pagination: { limit: 100 }) { action }
    users { username }
  } }`,
  },
  {
    name: 'plugins: permissions sorted, paged, with their role',
    as: 'full',
    query: `{ usersPermissionsRoles(filters: { type: { eq: "public" } }) {
    first: permissions(filters: { action: { startsWith: "api::" } }, sort: "action:desc", pagination: { limit: 3 }) { action role { type } }
    some: permissions_connection(filters: { or: [{ action: { containsi: "TAG" } }, { action: { endsWith: ".global.find" } }] }, sort: "action") { nodes { action } }
    byRole: permissions(filters: { role: { type: { eq: "nobody" } } }) { action }
  } }`,
  },
  {
    name: 'plugins: role users with their role',
    as: 'full',
    query: '{ usersPermissionsRoles(sort: "name") { type users(sort: "username") { username role { type } } } }',
  },
  { name: 'plugins: users with their role', as: 'full', query: '{ usersPermissionsUsers { username email confirmed blocked provider role { name type } } }' },
  {
    name: 'plugins: review workflows',
    as: 'full',
    query:
      '{ reviewWorkflowsWorkflows { name } reviewWorkflowsWorkflowStages { name } reviewWorkflowsWorkflows_connection { pageInfo { total page pageSize pageCount } } reviewWorkflowsWorkflow(documentId: "x") { name } }',
  },
  { name: 'plugins: review workflows for the public', query: '{ reviewWorkflowsWorkflows { name } }' },
  {
    name: 'plugins: upload mutations without the upload actions',
    as: 'user',
    query: 'mutation($id: ID!) { updateUploadFile(id: $id, info: { alternativeText: "x" }) { name } }',
    variables: (s) => ({ id: String(s.file) }),
  },
  { name: 'plugins: deleting a file without the upload actions', query: 'mutation { deleteUploadFile(id: "1") { name } }' },
  {
    name: 'plugins: role and user mutations without their actions',
    as: 'user',
    query: 'mutation { createUsersPermissionsRole(data: { name: "Editors" }) { ok } deleteUsersPermissionsUser(id: "1") { data { username } } }',
  },
  { name: 'plugins: me without a user', query: '{ me { username } }' },
  { name: 'plugins: me', as: 'user', query: '{ me { id documentId username email confirmed blocked role { id name description type } } }' },

  // Mutations (as the signed-in reader: it may write articles and tags).
  {
    name: 'create: an article with relations, components and a zone',
    as: 'user',
    query: `mutation($cover: ID, $tags: [ID], $category: ID) {
    createArticle(data: {
      title: "Created", kind: opinion, views: 2, cover: $cover, gallery: [$cover], category: $category, tags: $tags,
      seo: { metaTitle: "Seo created" }, links: [{ label: "x", url: "/x" }],
      blocks: [{ __typename: "ComponentSharedQuote", title: "cq" }, { __typename: "ComponentSharedMedia", file: $cover }]
    }) {
      documentId title kind views locale publishedAt cover { name } gallery { name } category { name } tags { name }
      seo { metaTitle } links { label newTab } blocks { __typename ... on ComponentSharedQuote { title } ... on ComponentSharedMedia { file { name } } }
      localizations { title }
    }
  }`,
    variables: (s) => ({ cover: String(s.file), tags: [s.ids.gamma, s.ids.alpha], category: s.ids.tech }),
  },
  {
    name: 'create: read back through a query',
    query: 'query($id: ID!) { article(documentId: $id) { title tags { name } category { name } } }',
    variables: (_s, a) => ({ id: created(a, 'create: an article with relations, components and a zone', 'createArticle') }),
  },
  { name: 'create: a draft', as: 'user', query: 'mutation { createArticle(status: DRAFT, data: { title: "Drafted" }) { documentId title publishedAt } }' },
  {
    name: 'create: the draft is not published',
    query: 'query($id: ID!) { article(documentId: $id) { title } draft: article(documentId: $id, status: DRAFT) { title } }',
    variables: (_s, a) => ({ id: created(a, 'create: a draft', 'createArticle') }),
  },
  {
    name: 'create: in another locale',
    as: 'user',
    query:
      'mutation { createArticle(locale: "fr", data: { title: "Créé", publishedAt: "2020-01-01T00:00:00.000Z" }) { title locale publishedAt localizations { title locale } } }',
  },
  { name: 'create: locale in the input of a localized type', as: 'user', query: 'mutation { createArticle(data: { title: "x", locale: "fr" }) { title } }' },
  {
    name: 'create: a zone item named by __component',
    as: 'user',
    query: 'mutation { createArticle(data: { title: "x", blocks: [{ __component: "shared.quote", title: "q" }] }) { title } }',
  },
  {
    name: 'create: a zone item of an unknown type through a variable',
    as: 'user',
    query: 'mutation($b: [ArticleBlocksDynamicZoneInput!]) { createArticle(data: { title: "x", blocks: $b }) { title } }',
    variables: () => ({ b: [{ __typename: 'ComponentSharedNope', title: 'x' }] }),
  },
  {
    name: 'create: a tag without draft and publish arguments',
    as: 'user',
    query: 'mutation { createTag(data: { name: "delta", color: "#123456" }) { name color publishedAt articles { title } } }',
  },
  { name: 'create: a tag failing validation', as: 'user', query: 'mutation { createTag(data: { name: "bad", color: "red" }) { name } }' },
  { name: 'create: a tag with a taken name', as: 'user', query: 'mutation { createTag(data: { name: "alpha" }) { name } }' },
  { name: 'create: an empty required string and a bad number', as: 'user', query: 'mutation { createArticle(data: { views: -1, title: "" }) { title } }' },
  { name: 'create: two missing required attributes', as: 'user', query: 'mutation { createArticle(data: { views: -1 }) { title } }' },
  { name: 'create: relation as an object', as: 'user', query: 'mutation { createArticle(data: { title: "x", tags: { connect: ["a"] } }) { title } }' },
  { name: 'create: an unknown relation documentId', as: 'user', query: 'mutation { createArticle(data: { title: "x", tags: ["nope"] }) { title } }' },
  { name: 'create: forbidden for this role', as: 'user', query: 'mutation { createCategory(data: { name: "No" }) { name } }' },
  { name: 'create: forbidden for the public', query: 'mutation { createTag(data: { name: "public" }) { name } }' },
  {
    name: 'update: replace a relation list, clear a to-one',
    as: 'user',
    query: `mutation($id: ID!, $tags: [ID]) {
    updateArticle(documentId: $id, data: { title: "Created (2)", tags: $tags, category: null, links: [] }) { title tags { name } category { name } links { label } views }
  }`,
    variables: (s, a) => ({ id: created(a, 'create: an article with relations, components and a zone', 'createArticle'), tags: [s.ids.beta] }),
  },
  { name: 'update: an unknown documentId', as: 'user', query: 'mutation { updateArticle(documentId: "nope", data: { title: "x" }) { title } }' },
  {
    name: 'update: the draft only',
    as: 'user',
    query: 'mutation($id: ID!) { updateArticle(documentId: $id, status: DRAFT, data: { title: "Three (draft)" }) { title publishedAt } }',
    variables: (s) => ({ id: s.ids.three }),
  },
  {
    name: 'update: the published version stays',
    query: 'query($id: ID!) { article(documentId: $id) { title } draft: article(documentId: $id, status: DRAFT) { title } }',
    variables: (s) => ({ id: s.ids.three }),
  },
  {
    name: 'update: a locale',
    as: 'user',
    query: 'mutation($id: ID!) { updateArticle(documentId: $id, locale: "fr", data: { summary: "Modifié" }) { title summary locale } }',
    variables: (s) => ({ id: s.ids.one }),
  },
  {
    name: 'update: a tag validation error',
    as: 'user',
    query: 'mutation($id: ID!) { updateTag(documentId: $id, data: { color: "nope" }) { name } }',
    variables: (s) => ({ id: s.ids.alpha }),
  },
  {
    name: 'delete: an article',
    as: 'user',
    query: 'mutation($id: ID!) { deleteArticle(documentId: $id) { documentId } }',
    variables: (_s, a) => ({ id: created(a, 'create: a draft', 'createArticle') }),
  },
  { name: 'delete: an unknown documentId', as: 'user', query: 'mutation { deleteArticle(documentId: "nope") { documentId } }' },
  {
    name: 'delete: locale is ignored',
    as: 'user',
    query: 'mutation($id: ID!) { deleteArticle(documentId: $id, locale: "fr") { documentId } }',
    variables: (_s, a) => ({ id: created(a, 'create: an article with relations, components and a zone', 'createArticle') }),
  },
  { name: 'delete: what is left', query: '{ articles(locale: "*", sort: ["title", "locale"]) { title locale } }' },
  {
    name: 'single: update and delete with a token',
    as: 'full',
    query: `mutation {
    updateHomepage(locale: "fr", data: { headline: "Bienvenue" }) { headline locale localizations { locale } }
    updateGlobal(data: { siteName: "Renamed", defaultSeo: { metaTitle: "New seo" } }) { siteName defaultSeo { metaTitle } }
  }`,
  },
  { name: 'single: delete a locale', as: 'full', query: 'mutation { deleteHomepage(locale: "fr") { documentId } }' },
  { name: 'single: after the delete', query: '{ homepage { headline } fr: homepage(locale: "fr") { headline } }' },

  // users-permissions.
  {
    name: 'auth: register',
    query:
      'mutation { register(input: { username: "writer", email: "writer@example.com", password: "Writer123!" }) { jwt user { id documentId username email confirmed blocked role { name } } } }',
  },
  {
    name: 'auth: register a taken e-mail',
    query: 'mutation { register(input: { username: "writer2", email: "writer@example.com", password: "Writer123!" }) { jwt } }',
  },
  {
    name: 'auth: login',
    query: 'mutation { login(input: { identifier: "writer@example.com", password: "Writer123!" }) { jwt user { username email role { name } } } }',
  },
  { name: 'auth: login with a wrong password', query: 'mutation { login(input: { identifier: "writer", password: "nope" }) { jwt } }' },
  { name: 'auth: changePassword without a user', query: 'mutation { changePassword(currentPassword: "a", password: "b", passwordConfirmation: "b") { jwt } }' },
  {
    name: 'auth: changePassword with a wrong current password',
    as: 'user',
    query: 'mutation { changePassword(currentPassword: "wrong", password: "Other123!", passwordConfirmation: "Other123!") { jwt } }',
  },
  {
    name: 'auth: resetPassword with a bad code',
    query: 'mutation { resetPassword(code: "nope", password: "Other123!", passwordConfirmation: "Other123!") { jwt } }',
  },
  { name: 'auth: emailConfirmation with a bad code', query: 'mutation { emailConfirmation(confirmation: "nope") { jwt } }' },

  // Errors and transports.
  { name: 'errors: a parse error', query: '{ articles { title }' },
  { name: 'errors: an unknown field', query: '{ articles { nope } }' },
  { name: 'errors: a variable of the wrong type', query: 'query($n: Int) { articles(pagination: { limit: $n }) { title } }', variables: () => ({ n: 'ten' }) },
  { name: 'errors: a missing required variable', query: 'query($id: ID!) { article(documentId: $id) { title } }' },
  {
    name: 'errors: too deep',
    query:
      '{ articles { category { articles { category { articles { category { articles { category { articles { category { articles { title } } } } } } } } } } } }',
  },
  { name: 'errors: an enum value that does not exist', query: 'mutation { createArticle(data: { title: "x", kind: nope }) { title } }', as: 'user' },
  { name: 'errors: an unknown operation name', query: 'query A { tags { name } }', headers: { 'x-operation-name': 'B' } },
  { name: 'errors: a bad bearer token', as: 'bad-token', query: '{ tags { name } }' },
  { name: 'errors: malformed JSON', query: '', raw: '{"query": ' },
  { name: 'errors: an empty body', query: '', raw: '{}' },
  { name: 'errors: a batch of operations', query: '', raw: '[{"query":"{ tags { name } }"},{"query":"{ categories { name } }"}]' },
  { name: 'transport: GET without a preflight header', method: 'GET', query: '{ tags(sort: "name") { name } }', headers: { 'content-type': 'text/plain' } },
  { name: 'transport: GET with a preflight header', method: 'GET', query: '{ tags(sort: "name") { name } }', headers: { 'apollo-require-preflight': 'true' } },
  {
    name: 'transport: GET mutation',
    method: 'GET',
    query: 'mutation { deleteTag(documentId: "x") { documentId } }',
    headers: { 'apollo-require-preflight': 'true' },
  },
];

/** Plays one scenario against a server. */
export async function play(target: Target, seeded: Seeded, scenario: Scenario, answers: Record<string, any>): Promise<Answer> {
  const headers: Record<string, string> = { ...scenario.headers };
  if (scenario.as === 'user') headers.authorization = `Bearer ${seeded.jwt}`;
  if (scenario.as === 'full') headers.authorization = `Bearer ${target.fullAccess}`;
  if (scenario.as === 'bad-token') headers.authorization = 'Bearer not-a-token';
  const variables = scenario.variables?.(seeded, answers);
  const operationName = headers['x-operation-name'];
  delete headers['x-operation-name'];
  let response: Response;
  if (scenario.method === 'GET') {
    const params = new URLSearchParams({ query: scenario.query, ...(variables ? { variables: JSON.stringify(variables) } : {}) });
    response = await fetch(`${target.url}/graphql?${params}`, { headers });
  } else {
    response = await fetch(`${target.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: scenario.raw ?? JSON.stringify({ query: scenario.query, ...(variables ? { variables } : {}), ...(operationName ? { operationName } : {}) }),
    });
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, body };
}

/** Plays every scenario in order: the raw answers by scenario name. */
export async function playAll(target: Target, seeded: Seeded): Promise<Record<string, Answer>> {
  const answers: Record<string, any> = {};
  const out: Record<string, Answer> = {};
  for (const scenario of SCENARIOS) {
    const answer = await play(target, seeded, scenario, answers);
    answers[scenario.name] = answer.body;
    out[scenario.name] = answer;
  }
  return out;
}

const DOCUMENT_ID = /^[a-z0-9]{24}$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/**
 * The answers with what differs between two runs replaced by stable names: documentIds by
 * the seed's name (`<one>`) or their order of first appearance (`<new 1>`), `id` values, timestamps,
 * JWTs and the random part of an upload's hash and URL.
 */
export function mask(answers: Record<string, Answer>, seeded: Seeded): Record<string, Answer> {
  const names = new Map(Object.entries(seeded.ids).map(([name, id]) => [id, `<${name}>`]));
  let fresh = 0;
  const walk = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    }
    if (typeof value !== 'string' && typeof value !== 'number') return value;
    if (key === 'id') return '<id>';
    // Strapi's upload re-encodes images (sizeOptimization), Folio keeps the bytes sent: the upload plugin's business, not GraphQL's.
    if (key === 'size') return '<size>';
    if (typeof value !== 'string') return value;
    if (key === 'jwt') return '<jwt>';
    if (TIMESTAMP.test(value)) return '<timestamp>';
    if (key === 'hash') return value.replace(/_[0-9a-f]{10}$/, '_<hash>');
    if (key === 'url') return value.replace(/_[0-9a-f]{10}(\.\w+)$/, '_<hash>$1');
    if (DOCUMENT_ID.test(value)) {
      if (!names.has(value)) names.set(value, `<new ${++fresh}>`);
      return names.get(value);
    }
    return value;
  };
  return Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, { status: answer.status, body: walk(answer.body) }]));
}
