/**
 * `folio types`: the declarations it writes compile under `tsc --strict` together with a
 * front-end file that reads an API with plain fetch and with @strapi/client, narrows a
 * dynamic-zone entry by `__component`, and holds lines that must NOT compile
 * (`// @ts-expect-error`: tsc fails if such a line compiles after all).
 */
import { afterAll, describe, expect, it } from 'bun:test';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateTypes } from '../../src/codegen/typescript';
import { loadRegistry } from '../../src/registry/load';
import { ALL_TYPES_CONTENT_TYPES } from '../helpers/server';
import { removeTempDirs, ROOT, runCli, tempDir } from '../helpers/spawn';

const TSC = join(ROOT, 'node_modules/.bin/tsc');

/** tsc --strict over the files of a folder, where node_modules (for @strapi/client) links to the project's. */
function compile(dir: string, files: string[]): { code: number; output: string } {
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        lib: ['ES2022', 'DOM'],
        types: [],
        skipLibCheck: true,
      },
      files,
    }),
  );
  const run = Bun.spawnSync([TSC, '-p', dir], { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
  return { code: run.exitCode ?? -1, output: `${run.stdout.toString()}${run.stderr.toString()}` };
}

const FRONT_END = `
import { strapi, type API } from '@strapi/client';
import type { Article, ArticleInput, CollectionTypes, Homepage, StrapiErrorResponse, StrapiListResponse, StrapiResponse, ZoneEntry } from './folio-types';

export async function titles(base: string): Promise<string[]> {
  const res = await fetch(\`\${base}/api/articles?populate=*\`);
  if (!res.ok) {
    const failure = (await res.json()) as StrapiErrorResponse;
    throw new Error(\`\${failure.error.status} \${failure.error.name}: \${failure.error.message}\`);
  }
  const page = (await res.json()) as StrapiListResponse<CollectionTypes['articles']>;
  const total: number = page.meta.pagination.total;
  return page.data.map((article: Article) => {
    const title: string = article.title;
    const kind: 'news' | 'guide' | 'opinion' | null = article.kind;
    const cover: string | null | undefined = article.cover?.formats?.small?.url ?? article.cover?.url;
    const tagNames: string[] = (article.tags ?? []).map((tag) => tag.name);
    const parts: string[] = [];
    for (const block of article.blocks ?? []) {
      // Narrowed by __component: each branch sees its own component's fields.
      if (block.__component === 'shared.quote') parts.push(block.title ?? '');
      else if (block.__component === 'shared.media') parts.push(block.file?.url ?? '');
      else parts.push(block.body ?? '');
    }
    const firstNode = article.body?.[0];
    const level = firstNode?.type === 'heading' ? firstNode.level : 0;
    return [title, kind, cover, ...tagNames, ...parts, total, level].join(' ');
  });
}

export async function homepage(base: string): Promise<string> {
  const answer = (await (await fetch(\`\${base}/api/homepage\`)).json()) as StrapiResponse<Homepage>;
  return answer.data.headline + (answer.data.seo?.metaTitle ?? '');
}

export async function withClient(): Promise<string> {
  const client = strapi({ baseURL: 'http://127.0.0.1:1337/api' });
  const list = (await client.collection('articles').find({ populate: '*' })) as API.DocumentResponseCollection<Article>;
  const one = (await client.collection('articles').findOne('abc')) as API.DocumentResponse<Article>;
  return list.data[0]?.title ?? one.data.title;
}

export const draft: ArticleInput = {
  title: 'Hello', kind: 'news', tags: ['tag-document-id'], cover: 3, seo: { metaTitle: 'm' },
  blocks: [{ __component: 'shared.quote', title: 'q' }, { __component: 'shared.media', file: 3 }],
};

// @ts-expect-error an enumeration takes only its values
export const wrongKind: Article['kind'] = 'rumour';
// @ts-expect-error a quote entry has no file
export const noFile = (entry: ZoneEntry<'shared.quote'>) => entry.file;
// @ts-expect-error a zone entry names one of the zone's components
export const badEntry: ArticleInput = { blocks: [{ __component: 'shared.seo', metaTitle: 'x' }] };
// @ts-expect-error relations are optional: they appear only when populated
export const author = (article: Article): string => article.author.name;
`;

describe('folio types', () => {
  afterAll(removeTempDirs);

  it('writes declarations that compile under tsc --strict with a front end using fetch, @strapi/client and zone narrowing', () => {
    const dir = tempDir('folio-types-');
    const written = runCli(['types', '--out', join(dir, 'folio-types.ts')], { data: null });
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    writeFileSync(join(dir, 'front-end.ts'), FRONT_END);
    const result = compile(dir, ['folio-types.ts', 'front-end.ts']);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  it('fails to compile a front end that misuses the types (the expect-error lines are real errors)', () => {
    const dir = tempDir('folio-types-');
    writeFileSync(join(dir, 'folio-types.ts'), runCli(['types'], { data: null }).stdout);
    // The same file without its @ts-expect-error markers: every marked line must be an error.
    writeFileSync(join(dir, 'front-end.ts'), FRONT_END.replaceAll('// @ts-expect-error', '//'));
    const result = compile(dir, ['folio-types.ts', 'front-end.ts']);
    expect(result.code).not.toBe(0);
    expect(result.output.match(/error TS/g)).toHaveLength(4);
    // One error per marked line, on the line after each marker.
    const marked = FRONT_END.split('\n').flatMap((line, i) => (line.includes('@ts-expect-error') ? [i + 2] : []));
    expect([...result.output.matchAll(/front-end\.ts\((\d+),/g)].map((m) => Number(m[1]))).toEqual(marked);
  }, 60_000);

  it('types every attribute kind precisely (all-types fixture) and prints to stdout without --out', () => {
    const printed = runCli(['types'], { contentTypes: ALL_TYPES_CONTENT_TYPES, data: null });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(generateTypes(loadRegistry(ALL_TYPES_CONTENT_TYPES)));
    const showcase = printed.stdout.slice(printed.stdout.indexOf('export type Showcase = {'));
    const body = showcase.slice(0, showcase.indexOf('\n};'));
    for (const line of [
      'aString: string | null;',
      'aBlocks: BlocksNode[] | null;',
      'anEnumeration: "alpha" | "beta" | "gamma" | null;',
      'anInteger: number | null;',
      'aBigInteger: string | null;',
      'aDecimal: number | null;',
      'aBoolean: boolean | null;',
      'aJson: JsonValue | null;',
      'aSingleMedia?: UploadFile | null;',
      'aMultipleMedia?: UploadFile[];',
      'aOneToOne?: Showcase | null;',
      'aManyToMany?: Showcase[];',
      'aComponent?: PartsCard | null;',
      'aRepeatableComponent?: PartsCard[];',
      'aDynamicZone?: ZoneEntry<"parts.card" | "parts.note">[];',
    ])
      expect(body).toContain(`  ${line}`);
    expect(body).not.toContain('aPassword');
    const dir = tempDir('folio-types-');
    writeFileSync(join(dir, 'all-types.ts'), printed.stdout);
    expect(compile(dir, ['all-types.ts'])).toEqual({ code: 0, output: '' });
    expect(readFileSync(join(dir, 'all-types.ts'), 'utf8')).toContain('export interface CollectionTypes {\n  showcases: Showcase;\n}');
    // Polymorphic relations: a morphTo side holds any content type, discriminated by __type.
    const morph = runCli(['types'], { contentTypes: join(ROOT, 'test/fixtures/morph'), data: null });
    expect(morph.code).toBe(0);
    expect(morph.stdout).toContain('  mentions?: MorphTarget[];');
    writeFileSync(join(dir, 'morph.ts'), morph.stdout);
    expect(compile(dir, ['morph.ts'])).toEqual({ code: 0, output: '' });
  }, 60_000);
});
