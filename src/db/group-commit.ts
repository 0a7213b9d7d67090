/**
 * Group commit for SQLite's one writer connection.
 *
 * A commit costs what it writes to the WAL: every page the transaction changed, whole. A
 * create with relations changes ~45 pages (the row and its published copy, a dozen index
 * leaves, the link tables and their indexes, the `_q` index), and a good half of them are
 * the same pages for the next create (the ends of the table, of the id/date indexes and of
 * the link tables). So the writes of one turn of the event loop share one SQLite transaction:
 * each runs alone, in order, inside its own SAVEPOINT (its failure rolls back its work only,
 * exactly as its own transaction would), and the COMMIT runs when the turn ends (setImmediate)
 * or at the MAX_MEMBERS-th write. bun:sqlite is synchronous, so a request's transaction ends
 * before the next request's handler runs: waiting for writers already queued on the lock
 * grouped nothing, waiting for the end of the turn groups the burst. Nobody is answered before
 * the COMMIT that holds their write has succeeded, so what a caller is told is as durable as
 * before; a lone writer waits one turn for its commit.
 *
 * What changes for a caller: a failed COMMIT (disk full, I/O error) fails every member of
 * the group. What does not: writes stay serialised, each sees the ones before it, and reads
 * outside (the reader connection) see a group's writes only once they are all committed.
 */
import type { Database as BunDatabase } from 'bun:sqlite';

/** Members of one group at most: bounds how long the first of them waits for its commit. */
const MAX_MEMBERS = 16;

/** A promise chain used as a mutex: each holder runs after the previous one settles. */
class Lock {
  private tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

/** The open transaction a group shares, and how its members learn that it committed. */
class Group {
  members = 0;
  scheduled = false;
  readonly committed: Promise<void>;
  settle!: (error?: unknown) => void;
  constructor() {
    this.committed = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // Members await it; a group whose only member failed has nobody waiting.
    this.committed.catch(() => {});
  }
}

/**
 * Open groups of this process. Two databases opened on one file in one process (tests, an
 * embedding program) would otherwise deadlock: a BEGIN waiting for the file's write lock blocks
 * the event loop that would run the other's scheduled commit. So a BEGIN commits the others first.
 */
const openGroups = new Set<GroupCommit>();

export class GroupCommit {
  private lock = new Lock();
  private open: Group | undefined;
  /** A member is inside its savepoint (the commit must wait for it). */
  private holding = false;
  /** Successful COMMITs so far. */
  commits = 0;

  /** `onCommit` runs after each successful COMMIT (the change marker's reset). */
  constructor(
    private raw: BunDatabase,
    private onCommit: () => void,
  ) {}

  /** Runs `fn` as one atomic write: alone on the connection, committed before this resolves. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.lock.acquire();
    let group: Group;
    try {
      group = this.open ??= this.begin();
    } catch (error) {
      release();
      throw error;
    }
    group.members++;
    this.holding = true;
    let outcome: { value: T } | { error: unknown };
    try {
      this.raw.run('SAVEPOINT folio_write');
      outcome = { value: await fn() };
      this.raw.run('RELEASE folio_write');
    } catch (error) {
      outcome = { error };
      this.undo(group);
    }
    this.holding = false;
    if (this.open === group) {
      if (group.members >= MAX_MEMBERS) this.commit(group);
      else this.scheduleCommit(group);
    }
    release();
    if ('error' in outcome) throw outcome.error;
    await group.committed;
    return outcome.value;
  }

  /**
   * Commits at the end of this turn of the event loop, when the requests read in it have
   * written: they join the group meanwhile. A writer still in its transaction then (awaiting
   * something) schedules again when it is done. Nobody can be queued on the lock without
   * holding it by then: a released lock passes to the next writer in microtasks, which all
   * run before this callback.
   */
  private scheduleCommit(group: Group) {
    if (group.scheduled) return;
    group.scheduled = true;
    setImmediate(() => {
      group.scheduled = false;
      if (this.open === group && !this.holding) this.commit(group);
    });
  }

  /** Commits the open group now if nobody is inside it (closing the database must not drop answered-for writes). */
  flush() {
    if (this.open && !this.holding) this.commit(this.open);
  }

  private begin(): Group {
    for (const other of openGroups) if (other !== this) other.flush();
    this.raw.run('BEGIN IMMEDIATE');
    openGroups.add(this);
    return new Group();
  }

  /** Rolls back the failed member's work; if SQLite already rolled back the whole transaction, the group fails. */
  private undo(group: Group) {
    if (this.raw.inTransaction) {
      try {
        this.raw.run('ROLLBACK TO folio_write');
        this.raw.run('RELEASE folio_write');
        return;
      } catch {
        // Fall through: the transaction cannot be trusted any more.
      }
    }
    this.abandon(group, new Error('The write transaction was rolled back by the database; nothing in it was saved.'));
  }

  private commit(group: Group) {
    this.open = undefined;
    openGroups.delete(this);
    try {
      this.raw.run('COMMIT');
    } catch (error) {
      this.abandon(group, error);
      return;
    }
    this.commits++;
    this.onCommit();
    group.settle();
  }

  private abandon(group: Group, error: unknown) {
    if (this.open === group) {
      this.open = undefined;
      openGroups.delete(this);
    }
    try {
      if (this.raw.inTransaction) this.raw.run('ROLLBACK');
    } catch {
      // Nothing more to undo.
    }
    group.settle(error);
  }
}
