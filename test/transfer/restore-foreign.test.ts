/**
 * A restore or import takes only the archive of a Folio installation (issue #35, point 12): a
 * manifest listing no tables, a backup whose folio.db is some other SQLite file, or a Folio
 * database recording a migration this Folio does not know, is refused with exit 1 and a message
 * saying why, and the target (an installation holding data, even with --force) is left as it
 * was. On the engine under test (a SQLite backup restores into PostgreSQL through `folio copy`'s code).
 */
import { Database } from 'bun:sqlite';
import { describe, expect, it } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ArchiveWriter, entryText, readArchive } from '../../src/transfer/archive';
import { cliOutput, lines, spawnCli, tempDir, type CliOptions } from '../helpers/spawn';
import { scratchInstallations } from '../helpers/installations';

const SLOW = 120_000;
const { installation } = scratchInstallations({ name: 'folio_foreign', absentDataDir: true });

/** A real backup (or export) of a small SQLite installation, its entries as text or files. */
async function realArchive(command: 'backup' | 'export'): Promise<{ name: string; text?: string; file?: string }[]> {
  const source: CliOptions = { data: tempDir('folio-foreign-src-') };
  cliOutput(['token', 'create', '--name', 'source', '--type', 'read-only'], source);
  const dir = tempDir('folio-foreign-archive-');
  const file = join(dir, `${command}.tar.gz`);
  cliOutput([command, file], source);
  const entries: { name: string; text?: string; file?: string }[] = [];
  for await (const entry of readArchive(file)) {
    if (entry.name === 'folio.db') {
      const path = join(dir, 'folio.db');
      await Bun.write(path, new Response(new Blob(await Array.fromAsync(entry.body))));
      entries.push({ name: entry.name, file: path });
    } else entries.push({ name: entry.name, text: await entryText(entry, 1 << 30) });
  }
  return entries;
}

async function writeArchive(entries: { name: string; text?: string; file?: string }[]): Promise<string> {
  const file = join(tempDir('folio-foreign-crafted-'), 'crafted.tar.gz');
  const writer = new ArchiveWriter(file);
  for (const e of entries) await (e.file ? writer.addFile(e.name, e.file) : writer.addText(e.name, e.text!));
  await writer.close();
  return file;
}

/** A SQLite file that is not Folio's: one table of its own. */
function foreignDatabase(): string {
  const path = join(tempDir('folio-foreign-db-'), 'other.db');
  const db = new Database(path);
  db.run('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
  db.run("INSERT INTO notes (body) VALUES ('not Folio')");
  db.close();
  return path;
}

/** What a data dir holds (on PostgreSQL an installation may have none). */
const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

/** Refused with `message`, into an empty target (nothing made) and, with --force, over an installation holding data (kept). */
async function expectRefused(command: 'restore' | 'import', archive: string, message: RegExp) {
  const empty = await installation();
  const refused = await spawnCli([command, archive], empty);
  expect(refused.stderr).toMatch(message);
  expect(refused.code).toBe(1);
  expect(filesIn(empty.data!)).toEqual([]);

  const held = await installation();
  const key = lines(cliOutput(['token', 'create', '--name', 'already-here', '--type', 'read-only'], held)).at(-1)!;
  const files = filesIn(held.data!);
  const forced = await spawnCli([command, archive, '--force'], held);
  expect(forced.stderr).toMatch(message);
  expect(forced.code).toBe(1);
  expect(filesIn(held.data!)).toEqual(files);
  expect(cliOutput(['token', 'list'], held)).toMatch(/already-here/);
  expect(key).toBeTruthy();
}

describe('a foreign archive', () => {
  it(
    'a backup whose manifest lists no tables, with any SQLite file as folio.db, is refused and nothing is replaced',
    async () => {
      const backup = await realArchive('backup');
      const manifest = JSON.parse(backup.find((e) => e.name === 'manifest.json')!.text!);
      const archive = await writeArchive([
        { name: 'manifest.json', text: JSON.stringify({ ...manifest, tables: [] }) },
        { name: 'secrets.json', text: '{}' },
        { name: 'folio.db', file: foreignDatabase() },
      ]);
      await expectRefused('restore', archive, /^Error: The archive's manifest lists no tables: it is not the archive of a Folio installation\n$/);
    },
    SLOW,
  );

  it(
    'a backup whose folio.db is not a Folio installation, or records a migration this Folio does not know, is refused',
    async () => {
      const backup = await realArchive('backup');
      const foreign = await writeArchive(backup.map((e) => (e.name === 'folio.db' ? { name: e.name, file: foreignDatabase() } : e)));
      await expectRefused('restore', foreign, /^Error: The archive's database is not a Folio installation \(it has no folio_migrations table\)\n$/);

      const real = backup.find((e) => e.name === 'folio.db')!.file!;
      const db = new Database(real);
      db.run(`INSERT INTO folio_migrations ("name", "appliedAt") VALUES ('9999_from_elsewhere', '2030-01-01')`);
      db.close();
      const future = await writeArchive(backup);
      await expectRefused('restore', future, /^Error: The archive's database records migration "9999_from_elsewhere", which this Folio does not know/);
    },
    SLOW,
  );

  it(
    'an export whose manifest lists no tables is refused by folio import',
    async () => {
      const exported = await realArchive('export');
      const manifest = JSON.parse(exported.find((e) => e.name === 'manifest.json')!.text!);
      const archive = await writeArchive([
        { name: 'manifest.json', text: JSON.stringify({ ...manifest, tables: [] }) },
        { name: 'secrets.json', text: '{}' },
      ]);
      await expectRefused('import', archive, /^Error: The archive's manifest lists no tables: it is not the archive of a Folio installation\n$/);
    },
    SLOW,
  );
});
