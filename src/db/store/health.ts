/** The cheapest question a database can answer: whether it answers at all (`GET /_health`). */
import type { Queryable } from '../database';
import { sql } from '../sql';

const PING = sql`SELECT 1 AS ok`;

export async function ping(db: Queryable): Promise<void> {
  await db.get(PING);
}
