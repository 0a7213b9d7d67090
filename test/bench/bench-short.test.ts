/**
 * The benchmark harness end to end in its CI size (`bun bench/run.ts --short`): it builds
 * the binary, seeds through `folio import`, counts each scenario's SQL statements, runs the
 * read and write baselines and every scenario for a second each, marks the targets and writes
 * its JSON. This keeps the harness from rotting; the figures themselves are not judged here
 * (a shared CI machine is too noisy for that), only that every column and target is there.
 */
import { afterAll, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUN, cleanEnv, removeTempDirs, ROOT, tempDir } from '../helpers/spawn';
import { builtFrom } from '../../bench/scenarios';

const SCENARIOS = [
  'list',
  'list_populate_all',
  'list_populate_nested',
  'filter_sort_indexed',
  'filter_sort_unindexed',
  'filter_containsi',
  'find_one',
  'graphql_nested',
  // The same reads on a server with the answer cache off.
  'list_uncached',
  'list_populate_all_uncached',
  'list_populate_nested_uncached',
  'find_one_uncached',
  'graphql_nested_uncached',
  'create',
  'update_connect',
];

const dir = tempDir('folio-bench-test-');
afterAll(removeTempDirs);

it('bun bench/run.ts --short measures both baselines and every scenario with its statements per request, marks the targets and writes the JSON', async () => {
  const out = join(dir, 'short.json');
  const proc = Bun.spawn([BUN, join(ROOT, 'bench/run.ts'), '--short', '--out', out], { cwd: ROOT, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  if (code !== 0) throw new Error(`bench/run.ts --short exited ${code}\n${stdout}\n${stderr}`);

  expect(stdout).toContain('| scenario | request | req/s | × baseline | SQL / request | p50 | p99 | server RSS peak | Strapi req/s | × Strapi |');
  expect(stdout).toContain('| **write baseline: Bun.serve + bun:sqlite, one transaction**');
  expect(stdout).toMatch(/\| list of 25 \| ≥ 0\.75 × read baseline \|/);
  expect(stdout).toMatch(/\| populate=\* statements \| ≤ 4 statements per request \| \d+ \|/);
  expect(stdout).toMatch(/\| create with relations \| ≥ 0\.5 × write baseline \|/);
  expect(stdout).toMatch(/\| create statements \| ≤ 12 statements per request \| \d+ \|/);
  expect(stdout).toContain('| Folio / Strapi | ≥ 40 × on every scenario | not run (no --peer strapi) | n/a |');
  expect(stderr).toContain('baseline and Folio return the same first page');

  const report = JSON.parse(readFileSync(out, 'utf8'));
  expect(report.mode).toBe('short');
  expect(report.baseline.rps).toBeGreaterThan(0);
  expect(report.baseline.runs.length).toBe(2);
  expect(report.writeBaseline.rps).toBeGreaterThan(0);
  expect(report.writeBaseline.runs.length).toBe(2);
  expect(report.scenarios.map((s: { key: string }) => s.key)).toEqual(SCENARIOS);
  for (const s of report.scenarios) {
    expect(s.rps).toBeGreaterThan(0);
    expect(s.ratio).toBeGreaterThan(0);
    expect(s.baseline).toBe(['create', 'update_connect'].includes(s.key) ? 'write' : 'read');
    expect(s.p50Ms).toBeGreaterThan(0);
    expect(s.p99Ms).toBeGreaterThanOrEqual(s.p50Ms);
    expect(s.non2xx).toBe(0);
    expect(s.rssAfterMiB).toBeGreaterThan(0);
    expect(s.rssPeakMiB).toBeGreaterThanOrEqual(s.rssAfterMiB);
    expect(Number.isInteger(s.statements) && s.statements > 0).toBe(true);
    // SQLite lists every statement it counted (the cache checks included).
    expect(report.statements[builtFrom(s.key)].statements.length).toBe(s.statements);
  }
  // The create links a category, an author and 3 tags, as front ends write them.
  const created = report.statements.create.statements.join('\n');
  for (const link of ['articles_category_lnk', 'articles_author_lnk', 'articles_tags_lnk']) expect(created).toContain(`INSERT INTO "${link}"`);
  expect(report.rss.peakMiB).toBeGreaterThan(0);
  expect(report.coldStart.healthMs.length).toBe(10);
  expect(report.coldStart.healthMedianMs).toBeGreaterThan(0);
  expect(report.scale).toBeNull();
  // The realtime scenario at CI size: 500 idle streams, each given every event.
  expect(report.realtime).toMatchObject({ streams: 500, opened: 500 });
  expect(report.realtime.rssIdleMiB).toBeGreaterThan(0);
  for (const d of report.realtime.deliveries) expect(d.got).toBe(500);
  expect(stdout).toMatch(/Realtime: 500 idle subscribers of GET \/api\/realtime/);
  expect(stdout).toMatch(/\| 10,000 idle streams: server RSS \| < 200 MiB \| [\d.]+ MiB \(measured with 500 streams\) \| n\/a \|/);
  expect(report.peer).toMatchObject({ name: 'strapi', ran: false });
  const names = report.targets.map((t: { name: string }) => t.name);
  for (const name of [
    'list of 25',
    'populate=*',
    'populate=* statements',
    'nested populate',
    'create with relations',
    'create statements',
    'update with a positioned connect',
    'create p99',
    'RSS under load',
  ]) {
    expect(names).toContain(name);
  }
  for (const t of report.targets) expect([true, false, null]).toContain(t.pass);
  expect(report.machine.nproc).toBeGreaterThan(0);
}, 120_000);
