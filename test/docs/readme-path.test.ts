/**
 * The README is a path for a newcomer, the reference lives in docs/ (issue #44): the README stays
 * short, links every docs/ page, keeps its two set-up commands, and no relative link in the README
 * or docs/*.md points at a file or a heading that does not exist. Pure: reads files only.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dir, '../..');
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');
const docPages = readdirSync(DOCS)
  .filter((f) => f.endsWith('.md'))
  .sort();
const pages = [README, ...docPages.map((f) => join(DOCS, f))];

/** The text outside fenced code blocks (links and headings in code are not links or headings). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** GitHub's heading anchors: inline markup dropped, lower case, punctuation removed, spaces to `-`, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_]/g, (c) => (c === '_' ? '_' : ''));
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative link targets in a page's prose: `[text](target)`, without external URLs. */
function relativeLinks(markdown: string): string[] {
  const targets = [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe('the README as a path', () => {
  const readme = readFileSync(README, 'utf8');

  test('the README is at most 250 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  test('every docs/*.md page is linked from the README', () => {
    const linked = new Set(relativeLinks(readme).map((t) => resolve(ROOT, t.split('#')[0]!)));
    expect(docPages.filter((f) => !linked.has(join(DOCS, f)))).toEqual([]);
  });

  test('the README keeps its two set-up commands, npm start and npm test, in a shell block', () => {
    const blocks = [...readme.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
    const lines = blocks.flatMap((b) => b.split('\n')).map((l) => l.replace(/#.*$/, '').trim());
    expect(lines.some((l) => /(^|&&\s*)npm start$/.test(l))).toBe(true);
    expect(lines.some((l) => l === 'npm test')).toBe(true);
  });
});

describe('links between the README and docs/', () => {
  test('every relative link in the README and docs/*.md points at a file that exists, and at a heading it has', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(page, 'utf8');
      for (const target of relativeLinks(text)) {
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
        const where = `${relative(ROOT, page)} → ${target}`;
        if (!existsSync(file)) {
          broken.push(`${where}: no such file`);
          continue;
        }
        if (anchor !== undefined && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor))) {
          broken.push(`${where}: no such heading`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  test("the anchors are GitHub's: punctuation dropped, an ampersand's spaces kept as two dashes", () => {
    expect([...anchors('## Users & permissions settings\n## Uploads in S3 (or an S3-compatible store)\n## A `code` title\n## A `code` title')]).toEqual([
      'users--permissions-settings',
      'uploads-in-s3-or-an-s3-compatible-store',
      'a-code-title',
      'a-code-title-1',
    ]);
  });
});
