/**
 * The Strapi 5 peer in the same run (`--peer strapi`): the real Strapi that
 * shared/peers/strapi installs (same content types as Folio's examples), started with its own
 * start.sh on a free port pinned to the server's CPU, emptied with `reset.sh --data`, seeded
 * through its REST API with the same data as Folio's seed (its full-access token from
 * app/.tokens.json), loaded with the same scenarios and settings, and stopped with stop.sh.
 *
 * Strapi writes ~40 documents a second, so it gets a smaller seed than Folio only when Folio's
 * is larger than PEER_MAX_ARTICLES; the pages the scenarios read (25 rows, the same relations,
 * components and zones per row) have the same shape either way.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { article, TARGET_COUNTS, targetData, type Refs } from './data';
import { fmtMs, round } from './format';
import { log } from './options';
import { freePort, onCleanup, rssMiB, serverPin } from './processes';
import type { PeerReport } from './report';
import { measure, scenarioList, type MeasureSettings, type ScenarioResult } from './scenarios';

export const PEER_MAX_ARTICLES = 100;
/** Concurrent seed requests: Strapi writes one at a time anyway; a few overlap the HTTP work. */
const SEED_CONCURRENCY = 4;

/** The peer's state when it cannot run: not installed (with the command that installs it), or busy. */
export function peerStatus(dir: string): { ready: true; version: string | null } | { ready: false; why: string } {
  if (!existsSync(join(dir, 'start.sh'))) return { ready: false, why: `no Strapi peer scripts in ${dir}` };
  if (!existsSync(join(dir, 'app', 'node_modules', '.bin', 'strapi'))) {
    return {
      ready: false,
      why: `Strapi is not installed in ${join(dir, 'app')}; install it with \`${join(dir, 'setup.sh')}\` (npm install, ~2 min; a read-only folder: copy it elsewhere, run its setup.sh there and pass --peer-dir)`,
    };
  }
  let version: string | null = null;
  try {
    version = JSON.parse(readFileSync(join(dir, 'app', 'node_modules', '@strapi', 'strapi', 'package.json'), 'utf8')).version;
  } catch {
    // reported as unknown
  }
  return { ready: true, version };
}

function script(dir: string, name: string, args: string[] = [], wrap: string[] = []) {
  const result = spawnSync(wrap[0] ?? join(dir, name), wrap.length ? [...wrap.slice(1), join(dir, name), ...args] : args, {
    encoding: 'utf8',
    timeout: 240_000,
  });
  if (result.status !== 0)
    throw new Error(`${name} ${args.join(' ')} exited ${result.status}: ${(result.stderr || result.stdout || String(result.error)).trim().slice(-1500)}`);
  return result;
}

/**
 * Runs every scenario against the peer; fills `peer` and `peerRatio` in `results` (matched by key).
 * Never throws: a peer that fails is reported as not run, with the reason.
 */
export async function runStrapiPeer(dir: string, count: number, settings: MeasureSettings, results: ScenarioResult[]): Promise<PeerReport> {
  const status = peerStatus(dir);
  if (!status.ready) {
    log(`peer: ${status.why}; continuing without it`);
    return { name: 'strapi', version: null, ran: false, why: status.why };
  }
  const report: PeerReport = { name: 'strapi', version: status.version, ran: false };
  let started = false;
  const stopPeer = () => {
    if (!started) return;
    started = false;
    spawnSync(join(dir, 'stop.sh'), { stdio: 'ignore', timeout: 30_000 });
  };
  onCleanup(stopPeer);
  try {
    const port = await freePort();
    const t0 = performance.now();
    // start.sh waits for a 200 on GET /api/articles and prints the server's PID last; the
    // server inherits the CPU pin (taskset), as Folio does.
    const out = script(dir, 'start.sh', [String(port)], serverPin);
    started = true;
    report.startMs = round(performance.now() - t0, 0);
    const pid = Number(out.stdout.trim().split('\n').at(-1));
    const base = `http://127.0.0.1:${port}`;
    log(`peer: Strapi ${status.version} ready on ${base} (PID ${pid}) after ${fmtMs(report.startMs)}`);
    script(dir, 'reset.sh', ['--data']);
    const token = (JSON.parse(readFileSync(join(dir, 'app', '.tokens.json'), 'utf8')) as { fullAccess: string }).fullAccess;
    const articles = Math.min(count, PEER_MAX_ARTICLES);
    const s0 = performance.now();
    const { refs, documentIds } = await seedPeer(base, token, articles);
    report.seed = { articles, seconds: round((performance.now() - s0) / 1000) };
    log(`peer: seeded ${articles} articles (and their targets) through Strapi's REST API in ${report.seed.seconds} s`);

    const list = (await (await fetch(`${base}/api/articles`)).json()) as { data: unknown[]; meta: { pagination: { total: number } } };
    if (list.data.length !== Math.min(25, articles) || list.meta.pagination.total !== articles) {
      throw new Error(`Strapi's first page has ${list.data.length} rows of ${list.meta.pagination.total}, expected ${Math.min(25, articles)} of ${articles}`);
    }
    let rssPeak = rssMiB(pid);
    // Reads before writes, as for Folio (the writes change what the reads see).
    for (const scenario of scenarioList(refs, documentIds)) {
      const own = results.find((r) => r.key === scenario.key);
      if (!own) continue;
      const r = await measure(base, pid, { ...scenario, key: `strapi ${scenario.key}` }, settings);
      own.peer = {
        rps: r.rps,
        p50Ms: r.p50Ms,
        p99Ms: r.p99Ms,
        non2xx: r.non2xx,
        errors: r.errors,
        rssPeakMiB: r.rssPeakMiB,
        path: r.path,
        ...(r.longer ? { longer: r.longer } : {}),
      };
      own.peerRatio = r.rps > 0 ? round(own.rps / r.rps, 2) : undefined;
      rssPeak = Math.max(rssPeak, r.rssPeakMiB);
    }
    report.rssPeakMiB = rssPeak;
    report.ran = true;
  } catch (error) {
    report.why = `the peer failed: ${(error as Error).message.split('\n')[0]}`;
    log(`peer: ${(error as Error).message}; continuing without it`);
  } finally {
    stopPeer();
  }
  return report;
}

/** The same targets and articles as Folio's seed (bench/data.ts), through POST; returns the documentIds. */
async function seedPeer(base: string, token: string, count: number): Promise<{ refs: Refs; documentIds: string[] }> {
  const post = async (path: string, data: unknown): Promise<string> => {
    const response = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ data }),
    });
    const body = (await response.json().catch(() => null)) as { data?: { documentId: string } } | null;
    if (response.status !== 201 && response.status !== 200)
      throw new Error(`seeding Strapi: POST ${path} -> ${response.status} ${JSON.stringify(body).slice(0, 500)}`);
    return body!.data!.documentId;
  };
  /** `n` posts, SEED_CONCURRENCY at a time, results in index order. */
  const many = async (n: number, one: (i: number) => Promise<string>) => {
    const out: string[] = new Array(n);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(SEED_CONCURRENCY, n) }, async () => {
        while (next < n) {
          const i = next++;
          out[i] = await one(i);
        }
      }),
    );
    return out;
  };
  const refs: Refs = {
    categories: await many(TARGET_COUNTS.categories, (i) => post('/api/categories', targetData.categories(i))),
    authors: await many(TARGET_COUNTS.authors, (i) => post('/api/authors', targetData.authors(i))),
    tags: await many(TARGET_COUNTS.tags, (i) => post('/api/tags', targetData.tags(i))),
  };
  // In order, one at a time: the list's default order is by id, and get-one picks article 50 by position.
  const documentIds: string[] = [];
  for (let i = 0; i < count; i++) documentIds.push(await post('/api/articles', article(i, refs)));
  return { refs, documentIds };
}
