/**
 * bench/targets.ts: the target table evaluated from a run's figures (pure: no
 * server). Each row must say PASS, MISS or n/a for the right reason, since the lead reads
 * the full run's verdict from it.
 */
import { describe, expect, it } from 'bun:test';
import type { ColdStart } from '../../bench/processes';
import type { ScenarioResult } from '../../bench/scenarios';
import { evaluate, type Target } from '../../bench/targets';

const cold: ColdStart = { runs: 10, healthMs: [], listMs: [], healthMedianMs: 40, listMedianMs: 45 };

function result(key: string, fields: Partial<ScenarioResult>): ScenarioResult {
  return {
    key,
    label: key,
    method: 'GET',
    path: '/api/articles',
    requests: 1000,
    seconds: 1,
    rps: 1000,
    p50Ms: 10,
    p99Ms: 12,
    non2xx: 0,
    errors: 0,
    rssBeforeMiB: 50,
    rssAfterMiB: 60,
    rssPeakMiB: 60,
    ...fields,
  };
}

const results = [
  result('list', { ratio: 0.8, baseline: 'read', statements: 2 }),
  result('list_populate_all', { ratio: 0.3, baseline: 'read', statements: 5 }),
  result('list_populate_nested', { ratio: 0.4, baseline: 'read', statements: 4 }),
  result('find_one', { ratio: 1.1, baseline: 'read', statements: 2 }),
  result('create', { method: 'POST', ratio: 0.6, baseline: 'write', statements: 12, p50Ms: 100, p99Ms: 140 }),
  result('update_connect', { method: 'PUT', ratio: 0.2, baseline: 'write', statements: 30, p50Ms: 100, p99Ms: 400 }),
];
const row = (targets: Target[], name: string) => targets.find((t) => t.name === name)!;

describe('bench targets', () => {
  it('marks ratios to the read or write baseline and statement counts against the bars of issue 21', () => {
    const targets = evaluate({ results, cold, scale: null, rssPeakMiB: 79, peer: { ran: false, why: 'no --peer strapi' }, short: true });
    expect(row(targets, 'list of 25')).toMatchObject({ target: '≥ 0.75 × read baseline', pass: true });
    expect(row(targets, 'populate=*')).toMatchObject({ target: '≥ 0.35 × read baseline', pass: false });
    expect(row(targets, 'populate=* statements')).toMatchObject({ value: '5', pass: false });
    expect(row(targets, 'nested populate').pass).toBe(true);
    expect(row(targets, 'create with relations')).toMatchObject({ target: '≥ 0.5 × write baseline', pass: true });
    expect(row(targets, 'create statements')).toMatchObject({ value: '12', pass: true });
    expect(row(targets, 'update with a positioned connect')).toMatchObject({ target: '≥ 0.4 × write baseline', pass: false });
    expect(row(targets, 'create p99').pass).toBe(true);
    expect(row(targets, 'update_connect p99').pass).toBe(false);
    expect(row(targets, 'RSS under load').pass).toBe(true);
  });

  it('says n/a, with the reason, for the peer and the scale rows a run did not measure', () => {
    const targets = evaluate({ results, cold, scale: null, rssPeakMiB: 90, peer: { ran: false, why: 'Strapi is not installed' }, short: false });
    expect(row(targets, 'Folio / Strapi')).toMatchObject({ pass: null, note: 'Strapi is not installed' });
    expect(row(targets, 'folio import')).toMatchObject({ pass: null, note: '--scale 0' });
    expect(row(targets, 'RSS under load').pass).toBe(false);
  });

  it('judges every scenario against 40 × Strapi when the peer ran', () => {
    const withPeer = results.map((r) => ({
      ...r,
      peer: { rps: r.rps / 50, p50Ms: 1, p99Ms: 2, non2xx: 0, errors: 0, rssPeakMiB: 300, path: r.path },
      peerRatio: r.key === 'create' ? 12 : 50,
    }));
    const targets = evaluate({ results: withPeer, cold, scale: null, rssPeakMiB: 70, peer: { ran: true }, short: false });
    expect(row(targets, 'list vs Strapi')).toMatchObject({ target: '≥ 40 × Strapi', pass: true });
    expect(row(targets, 'create vs Strapi').pass).toBe(false);
    expect(targets.some((t) => t.name === 'Folio / Strapi')).toBe(false);
  });

  it('counts a scenario in which no request completed as a miss, not as a figure', () => {
    const stalled = [...results, result('filter_containsi', { requests: 0, rps: 0, ratio: 0, p50Ms: 0, p99Ms: 0 })];
    const targets = evaluate({ results: stalled, cold, scale: null, rssPeakMiB: 70, peer: { ran: false }, short: true });
    expect(row(targets, 'filter_containsi answers')).toMatchObject({ value: 'none completed in 1 s', pass: false });
  });
});
