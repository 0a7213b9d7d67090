/** The run's report: the markdown table (stdout, and docs/benchmarks.md with --readme) from the JSON report. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fmtInt, fmtMs, fmtRatio, type machine } from './format';
import type { LoadResult } from './load';
import { ROOT } from './options';
import type { ColdStart } from './processes';
import type { RealtimeResult } from './realtime';
import type { ScaleResult } from './scale';
import type { ScenarioResult } from './scenarios';
import type { Target } from './targets';

export type BaselineRun = LoadResult & { rssAfterMiB: number };

export interface BaselineReport {
  program: string;
  method: string;
  path: string;
  rps: number;
  runs: BaselineRun[];
  spread: number;
  noisy: boolean;
}

export interface PeerReport {
  name: string;
  version: string | null;
  ran: boolean;
  /** Why it did not run (not installed: the command that installs it). */
  why?: string;
  seed?: { articles: number; seconds: number };
  startMs?: number;
  rssPeakMiB?: number;
}

export interface Report {
  date: string;
  mode: string;
  machine: ReturnType<typeof machine>;
  loadGenerator: string;
  settings: { seconds: number; warmupSeconds: number; connections: number; threads: number; pinned: boolean; rounds: number };
  seed: { categories: number; authors: number; tags: number; articles: number; importMs: number };
  baseline: BaselineReport;
  writeBaseline: BaselineReport | null;
  scenarios: ScenarioResult[];
  rss: { atStartMiB: number; peakMiB: number };
  coldStart: ColdStart;
  realtime: RealtimeResult | null;
  scale: ScaleResult | null;
  peer: PeerReport;
  targets: Target[];
  durationSeconds: number;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');
const shorten = (path: string, max: number) => (path.length > max ? `${path.slice(0, max - 3)}…` : path);

function baselineRow(b: BaselineReport, label: string): string {
  const best = b.runs.reduce((x, y) => (y.rps > x.rps ? y : x));
  return (
    `| **${label}** (best of ${b.runs.map((r) => fmtInt(r.rps)).join(', ')}) | ${b.method} ${b.path} | ${fmtInt(b.rps)} | 1.00 | | ` +
    `${fmtMs(best.p50Ms)} | ${fmtMs(best.p99Ms)} | ${b.runs.at(-1)!.rssAfterMiB} MiB | | |`
  );
}

export function renderTable(report: Report): string {
  const m = report.machine;
  const lines: string[] = [];
  const peer = report.peer;
  lines.push(
    `Measured ${report.date.slice(0, 10)} on ${m.nproc} × ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.os}, Bun ${m.bun}; ${report.mode} run, ` +
      `${report.loadGenerator} -t1 -c${report.settings.connections} -d${report.settings.seconds}s` +
      `${report.settings.pinned ? ', server on CPU0 and load on CPU1 (taskset)' : ''}` +
      `${report.settings.rounds > 1 ? `; reads: best of ${report.settings.rounds} rounds, writes once` : ''}; ${report.seed.articles} articles (category, author, 3 tags, seo component, 2-item dynamic zone).` +
      (peer.ran
        ? ` Strapi ${peer.version ?? '5'} under the same load in the same run (its own seed: ${peer.seed?.articles} articles of the same shape, in ${peer.seed?.seconds} s).`
        : ''),
  );
  lines.push('');
  lines.push('| scenario | request | req/s | × baseline | SQL / request | p50 | p99 | server RSS peak | Strapi req/s | × Strapi |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  lines.push(baselineRow(report.baseline, 'read baseline: Bun.serve + bun:sqlite'));
  if (report.writeBaseline) lines.push(baselineRow(report.writeBaseline, 'write baseline: Bun.serve + bun:sqlite, one transaction'));
  for (const r of report.scenarios) {
    const against = r.baseline === 'write' ? ' (w)' : '';
    lines.push(
      `| ${r.label} | ${r.method} ${cell(shorten(r.path, 60))} | ${fmtInt(r.rps)}${r.longer ? ' †' : ''} | ${r.ratio === undefined ? '–' : r.ratio.toFixed(2) + against} | ${r.statements ?? '–'} | ` +
        `${fmtMs(r.p50Ms)} | ${fmtMs(r.p99Ms)} | ${r.rssPeakMiB} MiB | ${r.peer ? fmtInt(r.peer.rps) + (r.peer.longer ? ' †' : '') : '–'} | ${fmtRatio(r.peerRatio) || '–'} |`,
    );
  }
  lines.push('');
  lines.push(
    '× baseline: reads divide by the read baseline, writes (w) by the write baseline (`bench/write-baseline.ts`: the same article, both versions, and its 10 link rows in one transaction). ' +
      'SQL / request: statements one request runs after warm-up, counted in-process (`bench/statements.ts`), with content history and the audit log on, as they are by default: ' +
      'a create counts 2 of theirs (the history row, the audit rows: the history version takes its links from the rows the create inserted), an update a few more (its content is read whole, and the version kept before).',
  );
  const longer = report.scenarios.flatMap((r) => [
    ...(r.longer ? [`Folio's ${r.key} (${fmtInt(r.longer.first.requests)} in ${r.longer.first.seconds} s)`] : []),
    ...(r.peer?.longer ? [`Strapi's ${r.key} (${fmtInt(r.peer.longer.first.requests)} in ${r.peer.longer.first.seconds} s)`] : []),
  ]);
  if (longer.length) {
    const l = report.scenarios.find((r) => r.longer)?.longer ?? report.scenarios.find((r) => r.peer?.longer)!.peer!.longer!;
    lines.push(
      '',
      `† Measured again over ${l.seconds} s (wrk --timeout ${l.timeoutSeconds}s): the ${report.settings.seconds} s run completed fewer requests than its ${report.settings.connections} connections, ` +
        `so it measured little but its first answers' wait: ${longer.join(', ')}. Every run starts once the server has finished the warm-up's requests.`,
    );
  }
  if (!peer.ran) lines.push('', `No Strapi in this run${peer.why ? `: ${peer.why}` : ''} (\`npm run bench -- --peer strapi\`).`);
  for (const b of [report.baseline, report.writeBaseline]) {
    if (b?.noisy) lines.push('', `**Noisy run**: the ${b.program} runs differ by ${Math.round(b.spread * 100)}%; the machine was busy.`);
  }
  lines.push('');
  const c = report.coldStart;
  lines.push(
    `Cold start (process start → first 2xx on /_health, median of ${c.runs}): **${fmtMs(c.healthMedianMs)}**; to the first 200 on GET /api/articles: ${fmtMs(c.listMedianMs)}.` +
      (peer.startMs ? ` Strapi: ${fmtMs(peer.startMs)} to its first 200 on GET /api/articles, RSS peak ${peer.rssPeakMiB} MiB under load.` : ''),
  );
  if (report.realtime) lines.push('', realtimeLine(report.realtime));
  if (report.scale) lines.push('', ...scaleLines(report.scale));
  lines.push('');
  lines.push('| target | bar | measured | |');
  lines.push('|---|---|---|---|');
  for (const t of report.targets) {
    lines.push(`| ${t.name} | ${t.target} | ${t.value}${t.note ? ` (${t.note})` : ''} | ${t.pass === null ? 'n/a' : t.pass ? 'PASS' : '**MISS**'} |`);
  }
  return lines.join('\n');
}

function realtimeLine(r: RealtimeResult): string {
  const worst = Math.max(...r.deliveries.map((d) => d.ms));
  return (
    `Realtime: ${fmtInt(r.opened)} idle subscribers of GET /api/realtime (opened from the load CPU in ${r.openSeconds} s; open files ${fmtInt(r.filesLimit)}): ` +
    `server RSS ${r.rssBeforeMiB} MiB before, **${r.rssIdleMiB} MiB** with them open (peak ${r.rssPeakMiB} MiB); a create's event reached all of them in ` +
    `${r.deliveries.map((d) => fmtMs(d.ms)).join(', ')} (worst **${fmtMs(worst)}**); the list under the same load: p99 ${fmtMs(r.listBefore.p99Ms)} before, ` +
    `${fmtMs(r.listDuring.p99Ms)} with the streams open (${fmtInt(r.listBefore.rps)} → ${fmtInt(r.listDuring.rps)} req/s).`
  );
}

function scaleLines(s: ScaleResult): string[] {
  const lines = [
    `Scale: ${fmtInt(s.articles)} articles (same shape) imported with \`folio import\` in ${s.import.seconds} s (**${fmtInt(s.import.perSecond)} articles/s**, database ${fmtInt(s.import.dbSizeMiB)} MiB). Latency of one request at a time (wrk -c1), answer cache off (every request built):`,
    '',
    '| scale scenario | request | req/s | p50 | p99 | server RSS before → after |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const r of s.scenarios) {
    lines.push(
      `| ${r.label} | GET ${cell(shorten(r.path, 70))} | ${fmtInt(r.rps)} | ${fmtMs(r.p50Ms)} | ${fmtMs(r.p99Ms)} | ${r.rssBeforeMiB} → ${r.rssAfterMiB} MiB |`,
    );
  }
  const p = s.paging;
  lines.push(
    '',
    `Paging through the set (pageSize ${p.pageSize}, ${p.pagesFetched} of ${fmtInt(p.pageCount)} pages${p.every > 1 ? `, every ${p.every}th` : ''}): p50 ${fmtMs(p.p50Ms)}, slowest ${fmtMs(p.maxMs)}; server RSS first ${p.rssFirstMiB} MiB, last ${p.rssLastMiB} MiB, peak ${p.rssPeakMiB} MiB (along the walk: ${p.rssSamplesMiB.map((x) => x.rssMiB).join(', ')}).`,
  );
  return lines;
}

const BEGIN = '<!-- bench:begin (written by npm run bench -- --readme) -->';
const END = '<!-- bench:end -->';

/** Writes the table between the markers of docs/benchmarks.md (the flag keeps its old name, --readme). */
export function writeReadme(table: string) {
  const file = join(ROOT, 'docs', 'benchmarks.md');
  const readme = readFileSync(file, 'utf8');
  const block = `${BEGIN}\n${table}\n${END}`;
  const at = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  const next = at >= 0 && end > at ? readme.slice(0, at) + block + readme.slice(end + END.length) : `${readme.trimEnd()}\n\n## The last full run\n\n${block}\n`;
  writeFileSync(file, next);
}
