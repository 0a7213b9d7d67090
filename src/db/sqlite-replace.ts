/**
 * Replacing an installation's SQLite file with a new one (`folio restore`, `folio import
 * ARCHIVE`) so that no failure, signal or crash leaves it with neither its old database nor a
 * verified new one.
 *
 * The new database is built beside the old as a work file, `folio.db.importing-<pid>` (or
 * `restoring-`), and so is the new version of each file replaced with it (secrets.json). The
 * swap moves the old files into a folder beside them, `.folio-replaced-<pid>`, first the
 * database's WAL, shared memory and journal, its main file last; the new file takes the name and
 * is checked where it now is; then the other files follow. Until the commit renames that folder
 * to `.folio-discard-<pid>` (the one step that decides) and removes it, the old installation
 * can be put back whole, and `putBack` does it from what is on disk alone, so the same code
 * serves a failure in the process, a signal's handler, and the next process to open the
 * installation after a crash (`recoverReplacements`, for work files whose process is gone).
 * Every step is synchronous: nothing else in the process (a signal's handler included) runs
 * between two of them.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export type WorkKind = 'importing' | 'restoring';
const KINDS: WorkKind[] = ['importing', 'restoring'];

/** The files SQLite keeps beside a database file: its WAL and shared memory, or its rollback journal. */
const COMPANIONS = ['-wal', '-shm', '-journal'];

/** A work file of process `pid` beside `path`. */
export const workPath = (path: string, kind: WorkKind, pid = process.pid) => `${path}.${kind}-${pid}`;
const asideDir = (path: string, pid: number) => join(dirname(path), `.folio-replaced-${pid}`);
const discardDir = (path: string, pid: number) => join(dirname(path), `.folio-discard-${pid}`);
const ABSENT = '.absent';

/** Removes a database file with its companions. */
export function removeDatabaseFiles(path: string): void {
  for (const suffix of ['', ...COMPANIONS]) rmSync(path + suffix, { force: true });
}

function moveIfThere(from: string, to: string): void {
  if (existsSync(from)) renameSync(from, to);
}

/** Makes a file's bytes, or a folder's entries, durable. */
function sync(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function removeEmptyDir(path: string): void {
  try {
    rmdirSync(path);
  } catch {
    // Not empty (another installation's files) or already gone.
  }
}

/**
 * Puts back what a replacement by process `pid` moved aside, and removes its work files. Reads
 * only the disk: with the old database's main file aside (or the marker saying there was none),
 * everything of it was (its companions go first), so whatever carries the name now is the new
 * one; a file replaced with it is new when its old version (or the marker saying there was
 * none) is aside. A replacement already committed has no aside folder beside the database:
 * what is left of it elsewhere goes.
 */
function putBack(database: string, files: string[], pid: number): void {
  const aside = asideDir(database, pid);
  const base = basename(database);
  if (existsSync(aside)) {
    if (existsSync(join(aside, base)) || existsSync(join(aside, base + ABSENT))) removeDatabaseFiles(database);
    for (const suffix of ['', ...COMPANIONS]) moveIfThere(join(aside, base + suffix), database + suffix);
    rmSync(join(aside, base + ABSENT), { force: true });
    for (const file of files) {
      const old = join(asideDir(file, pid), basename(file));
      if (existsSync(old)) {
        rmSync(file, { force: true });
        renameSync(old, file);
      } else if (existsSync(old + ABSENT)) {
        rmSync(file, { force: true });
        rmSync(old + ABSENT);
      }
    }
    for (const dir of new Set([aside, ...files.map((f) => asideDir(f, pid))])) removeEmptyDir(dir);
  } else {
    for (const file of files) if (asideDir(file, pid) !== aside) rmSync(asideDir(file, pid), { recursive: true, force: true });
  }
  rmSync(discardDir(database, pid), { recursive: true, force: true });
  for (const kind of KINDS) {
    removeDatabaseFiles(workPath(database, kind, pid));
    for (const file of files) rmSync(workPath(file, kind, pid), { force: true });
  }
}

/** One replacement of `database` (and `files`, e.g. secrets.json) by this process. */
export class Replacement {
  /** Where the new database is built. */
  readonly next: string;
  private state: 'building' | 'swapped' | 'ended' = 'building';

  constructor(
    readonly database: string,
    private kind: WorkKind,
    /** Other files replaced together with the database (each written first to `nextOf(file)`). */
    private files: string[] = [],
  ) {
    this.next = workPath(database, kind);
  }

  /** Where the new version of one of `files` is written before the swap. */
  nextOf(file: string): string {
    return workPath(file, this.kind);
  }

  /**
   * Moves the old files aside and the new ones into place, running `verify` on the new
   * database where it now is, before the other files follow; anything that throws puts the old
   * installation back (and the error goes on). The new files must be complete: the database
   * one file on its own (SqliteDatabase.closeToOneFile), every other file written.
   */
  swap(verify: (path: string) => void): void {
    if (this.state !== 'building') throw new Error('This replacement has already been swapped or abandoned');
    const pid = process.pid;
    try {
      sync(this.next);
      for (const file of this.files) sync(this.nextOf(file));
      this.state = 'swapped';
      const aside = asideDir(this.database, pid);
      mkdirSync(aside, { recursive: true });
      const base = basename(this.database);
      for (const suffix of COMPANIONS) moveIfThere(this.database + suffix, join(aside, base + suffix));
      if (existsSync(this.database)) renameSync(this.database, join(aside, base));
      else writeFileSync(join(aside, base + ABSENT), '');
      // A lone file has none; any left by an open would be taken for the new file's.
      for (const suffix of COMPANIONS) rmSync(this.next + suffix, { force: true });
      renameSync(this.next, this.database);
      sync(aside);
      sync(dirname(this.database));
      verify(this.database);
      for (const file of this.files) {
        const fileAside = asideDir(file, pid);
        mkdirSync(fileAside, { recursive: true });
        const old = join(fileAside, basename(file));
        if (existsSync(file)) renameSync(file, old);
        else writeFileSync(old + ABSENT, '');
        renameSync(this.nextOf(file), file);
        sync(fileAside);
        sync(dirname(file));
      }
    } catch (error) {
      this.abandon();
      throw error;
    }
  }

  /** Keeps the new installation: the old files go (the folder's rename is the step that decides). */
  commit(): void {
    if (this.state !== 'swapped') throw new Error('Nothing to commit: the replacement was not swapped in');
    const pid = process.pid;
    renameSync(asideDir(this.database, pid), discardDir(this.database, pid));
    sync(dirname(this.database));
    this.state = 'ended';
    try {
      putBack(this.database, this.files, pid);
    } catch {
      // Committed all the same: what could not be removed now goes with the next recovery.
    }
  }

  /** Undoes whatever was done so far and removes the work files; safe at any moment, and more than once. */
  abandon(): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    putBack(this.database, this.files, process.pid);
  }
}

/** Whether process `pid` is running (on this machine). */
export const processAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of someone else's, alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const PIDS = /^(?:\.folio-(?:replaced|discard)-(\d+)|.*\.(?:importing|restoring)-(\d+)(?:-wal|-shm|-journal)?)$/;

/**
 * Finishes what replacements of `database` by processes now gone left behind: an old
 * installation still aside is put back (a replacement that did not commit did not happen),
 * work files are removed. Run before an installation is opened (instance.ts openDatabase) and
 * before a restore or an import starts.
 */
export function recoverReplacements(database: string, files: string[] = []): void {
  const pids = new Set<number>();
  for (const dir of new Set([dirname(database), ...files.map((f) => dirname(f))])) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    const ours = [basename(database), ...files.map((f) => basename(f))];
    for (const name of names) {
      const match = PIDS.exec(name);
      if (!match) continue;
      // Work files of this installation's files only (a folder may hold other things).
      if (match[2] && !ours.some((own) => name.startsWith(`${own}.`))) continue;
      const pid = Number(match[1] ?? match[2]);
      if (pid !== process.pid && !processAlive(pid)) pids.add(pid);
    }
  }
  for (const pid of pids) putBack(database, files, pid);
}
