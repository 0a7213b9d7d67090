/**
 * Refresh-token sessions of end users (users-permissions `jwtManagement: 'refresh'`, Strapi
 * 5.54's session manager for the `users-permissions` origin). A login opens a session and
 * answers two JWTs signed with the installation's secret (HS256), shaped as Strapi's:
 * - an access token `{ userId, sessionId, type: 'access', iat, exp }` living
 *   `sessions.accessTokenLifespan` seconds (600), sent as `Authorization: Bearer`;
 * - a refresh token `{ userId, sessionId, type: 'refresh', exp }` valid until the session's
 *   idle expiry; `refresh()` trades it for a new pair (rotation: the old one stops working),
 *   within the idle window (`idleRefreshTokenLifespan`) and the session's absolute one
 *   (`maxRefreshTokenLifespan`, from the login).
 *
 * Sessions live in the database (db/store/user-sessions.ts), so they survive a restart and are
 * shared by instances; only the refresh token's SHA-256 is stored. Where Folio is stricter than
 * Strapi: an access token works only while its session lives, so logout, a password change or
 * blocking the user ends it at once (Strapi lets it run out its ten minutes).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Database } from '../db/database';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsOf,
  findSessionByToken,
  insertSession,
  listSessions,
  rotateSession,
  sessionAlive,
  trimSessionsOf,
} from '../db/store/user-sessions';
import { deviceName } from './device-name';
import type { SessionSettings } from './settings-values';

export interface SessionTokens {
  /** The access JWT. */
  jwt: string;
  refreshToken: string;
  sessionId: string;
}

/** A session as `GET /api/auth/sessions` lists it (Strapi's sanitizeSessionEntry: never a token). */
export interface SessionEntry {
  id: string;
  deviceId: string | null;
  deviceName?: string;
  current: boolean;
  loginAt?: string;
  lastActiveAt: string;
}

/** Sessions one user keeps at most: a new login past it ends the oldest. */
export const MAX_SESSIONS_PER_USER = 100;
/** Every this many new sessions, expired ones are deleted (Strapi's session manager does it every 50). */
const PRUNE_EVERY = 50;
/** Longest `deviceId` kept (a client's own label for itself). */
const DEVICE_ID_MAX = 256;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const newSessionId = () => randomBytes(16).toString('hex');

export class Sessions {
  /** The clock, in ms since the epoch; tests move it to cross lifespans without waiting. */
  now: () => number = Date.now;
  private key: Uint8Array;
  private created = 0;

  constructor(
    private db: Database,
    secret: string,
    private settings: SessionSettings,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  private lifespans(type: string) {
    return type === 'refresh'
      ? { idle: this.settings.idleRefreshTokenLifespan, max: this.settings.maxRefreshTokenLifespan }
      : { idle: this.settings.idleSessionLifespan, max: this.settings.maxSessionLifespan };
  }

  private refreshToken(userId: number, sessionId: string, expiresAt: number): Promise<string> {
    return new SignJWT({ userId: String(userId), sessionId, type: 'refresh' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime(Math.floor(expiresAt / 1000))
      .sign(this.key);
  }

  private accessToken(userId: number, sessionId: string): Promise<string> {
    const now = Math.floor(this.now() / 1000);
    return new SignJWT({ userId: String(userId), sessionId, type: 'access' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + this.settings.accessTokenLifespan)
      .sign(this.key);
  }

  /** The claims of a JWT of this type signed with the installation's secret and not expired. */
  private async claims(token: string, type: 'access' | 'refresh'): Promise<{ userId: number; sessionId: string } | undefined> {
    if (token.length > 4096) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp'], currentDate: new Date(this.now()) });
      const { userId, sessionId } = payload as { userId?: unknown; sessionId?: unknown };
      if (
        payload.type !== type ||
        typeof userId !== 'string' ||
        !/^\d{1,15}$/.test(userId) ||
        typeof sessionId !== 'string' ||
        !/^[0-9a-f]{32}$/.test(sessionId)
      ) {
        return undefined;
      }
      return { userId: Number(userId), sessionId };
    } catch {
      return undefined;
    }
  }

  /**
   * Opens a session for a user and answers its first tokens. `deviceId` is the client's own
   * label (Strapi's body `deviceId`); the User-Agent gives the device's name for the list.
   */
  async create(
    userId: number,
    options: {
      deviceId?: string;
      userAgent?: string | null;
      type?: 'refresh' | 'session' /** Record the login's time and device name (not after a password change, as Strapi). */;
      metadata?: boolean;
    } = {},
  ): Promise<SessionTokens> {
    const type = options.type ?? 'refresh';
    const { idle, max } = this.lifespans(type);
    const now = this.now();
    const sessionId = newSessionId();
    const expiresAt = now + idle * 1000;
    const refreshToken = await this.refreshToken(userId, sessionId, expiresAt);
    const at = new Date(now).toISOString();
    await this.db.transaction(async (tx) => {
      if (++this.created % PRUNE_EVERY === 0) await deleteExpiredSessions(tx, now);
      await insertSession(tx, {
        sessionId,
        tokenHash: sha256(refreshToken),
        userId,
        deviceId: options.deviceId ?? null,
        type,
        deviceName: options.metadata === false ? null : (deviceName(options.userAgent) ?? null),
        loginAt: options.metadata === false ? null : at,
        createdAt: at,
        expiresAt,
        absoluteExpiresAt: now + max * 1000,
      });
      await trimSessionsOf(tx, userId, MAX_SESSIONS_PER_USER);
    });
    return { jwt: await this.accessToken(userId, sessionId), refreshToken, sessionId };
  }

  /** The live session a refresh token opens (its signature, type, expiry and stored hash all checked). */
  async ofRefreshToken(token: string): Promise<{ userId: number; sessionId: string } | undefined> {
    const claims = await this.claims(token, 'refresh');
    if (!claims) return undefined;
    const row = await findSessionByToken(this.db, sha256(token), this.now());
    return row && row.userId === claims.userId && row.sessionId === claims.sessionId ? claims : undefined;
  }

  /**
   * `POST /api/auth/refresh`: a new access token and a new refresh token for a live one; the
   * one given stops working. Undefined for anything else (unknown, rotated, expired, revoked).
   */
  async refresh(token: string): Promise<SessionTokens | undefined> {
    const claims = await this.claims(token, 'refresh');
    if (!claims) return undefined;
    const now = this.now();
    const row = await findSessionByToken(this.db, sha256(token), now);
    if (!row || row.userId !== claims.userId || row.sessionId !== claims.sessionId) return undefined;
    const sessionId = newSessionId();
    const expiresAt = now + this.lifespans(row.type).idle * 1000;
    const refreshToken = await this.refreshToken(row.userId, sessionId, expiresAt);
    const to = { sessionId, tokenHash: sha256(refreshToken), createdAt: new Date(now).toISOString(), expiresAt };
    const rotated = await this.db.transaction((tx) => rotateSession(tx, { sessionId: row.sessionId, tokenHash: row.tokenHash }, to, now));
    if (!rotated) return undefined;
    return { jwt: await this.accessToken(row.userId, sessionId), refreshToken, sessionId };
  }

  /** The user and session of an access token, while that session lives. */
  async verifyAccess(token: string): Promise<{ userId: number; sessionId: string } | undefined> {
    const claims = await this.claims(token, 'access');
    if (!claims) return undefined;
    return (await sessionAlive(this.db, claims.userId, claims.sessionId, this.now())) ? claims : undefined;
  }

  /** A user's live sessions: the current one first, then the most recently used. */
  async list(userId: number, currentSessionId?: string): Promise<SessionEntry[]> {
    const entries = (await listSessions(this.db, userId, this.now())).map(
      (row): SessionEntry => ({
        id: row.sessionId,
        deviceId: row.deviceId,
        ...(row.deviceName ? { deviceName: row.deviceName } : {}),
        current: currentSessionId !== undefined && (row.sessionId === currentSessionId || row.previousSessionId === currentSessionId),
        ...(row.loginAt ? { loginAt: row.loginAt } : {}),
        lastActiveAt: row.createdAt,
      }),
    );
    return [...entries.filter((e) => e.current), ...entries.filter((e) => !e.current)];
  }

  /** Ends one of a user's sessions; false when the user has none with that id. */
  revoke(userId: number, sessionId: string): Promise<boolean> {
    return this.db.transaction((tx) => deleteSession(tx, userId, sessionId));
  }

  /** Ends every session of a user, or those of one device. */
  revokeAll(userId: number, deviceId?: string): Promise<void> {
    return this.db.transaction((tx) => deleteSessionsOf(tx, userId, deviceId));
  }
}

/** A `deviceId` as Strapi reads it from a body: a non-empty string (kept to 256 characters, NUL refused: the databases cannot hold it), or none. */
export const deviceIdOf = (body: Record<string, unknown> | undefined): string | undefined =>
  typeof body?.deviceId === 'string' && body.deviceId.length > 0 && !body.deviceId.includes('\0') ? body.deviceId.slice(0, DEVICE_ID_MAX) : undefined;

/** Session ids are 32 hex characters; anything else names no session (and never reaches a query). */
export const isSessionId = (value: string) => /^[0-9a-f]{32}$/.test(value);

/** Register and password changes open a session under the client's device id, or a new one. */
export const deviceIdOrNew = (body: Record<string, unknown> | undefined): string => deviceIdOf(body) ?? randomUUID();
