/** Rows of `folio_admin_views` (migration 0023): one JSON view configuration per content type. */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const VIEWS = sql.id(SYSTEM.adminViews);

export async function listAdminViews(db: Queryable): Promise<{ uid: string; config: string }[]> {
  return db.all<{ uid: string; config: string }>(sql`SELECT "uid", "config" FROM ${VIEWS} ORDER BY "uid"`);
}

/** Writes a type's configuration, replacing any. */
export async function putAdminView(db: Queryable, uid: string, config: string, now: string): Promise<void> {
  await db.run(sql`DELETE FROM ${VIEWS} WHERE "uid" = ${uid}`);
  await db.run(sql`INSERT INTO ${VIEWS} ("uid", "config", "updatedAt") VALUES (${uid}, ${config}, ${now})`);
}

export async function deleteAdminView(db: Queryable, uid: string): Promise<boolean> {
  return (await db.run(sql`DELETE FROM ${VIEWS} WHERE "uid" = ${uid}`)).changes > 0;
}
