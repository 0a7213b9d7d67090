/**
 * Cron ticks several instances share (migration 0022, project/cron.ts): claiming a task's
 * tick inserts its row, and only the instance whose insert went in runs it.
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const TABLE = sql.id(SYSTEM.cronTicks);

/** Claims `task`'s tick at `tick` (ms) for `runner`: true when this call took it, false when another instance had. */
export async function claimTick(db: Queryable, task: string, tick: number, runner: string): Promise<boolean> {
  const result = await db.run(
    sql`INSERT INTO ${TABLE} (${sql.id('task')}, ${sql.id('tick')}, ${sql.id('runner')}) VALUES (${task}, ${tick}, ${runner}) ON CONFLICT DO NOTHING`,
  );
  return result.changes === 1;
}

/** Forgets ticks before `before` (ms); answers how many went. */
export async function pruneTicks(db: Queryable, before: number): Promise<number> {
  return (await db.run(sql`DELETE FROM ${TABLE} WHERE ${sql.id('tick')} < ${before}`)).changes;
}
