/**
 * Which trigrams of a `_q` search PostgreSQL's pg_trgm indexes should look up (issue #21).
 *
 * A GIN trigram index answers `LIKE '%article 4242%'` by intersecting the posting lists of
 * every trigram of the pattern, and it reads each list whole: when most of them are in nearly
 * every row ("art", "rti", "cle" in a million "Bench article N" titles), one lookup reads
 * thousands of pages (~100 ms) although the answer is a hundred rows. Looking up only the two
 * rarest trigrams (`LIKE '%424%' AND LIKE '%242%'`, one index scan with two entries) reads a
 * few pages; the exact condition (the folded text contains the folded search) is then checked
 * on the rows found, so the answer is the same.
 *
 * Rarity comes from a sample: a few thousand rows of the table's searched columns (pages picked
 * by TABLESAMPLE SYSTEM, so the cost does not grow with the table), folded as the index folds
 * them, counted per trigram. Samples are taken in the background and refreshed now and then; a
 * search that finds no sample yet uses every trigram, as before. Small tables are never sampled:
 * their index is cheap to read whole.
 */
import type { Database } from './database';
import { sql } from './sql';

/** Rows read per sample. */
const SAMPLE_ROWS = 4000;
/** Below this many rows a table is not sampled: reading its whole index is cheap. */
const MIN_ROWS = 20_000;
/** A sample is taken again after this long (frequencies drift slowly). */
const SAMPLE_TTL_MS = 10 * 60_000;
/** Trigrams kept per sample (the most frequent: the rest count as rare). */
const MAX_GRAMS = 20_000;
/** Tables whose samples are kept at once. */
const MAX_TABLES = 64;

/** A sample's document frequencies: trigram → rows of the sample that hold it. */
export interface GramFrequencies {
  rows: number;
  counts: ReadonlyMap<string, number>;
}

/** A trigram in fewer than this share of rows is rare: worth a second lookup to narrow the rows. */
const RARE_SHARE = 0.02;
/** How long the first search of a table waits for its sample (a page-level sample takes a few ms). */
const FIRST_SAMPLE_WAIT_MS = 500;

// Three word characters (pg_trgm's t_isalnum) make one of the index's own entries, and a LIKE
// pattern of exactly those three looks that entry up alone. Only ASCII letters and digits are
// chosen: the search is folded here by JS and in the database by ICU, and for these two the
// foldings cannot disagree, so a chosen trigram is always in the database's folded search.
const WORD_RUN = /[a-z0-9]{3,}/g;

/** The distinct three-character runs of ASCII letters and digits in `text` (already folded). */
export function wordTrigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const match of text.matchAll(WORD_RUN)) {
    const chars = [...match[0]];
    for (let i = 0; i + 3 <= chars.length; i++) out.add(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  }
  return out;
}

/**
 * The trigrams of a folded search for the index to look up: the rarest one, and the next ones
 * (up to `count`) while they are rare too (a common one would make the index read its whole
 * list for nothing). Undefined when the search has no such trigram (shorter runs, other
 * scripts): then every trigram of the pattern is looked up, as without a sample.
 */
export function rarestTrigrams(folded: string, frequencies: GramFrequencies, count = 2): string[] | undefined {
  const grams = [...wordTrigrams(folded)]
    .map((gram, order) => ({ gram, order, n: frequencies.counts.get(gram) ?? 0 }))
    .sort((a, b) => a.n - b.n || a.order - b.order);
  if (grams.length === 0) return undefined;
  const rare = Math.max(1, frequencies.rows * RARE_SHARE);
  return grams.filter((g, i) => i === 0 || (i < count && g.n < rare)).map((g) => g.gram);
}

/** Counts trigram document frequencies over sampled rows, keeping the `max` most frequent. */
export function countTrigrams(rows: Iterable<readonly (string | null)[]>, max = MAX_GRAMS): GramFrequencies {
  const counts = new Map<string, number>();
  let n = 0;
  for (const row of rows) {
    n++;
    const seen = new Set<string>();
    for (const text of row) if (text) for (const gram of wordTrigrams(text)) seen.add(gram);
    for (const gram of seen) counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  if (counts.size <= max) return { rows: n, counts };
  return { rows: n, counts: new Map([...counts].sort((a, b) => b[1] - a[1]).slice(0, max)) };
}

interface Sample {
  takenAt: number;
  frequencies: GramFrequencies;
}

/** The samples of one installation (PostgreSQL only), bounded in tables and trigrams. */
export class SearchGramSamples {
  private samples = new Map<string, Sample | null>();
  private running = new Map<string, Promise<void>>();

  constructor(
    private db: Database,
    private now: () => number = Date.now,
  ) {}

  /**
   * The frequencies for `table`'s searched `columns`, or undefined when there is none (a table
   * too small to need one, or a sample still under way after a short wait). A stale sample is
   * used while a new one is taken in the background.
   */
  async frequencies(table: string, columns: readonly string[], waitMs = FIRST_SAMPLE_WAIT_MS): Promise<GramFrequencies | undefined> {
    const key = `${table}\0${columns.join('\0')}`;
    const sample = this.samples.get(key);
    const stale = sample === undefined || (sample !== null && this.now() - sample.takenAt > SAMPLE_TTL_MS);
    let running = this.running.get(key);
    if (stale && !running) {
      running = this.take(table, columns)
        .then(
          (taken) => this.keep(key, taken),
          () => this.keep(key, null),
        )
        .finally(() => this.running.delete(key));
      this.running.set(key, running);
    }
    if (sample !== undefined) return sample?.frequencies;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([running, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    return this.samples.get(key)?.frequencies;
  }

  /** Waits for the samples under way (tests). */
  async settled(): Promise<void> {
    await Promise.all(this.running.values());
  }

  private keep(key: string, sample: Sample | null) {
    if (!this.samples.has(key) && this.samples.size >= MAX_TABLES) this.samples.delete(this.samples.keys().next().value!);
    this.samples.set(key, sample);
  }

  private async take(table: string, columns: readonly string[]): Promise<Sample | null> {
    const estimate = await this.db.get<{ rows: number }>(
      sql`SELECT CAST(reltuples AS BIGINT) AS ${sql.id('rows')} FROM pg_class WHERE oid = to_regclass(${sql.id(table).toString()})`,
    );
    const rows = Number(estimate?.rows ?? 0);
    if (rows < MIN_ROWS) return null;
    const percent = Math.min(100, (SAMPLE_ROWS * 100) / rows);
    // Folded as the indexes are (db/search-index.ts), each under its own name.
    const folded = sql.join(columns.map((c, i) => sql`${this.db.dialect.lower(sql.id(c))} AS ${sql.id(`c${i}`)}`));
    const found = await this.db.all<Record<string, string | null>>(
      sql`SELECT ${folded} FROM ${sql.id(table)} TABLESAMPLE SYSTEM (${sql.raw(percent.toFixed(4))}) LIMIT ${SAMPLE_ROWS}`,
    );
    return { takenAt: this.now(), frequencies: countTrigrams(found.map((r) => Object.values(r))) };
  }
}
