/**
 * Rows of `folio_user_sessions` (migration 0014): end users' refresh-token sessions. Tokens,
 * lifespans and who may do what are auth/sessions.ts's business; times are milliseconds.
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const SESSIONS = sql.id(SYSTEM.userSessions);

export interface SessionRow {
  id: number;
  sessionId: string;
  previousSessionId: string | null;
  tokenHash: string;
  userId: number;
  deviceId: string | null;
  type: string;
  deviceName: string | null;
  loginAt: string | null;
  createdAt: string;
  expiresAt: number;
  absoluteExpiresAt: number;
}

/** BIGINT comes back as text from PostgreSQL. */
const row = (r: SessionRow | undefined): SessionRow | undefined =>
  r && { ...r, userId: Number(r.userId), expiresAt: Number(r.expiresAt), absoluteExpiresAt: Number(r.absoluteExpiresAt) };

export type NewSessionRow = Omit<SessionRow, 'id' | 'previousSessionId'>;

export async function insertSession(db: Queryable, s: NewSessionRow): Promise<void> {
  await db.run(sql`INSERT INTO ${SESSIONS} ("sessionId", "tokenHash", "userId", "deviceId", "type", "deviceName", "loginAt", "createdAt", "expiresAt", "absoluteExpiresAt")
    VALUES (${s.sessionId}, ${s.tokenHash}, ${s.userId}, ${s.deviceId}, ${s.type}, ${s.deviceName}, ${s.loginAt}, ${s.createdAt}, ${s.expiresAt}, ${s.absoluteExpiresAt})`);
}

/** The live session whose current refresh token has this hash (idle and absolute expiry still ahead). */
export async function findSessionByToken(db: Queryable, tokenHash: string, now: number): Promise<SessionRow | undefined> {
  return row(
    await db.get<SessionRow>(sql`SELECT * FROM ${SESSIONS} WHERE "tokenHash" = ${tokenHash} AND "expiresAt" > ${now} AND "absoluteExpiresAt" > ${now}`),
  );
}

/**
 * Moves a session to a new token, in one statement that checks the old one is still its
 * current token: of two refreshes with the same token, one rotates and the other finds nothing.
 */
export async function rotateSession(
  db: Queryable,
  from: { sessionId: string; tokenHash: string },
  to: { sessionId: string; tokenHash: string; createdAt: string; expiresAt: number },
  now: number,
): Promise<boolean> {
  const rotated = await db.get(sql`UPDATE ${SESSIONS} SET "sessionId" = ${to.sessionId}, "previousSessionId" = "sessionId", "tokenHash" = ${to.tokenHash},
      "createdAt" = ${to.createdAt}, "expiresAt" = ${to.expiresAt}
    WHERE "sessionId" = ${from.sessionId} AND "tokenHash" = ${from.tokenHash} AND "expiresAt" > ${now} AND "absoluteExpiresAt" > ${now}
    RETURNING "id"`);
  return rotated !== undefined;
}

/** Whether a user's session is alive under this id (its current one, or the one before its last rotation). */
export async function sessionAlive(db: Queryable, userId: number, sessionId: string, now: number): Promise<boolean> {
  return !!(await db.get(sql`SELECT 1 AS x FROM ${SESSIONS}
    WHERE ("sessionId" = ${sessionId} OR "previousSessionId" = ${sessionId}) AND "userId" = ${userId} AND "absoluteExpiresAt" > ${now}`));
}

/** A user's live sessions, newest activity first. */
export async function listSessions(db: Queryable, userId: number, now: number): Promise<SessionRow[]> {
  const rows = await db.all<SessionRow>(sql`SELECT * FROM ${SESSIONS}
    WHERE "userId" = ${userId} AND "expiresAt" > ${now} AND "absoluteExpiresAt" > ${now} ORDER BY "createdAt" DESC, "id" DESC`);
  return rows.map((r) => row(r)!);
}

/** Deletes one session of a user (by its current or previous id); whether there was one. */
export async function deleteSession(db: Queryable, userId: number, sessionId: string): Promise<boolean> {
  return (
    (await db.run(sql`DELETE FROM ${SESSIONS} WHERE "userId" = ${userId} AND ("sessionId" = ${sessionId} OR "previousSessionId" = ${sessionId})`)).changes > 0
  );
}

/** Deletes a user's sessions, or those of one device. */
export async function deleteSessionsOf(db: Queryable, userId: number, deviceId?: string): Promise<void> {
  const device = deviceId === undefined ? sql.empty : sql` AND "deviceId" = ${deviceId}`;
  await db.run(sql`DELETE FROM ${SESSIONS} WHERE "userId" = ${userId}${device}`);
}

/** Deletes every session past its idle or absolute expiry. */
export async function deleteExpiredSessions(db: Queryable, now: number): Promise<void> {
  await db.run(sql`DELETE FROM ${SESSIONS} WHERE "expiresAt" <= ${now} OR "absoluteExpiresAt" <= ${now}`);
}

/** Keeps a user's `keep` most recent sessions and deletes the rest. */
export async function trimSessionsOf(db: Queryable, userId: number, keep: number): Promise<void> {
  await db.run(sql`DELETE FROM ${SESSIONS} WHERE "userId" = ${userId} AND "id" NOT IN (
    SELECT "id" FROM ${SESSIONS} WHERE "userId" = ${userId} ORDER BY "id" DESC LIMIT ${keep})`);
}
