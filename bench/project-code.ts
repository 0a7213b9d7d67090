/**
 * The project-code scenario (issue #37): what one route middleware and one lifecycle cost.
 * The same Strapi project (test/fixtures/projects/bench-js on the blog schemas) is served twice
 * from dist/folio, on the same seed: without code on its article routes (Folio's own REST
 * routes), and with BENCH_HOOKS=1 (a route middleware on find, findOne and create, which then
 * run Strapi's chain: controller, service, strapi.documents; a beforeCreate lifecycle).
 * Reads and writes are loaded alike and compared; the goal is within 10 % of the same request
 * without them.
 *
 *   bun bench/project-code.ts [--seconds 5] [--connections 32] [--rounds 2] [--no-build] [--out FILE]
 *
 * Prints a table and writes bench/results/project-code.json (or --out). Beside requests per
 * second, the server process's CPU per request (its user + system time from /proc over each
 * measured run, divided by the requests answered): on a machine shared with other work,
 * throughput moves with their load, CPU per request much less.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { copyProject } from '../test/helpers/project';
import { fmtInt, fmtMs, machine, round } from './format';
import { chooseLoadGenerator, generator, load } from './generator';
import type { LoadRequest, LoadResult } from './load';
import { log, ROOT } from './options';
import { buildBinary, installSignalHandlers, killAll, removeWorkDir, serverPin, stopServer, work } from './processes';
import { BINARY, runCli, serve } from '../test/helpers/spawn';

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '2' },
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string' },
    load: { type: 'string' },
  },
});
const seconds = Number(flags.seconds);
const connections = Number(flags.connections);
const rounds = Number(flags.rounds);
const SEED = 100;

interface Variant {
  key: 'plain' | 'hooked';
  label: string;
  env: Record<string, string>;
}
const VARIANTS: Variant[] = [
  { key: 'plain', label: 'without project code', env: {} },
  { key: 'hooked', label: 'route middleware + lifecycle', env: { BENCH_HOOKS: '1' } },
];

/** The scenarios: a list, one article, a create. */
function scenarios(documentIds: string[]): { key: string; label: string; requests: LoadRequest[] }[] {
  return [
    { key: 'list', label: 'GET /api/articles (10 per page)', requests: [{ method: 'GET', path: '/api/articles?pagination[pageSize]=10' }] },
    { key: 'one', label: 'GET /api/articles/:documentId', requests: documentIds.slice(0, 50).map((id) => ({ method: 'GET', path: `/api/articles/${id}` })) },
    {
      key: 'create',
      label: 'POST /api/articles',
      requests: [{ method: 'POST', path: '/api/articles', body: JSON.stringify({ data: { title: 'Bench article', views: 3 } }) }],
    },
  ];
}

/** A process's CPU time so far (user + system), in seconds; undefined where /proc is not there. */
function cpuSeconds(pid: number): number | undefined {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return undefined;
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** `folio serve --project ROOT` (serve() takes the project as --content-types: the same thing). */
function projectServe(variant: Variant, root: string, data: string) {
  return serve({ exe: BINARY, data, contentTypes: root, env: variant.env, wrap: serverPin, startTimeoutMs: 30_000 });
}

async function main() {
  installSignalHandlers();
  chooseLoadGenerator(flags.load);
  work.dir = mkdtempSync(join(tmpdir(), 'folio-bench-project-'));
  buildBinary(!flags['no-build']);
  log(`project code: ${seconds} s per scenario, best of ${rounds} round(s), ${connections} connections, ${generator.version}`);
  const results: Record<string, Record<string, LoadResult & { roundsRps: number[]; cpuUs?: number }>> = {};
  for (const variant of VARIANTS) {
    const root = copyProject('bench-js');
    const data = mkdtempSync(join(work.dir!, `data-${variant.key}-`));
    const grant = runCli(['permissions', 'grant', 'public', 'api::article.article.find', 'api::article.article.findOne', 'api::article.article.create'], {
      exe: BINARY,
      data,
      contentTypes: root,
    });
    if (grant.code !== 0) throw new Error(`folio permissions grant: ${grant.stdout}${grant.stderr}`);
    const server = await projectServe(variant, root, data);
    const ids: string[] = [];
    for (let i = 0; i < SEED; i++) {
      const created = await server.call('POST', '/api/articles', { body: { data: { title: `Seed article ${i}`, views: i } } });
      if (created.status !== 201) throw new Error(`seed: ${created.status} ${JSON.stringify(created.body)}`);
      ids.push(created.body.data.documentId);
    }
    const check = await server.call('GET', '/api/articles');
    if (check.status !== 200 || (variant.key === 'hooked') !== (check.headers.get('x-stamp') === 'bench'))
      throw new Error(`${variant.key}: the route middleware ${variant.key === 'hooked' ? 'did not run' : 'ran'}`);
    results[variant.key] = {};
    for (const scenario of scenarios(ids)) {
      await load(server.url, scenario.requests, 1, connections);
      const runs: (LoadResult & { cpuUs?: number })[] = [];
      for (let i = 0; i < (scenario.key === 'create' ? 1 : rounds); i++) {
        const before = cpuSeconds(server.proc.pid);
        const run = await load(server.url, scenario.requests, seconds, connections);
        const after = cpuSeconds(server.proc.pid);
        const cpuUs = before === undefined || after === undefined || !run.requests ? undefined : round(((after - before) / run.requests) * 1e6, 1);
        runs.push({ ...run, cpuUs });
      }
      const best = runs.reduce((a, b) => (b.rps > a.rps ? b : a));
      results[variant.key]![scenario.key] = { ...best, roundsRps: runs.map((r) => round(r.rps)) };
      const cpu = best.cpuUs === undefined ? '' : `, server CPU ${best.cpuUs} µs/request`;
      log(`${variant.key} ${scenario.key}: ${fmtInt(best.rps)} req/s, p50 ${fmtMs(best.p50Ms)}${cpu}, non-2xx ${best.non2xx}`);
    }
    await stopServer(server, `folio serve (${variant.key})`);
  }
  const rows = scenarios([]).map((s) => {
    const plain = results.plain![s.key]!;
    const hooked = results.hooked![s.key]!;
    const ratio = hooked.rps / plain.rps;
    return {
      key: s.key,
      label: s.label,
      plainRps: round(plain.rps),
      hookedRps: round(hooked.rps),
      ratio: round(ratio, 3),
      withinGoal: ratio >= 0.9,
      plainP50: plain.p50Ms,
      hookedP50: hooked.p50Ms,
      plainCpuUs: plain.cpuUs,
      hookedCpuUs: hooked.cpuUs,
      cpuRatio: plain.cpuUs && hooked.cpuUs ? round(hooked.cpuUs / plain.cpuUs, 3) : undefined,
    };
  });
  console.log(
    `\n| scenario | without project code | route middleware + lifecycle | ratio | goal (≥ 0.90) | server CPU per request (without → with) |\n|---|---:|---:|---:|:---:|---:|`,
  );
  for (const r of rows) {
    const cpu = r.cpuRatio === undefined ? '–' : `${r.plainCpuUs} → ${r.hookedCpuUs} µs (×${r.cpuRatio.toFixed(2)})`;
    console.log(
      `| ${r.label} | ${fmtInt(r.plainRps)} req/s | ${fmtInt(r.hookedRps)} req/s | ${r.ratio.toFixed(2)} | ${r.withinGoal ? 'PASS' : 'MISS'} | ${cpu} |`,
    );
  }
  const out = flags.out ?? join(ROOT, 'bench', 'results', 'project-code.json');
  writeFileSync(
    out,
    `${JSON.stringify({ at: new Date().toISOString(), machine: machine(), generator: generator.version, seconds, connections, rounds, seed: SEED, rows, results }, null, 2)}\n`,
  );
  log(`written ${out}`);
}

main()
  .catch((error) => {
    log(`failed: ${(error as Error).stack ?? error}`);
    process.exitCode = 1;
  })
  .finally(() => {
    killAll();
    removeWorkDir();
  });
