/**
 * The targets of issue 21 (performance, round two), each row marked PASS, MISS or n/a (not
 * measured in this run: no peer, no scale run, or a set smaller than the bar is set for).
 * Ratios, not absolute figures, because a shared 2-core machine makes absolute figures noise.
 */
import { fmtInt, fmtMs } from './format';
import type { ColdStart } from './processes';
import type { RealtimeResult } from './realtime';
import type { ScaleResult } from './scale';
import type { ScenarioResult } from './scenarios';

export interface Target {
  name: string;
  target: string;
  value: string;
  pass: boolean | null;
  note?: string;
}

export interface TargetInputs {
  results: ScenarioResult[];
  cold: ColdStart;
  scale: ScaleResult | null;
  realtime?: RealtimeResult | null;
  /** Folio's RSS peak over every load scenario. */
  rssPeakMiB: number;
  /** Whether the Strapi peer ran, and why not when it did not. */
  peer: { ran: boolean; why?: string };
  short: boolean;
}

/** Strapi ratio bar for every scenario (reads, populate included, and both writes). */
export const PEER_MIN_RATIO = 40;
/** Issue 39: the nested GraphQL list against Strapi's GraphQL plugin. */
export const GRAPHQL_PEER_MIN_RATIO = 50;
const peerBar = (key: string) => (key.startsWith('graphql') ? GRAPHQL_PEER_MIN_RATIO : PEER_MIN_RATIO);
/** A write's p99 over its p50: a WAL checkpoint on the request path shows as a tail beyond this. */
export const WRITE_TAIL_MAX = 1.5;

export function evaluate({ results, cold, scale, realtime, rssPeakMiB, peer, short }: TargetInputs): Target[] {
  const by = (key: string) => results.find((r) => r.key === key);
  const ratio = (key: string, min: number, name: string): Target => {
    const r = by(key);
    const which = r?.baseline === 'write' ? 'write' : 'read';
    if (!r?.ratio) return { name, target: `≥ ${min} × ${which} baseline`, value: 'not run', pass: null };
    return { name, target: `≥ ${min} × ${which} baseline`, value: `${r.ratio.toFixed(2)} × (${fmtInt(r.rps)} req/s)`, pass: r.ratio >= min };
  };
  const statements = (key: string, max: number, name: string): Target => {
    const n = by(key)?.statements;
    if (n === undefined) return { name, target: `≤ ${max} statements per request`, value: 'not counted', pass: null };
    return { name, target: `≤ ${max} statements per request`, value: `${n}`, pass: n <= max };
  };
  const targets: Target[] = [
    ratio('list', 0.75, 'list of 25'),
    ratio('list_populate_all', 0.35, 'populate=*'),
    statements('list_populate_all', 4, 'populate=* statements'),
    ratio('list_populate_nested', 0.4, 'nested populate'),
    ratio('find_one', 0.7, 'get one'),
    // The page, then one UNION of level 1 (category, author, tags, the zone's kinds) on SQLite; and the grants' check.
    statements('graphql_nested', 4, 'GraphQL nested list statements'),
    ratio('create', 0.5, 'create with relations'),
    statements('create', 12, 'create statements'),
    ratio('update_connect', 0.4, 'update with a positioned connect'),
  ];
  for (const key of ['create', 'update_connect']) {
    const r = by(key);
    if (!r) continue;
    const tail = r.p99Ms / r.p50Ms;
    targets.push({
      name: `${key} p99`,
      target: `≤ ${WRITE_TAIL_MAX} × p50 (no checkpoint stall)`,
      value: `${fmtMs(r.p99Ms)} = ${tail.toFixed(2)} × p50`,
      pass: Number.isFinite(tail) ? tail <= WRITE_TAIL_MAX : null,
    });
  }
  targets.push({ name: 'RSS under load', target: '< 80 MiB', value: `${rssPeakMiB} MiB peak`, pass: rssPeakMiB < 80 });
  targets.push({ name: 'cold start', target: '< 100 ms', value: `${fmtMs(cold.healthMedianMs)} (median of ${cold.runs})`, pass: cold.healthMedianMs < 100 });

  if (peer.ran) {
    for (const r of results) {
      targets.push({
        name: `${r.key} vs Strapi`,
        target: `≥ ${peerBar(r.key)} × Strapi`,
        value:
          r.peerRatio === undefined
            ? r.peer
              ? 'no Strapi request completed'
              : 'peer not measured'
            : `${r.peerRatio.toFixed(1)} × (${fmtInt(r.peer!.rps)} req/s)`,
        pass: r.peerRatio === undefined ? null : r.peerRatio >= peerBar(r.key),
      });
    }
  } else {
    targets.push({
      name: 'Folio / Strapi',
      target: `≥ ${PEER_MIN_RATIO} × on every scenario`,
      value: 'not run',
      pass: null,
      note: peer.why ?? 'no --peer strapi',
    });
  }

  targets.push(...realtimeTargets(realtime ?? null, short));
  targets.push(...scaleTargets(scale, short));
  for (const r of results) {
    // A run in which no request finished (a machine too busy for the duration) measured nothing.
    if (r.requests === 0) targets.push({ name: `${r.key} answers`, target: 'requests complete', value: `none completed in ${r.seconds} s`, pass: false });
    if (r.peer && r.peer.rps === 0) targets.push({ name: `${r.key} answers (Strapi)`, target: 'requests complete', value: 'none completed', pass: false });
    if (r.non2xx || r.errors)
      targets.push({ name: `${r.key} answers`, target: 'no errors', value: `${r.non2xx} non-2xx, ${r.errors} socket errors`, pass: false });
    if (r.peer && (r.peer.non2xx || r.peer.errors)) {
      targets.push({ name: `${r.key} answers (Strapi)`, target: 'no errors', value: `${r.peer.non2xx} non-2xx, ${r.peer.errors} socket errors`, pass: false });
    }
  }
  return targets;
}

/** The realtime bars are set for 10,000 subscribers: fewer are reported but not judged. */
export const REALTIME_STREAMS = 10_000;
/** The list's p99 with the streams open, over its p99 before: "unchanged", within a run's noise. */
export const REALTIME_P99_MAX = 1.25;

function realtimeTargets(r: RealtimeResult | null, short: boolean): Target[] {
  const names = [
    `${fmtInt(REALTIME_STREAMS)} idle streams: server RSS`,
    `${fmtInt(REALTIME_STREAMS)} streams: an event to all`,
    `${fmtInt(REALTIME_STREAMS)} streams: list p99`,
  ];
  const bars = ['< 200 MiB', '≤ 1 s', `≤ ${REALTIME_P99_MAX} × p99 without them`];
  if (!r) return names.map((name, i) => ({ name, target: bars[i]!, value: 'not run', pass: null, note: short ? 'skipped' : '--realtime 0' }));
  const full = r.opened >= REALTIME_STREAMS;
  const note = full ? undefined : `measured with ${fmtInt(r.opened)} streams`;
  const worst = Math.max(...r.deliveries.map((d) => d.ms));
  const everyone = r.deliveries.every((d) => d.got === r.opened);
  const tail = r.listDuring.p99Ms / r.listBefore.p99Ms;
  const judged = (pass: boolean) => (full ? pass : null);
  return [
    { name: names[0]!, target: bars[0]!, value: `${r.rssIdleMiB} MiB`, pass: judged(r.rssIdleMiB < 200), ...(note ? { note } : {}) },
    {
      name: names[1]!,
      target: bars[1]!,
      value: everyone ? `${fmtMs(worst)} (worst of ${r.deliveries.length})` : `not every stream got it (${r.deliveries.map((d) => d.got).join(', ')})`,
      pass: judged(everyone && worst <= 1000),
      ...(note ? { note } : {}),
    },
    {
      name: names[2]!,
      target: bars[2]!,
      value: `${fmtMs(r.listDuring.p99Ms)} = ${tail.toFixed(2)} × ${fmtMs(r.listBefore.p99Ms)}`,
      pass: judged(tail <= REALTIME_P99_MAX),
      ...(note ? { note } : {}),
    },
  ];
}

const MILLION = 1_000_000;

/** The scale bars are set for a million articles: a smaller set is reported but not judged. */
function scaleTargets(scale: ScaleResult | null, short: boolean): Target[] {
  const rows: [name: string, bar: string, key: string | null, limitMs: number][] = [
    ['filtered + sorted page p50', '< 10 ms', 'scale_filter_sort', 10],
    ['deep page (5,000 of 25) p50', '< 10 ms', 'scale_deep_page', 10],
    ['first list after a write p50', '< 5 ms', 'scale_list_after_write', 5],
    ['_q search p50', '< 20 ms', 'scale_search', 20],
  ];
  if (!scale) {
    const note = short ? 'skipped in --short' : '--scale 0';
    return [
      ...rows.map(([name, bar]) => ({ name: `1M articles: ${name}`, target: bar, value: 'not run', pass: null, note })),
      { name: 'folio import', target: '≥ 10,000 articles/s', value: 'not run', pass: null, note },
    ];
  }
  const full = scale.articles >= MILLION;
  const note = full ? undefined : `measured at ${fmtInt(scale.articles)} articles, not 1,000,000`;
  const out: Target[] = rows.map(([name, bar, key, limit]) => {
    const s = scale.scenarios.find((r) => r.key === key);
    if (!s) return { name: `${fmtInt(scale.articles)} articles: ${name}`, target: bar, value: 'not measured', pass: null };
    return {
      name: `${fmtInt(scale.articles)} articles: ${name}`,
      target: `${bar} (at 1,000,000)`,
      value: fmtMs(s.p50Ms),
      pass: full ? s.p50Ms < limit : null,
      ...(note ? { note } : {}),
    };
  });
  out.push({
    name: 'folio import',
    target: '≥ 10,000 articles/s',
    value: `${fmtInt(scale.import.perSecond)} articles/s`,
    pass: full ? scale.import.perSecond >= 10_000 : null,
    ...(note ? { note } : {}),
  });
  return out;
}
