/**
 * Archives are input, and a small one can expand into gigabytes (issue #35, points 8 and 9):
 * a manifest.json, a secrets.json or a `strapi export`'s metadata.json larger than its limit,
 * and a JSON Lines line longer than the line limit (a Folio table, a Strapi entities file),
 * are refused with an error naming the entry (and the line) and the limit, exit 1, nothing
 * written; the process never holds much more than the limit (its peak RSS, read from
 * /proc while it runs, stays far below the size of what the archive expands to).
 */
import { describe, expect, it } from 'bun:test';
import { createReadStream, createWriteStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import * as tar from 'tar-stream';
import { cliCommand, cliOutput, cliSpawnOptions, tempDir, type CliOptions } from '../helpers/spawn';
import { scratchInstallations } from '../helpers/installations';
import { queryOnce } from '../helpers/postgres';

const SLOW = 120_000;
const MiB = 1024 * 1024;
/** The limits as docs/deploy.md documents them (src/transfer/archive.ts ENTRY_LIMITS, lines.ts LINE_LIMIT). */
const ENTRY_LIMITS = { manifest: 4 * MiB, secrets: 64 * 1024, strapiMetadata: 1 * MiB };
const LINE_LIMIT = 64 * MiB;
const { installation } = scratchInstallations({ name: 'folio_archive_limits', absentDataDir: true });

/** An entry of a test archive: small text, or `size` bytes of `fill` after a `head` (what makes a bomb). */
type Entry = { name: string; text: string } | { name: string; head: string; size: number; fill: string };

/** Writes a tar.gz of `entries`, streaming big ones a MiB at a time (gzip shrinks them to almost nothing). */
async function writeArchive(path: string, entries: Entry[]): Promise<string> {
  const pack = tar.pack();
  const done = pipeline(pack, createGzip({ level: 1 }), createWriteStream(path));
  for (const entry of entries) {
    if ('text' in entry) {
      await new Promise<void>((resolve, reject) => pack.entry({ name: entry.name }, entry.text, (e) => (e ? reject(e) : resolve())));
      continue;
    }
    const stream = pack.entry({ name: entry.name, size: entry.size });
    const head = Buffer.from(entry.head);
    const block = Buffer.alloc(MiB, entry.fill);
    let left = entry.size - head.length;
    const more = (chunk: Buffer) => (stream.write(chunk) ? Promise.resolve() : new Promise<void>((r) => stream.once('drain', () => r())));
    await more(head);
    while (left > 0) {
      const chunk = left >= block.length ? block : block.subarray(0, left);
      left -= chunk.length;
      await more(chunk);
    }
    await new Promise<void>((resolve, reject) => stream.end((e?: Error | null) => (e ? reject(e) : resolve())));
  }
  pack.finalize();
  await done;
  return path;
}

/** Runs a command as a child process, sampling its peak resident memory (VmHWM) until it exits. */
async function runMeasured(args: string[], options: CliOptions): Promise<{ code: number; stdout: string; stderr: string; peakMiB: number }> {
  const proc = Bun.spawn(cliCommand(args, options), { ...cliSpawnOptions(options), stdout: 'pipe', stderr: 'pipe' });
  let peak = 0;
  const sample = () => {
    try {
      const kib = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kib / 1024);
    } catch {
      // Gone (or no /proc): the last sample stands.
    }
  };
  const timer = setInterval(sample, 10);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearInterval(timer);
  return { code, stdout, stderr, peakMiB: peak };
}

/** A real export of a new installation, its entries as text (small): the base the bombs are built on. */
async function exportEntries(): Promise<{ name: string; text: string }[]> {
  const source: CliOptions = { data: tempDir('folio-limits-src-') };
  cliOutput(['token', 'create', '--name', 'source', '--type', 'read-only'], source);
  const file = join(tempDir('folio-limits-export-'), 'export.tar.gz');
  cliOutput(['export', file], source);
  const entries: { name: string; text: string }[] = [];
  const extract = tar.extract();
  const reading = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      entries.push({ name: entry.header.name, text: Buffer.concat(chunks).toString('utf8') });
    }
  })();
  await pipeline(createReadStream(file), createGunzip(), extract);
  await reading;
  return entries;
}

/** Nothing of the target was made: no data dir (SQLite), and on PostgreSQL not one table. */
async function expectNothingWritten(target: CliOptions) {
  expect(existsSync(target.data!) ? readdirSync(target.data!) : []).toEqual([]);
  if (target.database) {
    const tables = await queryOnce<{ n: number }>(target.database, "SELECT COUNT(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables[0]!.n).toBe(0);
  }
}

/** Far below what the archive expands to (hundreds of MiB), far above Folio's own footprint plus the limit. */
const PEAK_MIB = 320;

describe('folio import of a Folio archive', () => {
  it(
    `refuses a manifest.json over ${ENTRY_LIMITS.manifest / MiB} MiB (256 MiB compressed into a small archive) before reading it`,
    async () => {
      const archive = await writeArchive(join(tempDir('folio-bomb-'), 'bomb.tar.gz'), [
        { name: 'manifest.json', head: '{"format":"folio-archive","pad":"', size: 256 * MiB, fill: ' ' },
      ]);
      const target = await installation();
      const run = await runMeasured(['import', archive], target);
      expect(run.stderr).toBe(`Error: The archive's manifest.json is larger than the ${ENTRY_LIMITS.manifest / MiB} MiB allowed for it\n`);
      expect(run.code).toBe(1);
      expect(run.peakMiB).toBeLessThan(PEAK_MIB);
      await expectNothingWritten(target);
    },
    SLOW,
  );

  it(
    'refuses a secrets.json over its limit, and a table line over the line limit naming the entry and line, with bounded memory',
    async () => {
      const base = await exportEntries();
      const dir = tempDir('folio-bomb-');
      const secretsBomb = await writeArchive(join(dir, 'secrets.tar.gz'), [
        base.find((e) => e.name === 'manifest.json')!,
        { name: 'secrets.json', head: '{"apiTokenSalt":"', size: 64 * MiB, fill: 'a' },
      ]);
      // The tags table's second line is a row longer than the line limit.
      const tables = base.map(
        (e): Entry => (e.name === 'tables/tags.jsonl' ? { name: e.name, head: '\n{"id":1,"name":"', size: LINE_LIMIT + 32 * MiB, fill: 'a' } : e),
      );
      const lineBomb = await writeArchive(join(dir, 'line.tar.gz'), tables);

      const target = await installation();
      const secrets = await runMeasured(['import', secretsBomb], target);
      expect(secrets.stderr).toBe(`Error: The archive's secrets.json is larger than the ${ENTRY_LIMITS.secrets / 1024} KiB allowed for it\n`);
      expect(secrets.code).toBe(1);
      await expectNothingWritten(target);

      const line = await runMeasured(['import', lineBomb], target);
      expect(line.stderr).toBe(`Error: The archive's tables/tags.jsonl line 2 is longer than the ${LINE_LIMIT / MiB} MiB allowed for one line\n`);
      expect(line.code).toBe(1);
      expect(line.peakMiB).toBeLessThan(PEAK_MIB);
      await expectNothingWritten(target);
    },
    SLOW,
  );
});

describe('folio import strapi of a strapi export archive', () => {
  it(
    'refuses a metadata.json over its limit and an entities line over the line limit, naming them, with bounded memory and nothing written',
    async () => {
      const dir = tempDir('folio-strapi-bomb-');
      const metadataBomb = await writeArchive(join(dir, 'metadata.tar.gz'), [
        { name: 'metadata.json', head: '{"strapi":{"version":"5.0.0"},"pad":"', size: 256 * MiB, fill: ' ' },
      ]);
      const lineBomb = await writeArchive(join(dir, 'line.tar.gz'), [
        { name: 'metadata.json', text: '{"createdAt":"2025-01-01T00:00:00.000Z","strapi":{"version":"5.0.0"}}' },
        { name: 'entities/entities_00001.jsonl', head: '{"type":"api::tag.tag","id":1,"data":{"name":"', size: LINE_LIMIT + 32 * MiB, fill: 'a' },
      ]);
      for (const [archive, message] of [
        [metadataBomb, `The archive's metadata.json is larger than the ${ENTRY_LIMITS.strapiMetadata / MiB} MiB allowed for it`],
        [lineBomb, `The archive's entities/entities_00001.jsonl line 1 is longer than the ${LINE_LIMIT / MiB} MiB allowed for one line`],
      ] as const) {
        const base = tempDir('folio-strapi-bomb-target-');
        const target: CliOptions = { data: join(base, 'data'), contentTypes: join(base, 'content-types') };
        const run = await runMeasured(['import', 'strapi', archive], target);
        expect(run.stderr).toBe(`Error: ${archive}: ${message}\nNothing was imported.\n`);
        expect(run.code).toBe(1);
        expect(run.peakMiB).toBeLessThan(PEAK_MIB);
        expect(readdirSync(base)).toEqual([]);
      }
    },
    SLOW,
  );
});
