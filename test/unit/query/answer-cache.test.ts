/**
 * The answer cache's bookkeeping (src/http/answer-cache.ts), with the commit marker in the
 * test's hands: what is kept, what is forgotten, and the byte budget.
 */
import { describe, expect, it } from 'bun:test';
import { AnswerCache } from '../../../src/query/answer-cache';

/** A marker source: `commit()` moves it, as any connection's commit moves SQLite's data_version. */
function markers(start: number | null = 1) {
  const state = { value: start ?? undefined, fresh: 0 };
  return {
    state,
    db: {
      async changeMarker(options?: { fresh?: boolean }) {
        if (options?.fresh) state.fresh++;
        return state.value;
      },
    },
    commit: () => void (state.value = (state.value ?? 0) + 1),
  };
}

const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

describe('AnswerCache', () => {
  it('answers a kept key until the marker moves, then forgets everything', async () => {
    const m = markers();
    const cache = new AnswerCache(m.db, 10_000);
    const miss = await cache.lookup('a');
    expect(miss.bytes).toBeUndefined();
    await cache.remember('a', miss.marker!, bytes(10));
    expect((await cache.lookup('a')).bytes).toEqual(bytes(10));
    m.commit();
    expect((await cache.lookup('a')).bytes).toBeUndefined();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('does not keep an answer when a commit happened while it was built, and reads the marker fresh to know', async () => {
    const m = markers();
    const cache = new AnswerCache(m.db, 10_000);
    const { marker } = await cache.lookup('a');
    m.commit();
    await cache.remember('a', marker!, bytes(10));
    expect(m.state.fresh).toBe(1);
    expect((await cache.lookup('a')).bytes).toBeUndefined();
  });

  it('keeps nothing when the engine has no marker (PostgreSQL) or the budget is 0', async () => {
    const none = new AnswerCache(markers(null).db, 10_000);
    expect(await none.lookup('a')).toEqual({});
    const off = new AnswerCache(markers().db, 0);
    expect(off.enabled).toBe(false);
    expect(await off.lookup('a')).toEqual({});
  });

  it('stays within its byte budget, dropping the least recently used answers first', async () => {
    const m = markers();
    // Each entry: 1,000 bytes + the key's overhead (2 × 1 + 1024).
    const cache = new AnswerCache(m.db, 8 * 2026);
    for (const key of 'abcdefgh') await cache.remember(key, (await cache.lookup(key)).marker!, bytes(1000));
    expect(cache.size.entries).toBe(8);
    await cache.lookup('a'); // used again: now the most recent
    await cache.remember('i', (await cache.lookup('i')).marker!, bytes(1000));
    expect(cache.size.entries).toBe(8);
    expect(cache.size.bytes).toBeLessThanOrEqual(8 * 2026);
    expect((await cache.lookup('b')).bytes).toBeUndefined();
    expect((await cache.lookup('a')).bytes).toBeDefined();
    expect((await cache.lookup('i')).bytes).toBeDefined();
  });

  it('does not keep an answer larger than an eighth of the budget', async () => {
    const cache = new AnswerCache(markers().db, 16000);
    await cache.remember('big', (await cache.lookup('big')).marker!, bytes(2001));
    expect(cache.size.entries).toBe(0);
    await cache.remember('small', (await cache.lookup('small')).marker!, bytes(900));
    expect(cache.size.entries).toBe(1);
  });

  it('replaces the answer of a key kept twice without counting it twice', async () => {
    const cache = new AnswerCache(markers().db, 10_000);
    for (const fill of [1, 2]) await cache.remember('a', (await cache.lookup('a')).marker!, bytes(100, fill));
    expect(cache.size).toEqual({ entries: 1, bytes: 100 + 2 + 1024 });
    expect((await cache.lookup('a')).bytes).toEqual(bytes(100, 2));
  });
});
