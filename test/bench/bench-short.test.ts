/**
 * The benchmark harness end to end in its CI size (`bun bench/run.ts --short`): it builds
 * the binary, seeds through `folio import`, runs the baseline and every scenario for a
 * second each, and writes its JSON. This keeps the harness from rotting; the figures
 * themselves are not judged here (a shared CI machine is too noisy for that).
 */
import { afterAll, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUN, cleanEnv, removeTempDirs, ROOT, tempDir } from '../helpers/spawn';

const SCENARIOS = [
  'list',
  'list_populate_all',
  'list_populate_nested',
  'filter_sort_indexed',
  'filter_sort_unindexed',
  'filter_containsi',
  'find_one',
  'create',
  'update_connect',
];

const dir = tempDir('folio-bench-test-');
afterAll(removeTempDirs);

it(
  'bun bench/run.ts --short measures the baseline and every scenario and writes the JSON',
  async () => {
    const out = join(dir, 'short.json');
    const proc = Bun.spawn([BUN, join(ROOT, 'bench/run.ts'), '--short', '--out', out], { cwd: ROOT, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' });
    const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    const code = await proc.exited;
    if (code !== 0) throw new Error(`bench/run.ts --short exited ${code}\n${stdout}\n${stderr}`);

    expect(stdout).toContain('| scenario | request | req/s | × baseline |');
    expect(stdout).toMatch(/\| list of 25 \| ≥ 0\.6 × baseline \|/);
    expect(stderr).toContain('baseline and Folio return the same first page');

    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.mode).toBe('short');
    expect(report.baseline.rps).toBeGreaterThan(0);
    expect(report.baseline.runs.length).toBe(2);
    expect(report.scenarios.map((s: { key: string }) => s.key)).toEqual(SCENARIOS);
    for (const s of report.scenarios) {
      expect(s.rps).toBeGreaterThan(0);
      expect(s.ratio).toBeGreaterThan(0);
      expect(s.p50Ms).toBeGreaterThan(0);
      expect(s.p99Ms).toBeGreaterThanOrEqual(s.p50Ms);
      expect(s.non2xx).toBe(0);
      expect(s.rssAfterMiB).toBeGreaterThan(0);
    }
    expect(report.coldStart.healthMs.length).toBe(10);
    expect(report.coldStart.healthMedianMs).toBeGreaterThan(0);
    expect(report.scale).toBeNull();
    expect(report.targets.map((t: { name: string }) => t.name)).toContain('create');
    expect(report.machine.nproc).toBeGreaterThan(0);
  },
  120_000,
);
