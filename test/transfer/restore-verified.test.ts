/**
 * A restore or an import of an archive says done only over a database that is whole where it
 * lands (issue #35, point 1): a 120,000-row export imported again and again, each result opened
 * afresh and counted; a SQLite backup of the same installation restored the same way; `--force`
 * over a working installation whose last writes are still in its WAL, failing at the last
 * moment (the new database already in place), leaves the old installation opening with every
 * row; and one import from the compiled binary. SQLite only: the files moved into place are
 * SQLite's (a PostgreSQL target is written in its own transaction).
 *
 *   FOLIO_TRANSFER_RUNS=N   imports of the large export in a row (default 8: one import takes 2–5 s
 *                           on a shared 2-core machine; the 20 in a row pass with N=20, ~100 s)
 */
import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { openInstance } from '../../src/instance';
import { loadRegistry } from '../../src/registry/load';
import { backupInstallation } from '../../src/transfer/backup';
import { exportInstallation, type Source } from '../../src/transfer/export';
import { restoreArchive } from '../../src/transfer/restore';
import { CONTENT_TYPES, buildCommand, cleanEnv, killSpawned, removeTempDirs, ROOT, runCli, serve, tempDir } from '../helpers/spawn';

const RUNS = Number(process.env.FOLIO_TRANSFER_RUNS ?? 8);
const TAGS = 60_000; // each tag is two rows (draft and published): 120,000 rows
const ROWS = 2 * TAGS;

let archives: string;
let exportFile: string;
let backupFile: string;

/** An installation of 60,000 published tags (120,000 rows), written fast through createMany, then exported and backed up. */
beforeAll(async () => {
  archives = tempDir('folio-verified-archives-');
  const config = resolveConfig({ data: join(archives, 'source'), contentTypes: CONTENT_TYPES });
  const instance = await openInstance(config);
  try {
    const tags = instance.registry.contentTypes.find((c) => c.pluralName === 'tags')!;
    for (let at = 0; at < TAGS; at += 1000) {
      await instance.documents.createMany(
        tags,
        Array.from({ length: 1000 }, (_, i) => ({ name: `tag ${at + i} ${'x'.repeat(120)}` })),
      );
    }
    const source: Source = {
      db: instance.db,
      registry: instance.registry,
      secrets: instance.secrets,
      uploadsDir: config.uploadsDir,
      sqliteFile: join(config.dataDir, 'folio.db'),
    };
    exportFile = join(archives, 'export.tar.gz');
    backupFile = join(archives, 'backup.tar.gz');
    await exportInstallation(source, exportFile);
    await backupInstallation(source, backupFile);
  } finally {
    instance.close();
  }
}, 180_000);

afterAll(async () => {
  await killSpawned();
  removeTempDirs();
});

/** Opens the data dir's database afresh, as a user would, and counts what it holds (or says why it cannot). */
function opened(dataDir: string): { tags: number; check: string } | string {
  let db: Database | undefined;
  try {
    db = new Database(join(dataDir, 'folio.db'), { readonly: true });
    const check = (db.query('PRAGMA quick_check').get() as { quick_check: string }).quick_check;
    const tags = (db.query('SELECT COUNT(*) AS n FROM tags').get() as { n: number }).n;
    return { tags, check };
  } catch (error) {
    return String(error);
  } finally {
    db?.close();
  }
}

const restoreInto = (file: string, dataDir: string, options: { force?: boolean; progress?: (line: string) => void } = {}) =>
  restoreArchive(file, {
    config: resolveConfig({ data: dataDir, contentTypes: CONTENT_TYPES }),
    registry: loadRegistry(CONTENT_TYPES),
    force: !!options.force,
    progress: options.progress ?? (() => {}),
  });

describe('a large import or restore that says done', () => {
  it(`imports a ${ROWS.toLocaleString('en-US')}-row export ${RUNS} times in a row, each result whole when opened afresh, with nothing left beside it`, async () => {
    const failures: string[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const dataDir = join(tempDir('folio-verified-'), 'data');
      const report = await restoreInto(exportFile, dataDir);
      expect(report.tables.reduce((n, t) => n + t.rows, 0)).toBeGreaterThanOrEqual(ROWS);
      const result = opened(dataDir);
      const files = readdirSync(dataDir).sort();
      if (typeof result === 'string' || result.tags !== ROWS || result.check !== 'ok' || files.join() !== 'folio.db,secrets.json') {
        failures.push(`run ${run}: ${JSON.stringify(result)}, files ${files.join(' ')}`);
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('restores a SQLite backup of the same installation, whole when opened afresh', async () => {
    for (let run = 1; run <= 3; run++) {
      const dataDir = join(tempDir('folio-verified-'), 'data');
      await restoreInto(backupFile, dataDir);
      expect(opened(dataDir)).toEqual({ tags: ROWS, check: 'ok' });
      expect(readdirSync(dataDir).sort()).toEqual(['folio.db', 'secrets.json']);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('--force over a working installation whose last writes are still in its WAL, failing once the new database is in place, leaves that installation as it was', async () => {
    const dataDir = tempDir('folio-verified-old-');
    const flags = { data: dataDir };
    const granted = runCli(['permissions', 'grant', 'public', 'api::tag.tag.create', 'api::tag.tag.find'], flags);
    expect(granted.code).toBe(0);
    // A server killed without closing: its writes are in folio.db-wal, not yet in folio.db.
    const server = await serve(flags);
    for (let i = 0; i < 30; i++) {
      const res = await server.call('POST', '/api/tags', { body: { data: { name: `old ${i}` } } });
      expect(res.status).toBe(201);
    }
    await server.kill();
    expect(readdirSync(dataDir)).toContain('folio.db-wal');
    const secretsBefore = readFileSync(join(dataDir, 'secrets.json'), 'utf8');

    for (const moment of ['moved the new database into place', 'checked the new database']) {
      let thrown = false;
      const attempt = restoreInto(exportFile, dataDir, {
        force: true,
        progress: (line) => {
          if (line.startsWith(moment)) {
            thrown = true;
            throw new Error(`simulated failure after "${moment}"`);
          }
        },
      });
      await expect(attempt).rejects.toThrow('simulated failure');
      expect(thrown).toBe(true);
      expect(readdirSync(dataDir).filter((f) => /importing|replaced|discard|staging/.test(f))).toEqual([]);
      expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).toBe(secretsBefore);
      expect(opened(dataDir)).toEqual({ tags: 60, check: 'ok' });
    }

    // The installation still serves its own tags; then a --force that succeeds replaces it whole.
    const again = await serve(flags);
    const list = await again.call('GET', '/api/tags?pagination[pageSize]=1');
    expect(list.status).toBe(200);
    expect(list.body.meta.pagination.total).toBe(30);
    await again.stop();
    await restoreInto(exportFile, dataDir, { force: true });
    expect(opened(dataDir)).toEqual({ tags: ROWS, check: 'ok' });
    expect(readdirSync(dataDir).sort()).toEqual(['folio.db', 'secrets.json', 'uploads']);
    expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).not.toBe(secretsBefore);
  }, 120_000);
});

describe('from dist/folio', () => {
  it(`imports the ${ROWS.toLocaleString('en-US')}-row export whole`, () => {
    const buildDir = tempDir('folio-verified-build-');
    const binary = join(buildDir, 'folio');
    const build = Bun.spawnSync(buildCommand(binary), { cwd: ROOT, env: cleanEnv({}, { binary: true }), stdout: 'pipe', stderr: 'pipe' });
    if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`);

    for (const [command, file] of [
      ['import', exportFile],
      ['restore', backupFile],
    ] as const) {
      const dataDir = join(tempDir('folio-verified-bin-'), 'data');
      const run = runCli([command, file], { exe: binary, data: dataDir });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/counts checked\n$/);
      expect(opened(dataDir)).toEqual({ tags: ROWS, check: 'ok' });
      expect(readdirSync(dataDir).sort()).toEqual(['folio.db', 'secrets.json']);
    }
  }, 300_000);
});
