/**
 * The column lists the version and component stores build once per model (db/store/columns.ts)
 * belong to the installation that loaded the model: two installations in one process may
 * have different schemas for one uid, and each publishes with its own columns.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLE_CONTENT_TYPES, startServer, tempDir, type TestServer } from '../helpers/server';

let plain: TestServer;
let extended: TestServer;

beforeAll(async () => {
  // The same content types, but articles have one more attribute and seo one more field.
  const dir = tempDir('folio-schema-');
  cpSync(EXAMPLE_CONTENT_TYPES, dir, { recursive: true });
  const article = JSON.parse(readFileSync(join(dir, 'article.json'), 'utf8'));
  article.attributes.subtitle = { type: 'string', pluginOptions: { i18n: { localized: true } } };
  writeFileSync(join(dir, 'article.json'), JSON.stringify(article));
  const seoFile = join(dir, 'components/shared/seo.json');
  const seo = JSON.parse(readFileSync(seoFile, 'utf8'));
  seo.attributes.keywords = { type: 'string' };
  writeFileSync(seoFile, JSON.stringify(seo));
  plain = await startServer();
  extended = await startServer({ contentTypes: dir });
});

afterAll(async () => {
  await plain.stop();
  await extended.stop();
});

test('two installations in one process with different schemas for api::article.article each publish every column of their own', async () => {
  // The plain installation publishes first, so its lists exist before the extended one needs its own.
  const first = await plain.call('POST', '/api/articles', { body: { data: { title: 'Plain', seo: { metaTitle: 'Plain seo' } } } });
  expect(first.status).toBe(201);
  const second = await extended.call('POST', '/api/articles', {
    body: { data: { title: 'Extended', subtitle: 'Kept on publish', seo: { metaTitle: 'Extended seo', keywords: 'a, b' } } },
  });
  expect(second.status).toBe(201);
  const published = await extended.call('GET', `/api/articles/${second.body.data.documentId}?populate=seo`);
  expect(published.body.data.subtitle).toBe('Kept on publish');
  expect(published.body.data.seo.keywords).toBe('a, b');
  // Publishing again (an update) copies the components row by row or by table, with the same columns.
  const updated = await extended.call('PUT', `/api/articles/${second.body.data.documentId}`, { body: { data: { summary: 'again' } } });
  expect(updated.status).toBe(200);
  const again = await extended.call('GET', `/api/articles/${second.body.data.documentId}?populate=seo`);
  expect({ subtitle: again.body.data.subtitle, keywords: again.body.data.seo.keywords }).toEqual({ subtitle: 'Kept on publish', keywords: 'a, b' });
  const plainAgain = await plain.call('PUT', `/api/articles/${first.body.data.documentId}`, { body: { data: { summary: 'again' } } });
  expect(plainAgain.status).toBe(200);
  expect(plainAgain.body.data.subtitle).toBeUndefined();
});
