/**
 * Admin accounts and their sessions: the people who log in to /admin. Apart from the API's
 * end users (auth/users.ts) on purpose: an admin session is a cookie that only /admin/api
 * reads, and an API token or user JWT is never looked up here.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database';
import { createDocumentId } from '../documents/document-id';
import {
  countAdminUsers,
  deleteAdminSession,
  deleteExpiredAdminSessions,
  findAdminByEmail,
  findSessionUser,
  insertAdminSession,
  insertAdminUser,
  listAdminUsers,
  type AdminUserRow,
  countAdminsWithRole,
  deleteAdminUser,
  findAdminById,
  setAdminRole,
  consumeAdminReset,
  insertAdminReset,
  setAdminNames,
  setAdminPassword,
} from '../db/store/admin-users';
import { FolioError, ForbiddenError, ValidationError } from '../errors';
import { isEmail, unstorableText } from '../text';
import { BY_SYSTEM, NO_AUDIT, type AuditTrail } from '../audit-trail';
import type { Actor } from '../documents/write/context';

export const ADMIN_ROLES = { 'super-admin': 'Super Admin', editor: 'Editor' } as const;
export type AdminRole = keyof typeof ADMIN_ROLES;

/** What each role may reach: a Super Admin everything, an Editor content and media only. */
export function adminMay(role: string, area: 'content' | 'media' | 'settings'): boolean {
  return role === 'super-admin' || (role === 'editor' && area !== 'settings');
}

export interface AdminUser {
  id: number;
  email: string;
  role: AdminRole;
  /** The admin's own name, from their profile page (null until given). */
  firstname?: string | null;
  lastname?: string | null;
}

/** A session lives this long from login; logging in again starts a new one. */
export const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

// Hashing an over-long password is the cost an attacker would choose; nobody types this much.
const MAX_PASSWORD_LENGTH = 256;
const MIN_PASSWORD_LENGTH = 8;

/** How long a mailed reset link works. */
export const RESET_LIFETIME_MS = 60 * 60 * 1000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** An admin password's rule (8 to 256 characters, storable): the error, or undefined. */
function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH || unstorableText(password)) {
    return `password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`;
  }
  return undefined;
}

function checkPassword(password: unknown): string {
  const text = typeof password === 'string' ? password : '';
  const problem = passwordProblem(text);
  if (problem) throw new ValidationError(problem, { errors: [{ path: ['password'], message: problem }] });
  return text;
}
const publicUser = (row: AdminUserRow): AdminUser => ({
  id: row.id,
  email: row.email,
  role: row.role as AdminRole,
  firstname: row.firstname ?? null,
  lastname: row.lastname ?? null,
});

/** Verified against when the email is unknown, so a wrong email costs the same time as a wrong password. */
let dummyHash: Promise<string> | undefined;

export class AdminAccounts {
  /** Where admin changes, logins and failed logins are recorded (whoever builds this sets the audit log); never a password or a session. */
  audit: AuditTrail = NO_AUDIT;

  constructor(
    private db: Database,
    private now: () => number = Date.now,
  ) {}

  count(): Promise<number> {
    return countAdminUsers(this.db);
  }

  async list(): Promise<AdminUser[]> {
    return (await listAdminUsers(this.db)).map(publicUser);
  }

  /**
   * Creates an admin; every problem with the input is a 400 naming its field. `first`: only
   * while there is none (the first-run form), checked in the write's own (serializable)
   * transaction, so two first-run forms sent at once cannot both succeed.
   */
  async create(input: { email: unknown; password: unknown; role?: unknown }, options: { first?: boolean } = {}, by: Actor = BY_SYSTEM): Promise<AdminUser> {
    const errors: { path: string[]; message: string }[] = [];
    const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
    if (!isEmail(email) || unstorableText(email)) errors.push({ path: ['email'], message: 'email must be a valid email' });
    const password = typeof input.password === 'string' ? input.password : '';
    const problem = passwordProblem(password);
    if (problem) errors.push({ path: ['password'], message: problem });
    const role = input.role ?? 'super-admin';
    if (typeof role !== 'string' || !(role in ADMIN_ROLES)) {
      errors.push({ path: ['role'], message: `role must be one of: ${Object.keys(ADMIN_ROLES).join(', ')}` });
    }
    if (errors.length) throw new ValidationError(errors.length === 1 ? errors[0]!.message : `${errors.length} errors occurred`, { errors });
    const hash = await Bun.password.hash(password);
    const user = await this.db.transaction(async (tx) => {
      if (options.first && (await countAdminUsers(tx)) > 0) throw new ForbiddenError('An admin already exists: log in instead');
      if (await findAdminByEmail(tx, email)) {
        throw new ValidationError('An admin with this email already exists', { errors: [{ path: ['email'], message: 'email is already taken' }] });
      }
      const id = await insertAdminUser(tx, {
        documentId: createDocumentId(),
        email,
        password: hash,
        role: role as string,
        now: new Date(this.now()).toISOString(),
      });
      return { id, email, role: role as AdminRole };
    });
    await this.audit.record({ action: 'admin-user.create', actor: by, type: 'admin-user', details: { id: user.id, email, role: user.role } });
    return user;
  }

  /**
   * Gives an admin another role. Checked in the write's own (serializable) transaction: the
   * last Super Admin cannot become an Editor, or nobody could reach the settings again.
   */
  async setRole(id: number, role: unknown, by: Actor = BY_SYSTEM): Promise<AdminUser | undefined> {
    if (typeof role !== 'string' || !(role in ADMIN_ROLES)) {
      throw new ValidationError(`role must be one of: ${Object.keys(ADMIN_ROLES).join(', ')}`, {
        errors: [{ path: ['role'], message: 'role is not an admin role' }],
      });
    }
    const user = await this.db.transaction(async (tx) => {
      const row = await findAdminById(tx, id);
      if (!row) return undefined;
      if (row.role === 'super-admin' && role !== 'super-admin' && (await countAdminsWithRole(tx, 'super-admin')) <= 1) {
        throw new FolioError(400, 'ApplicationError', 'The last Super Admin cannot lose that role: make another admin a Super Admin first');
      }
      await setAdminRole(tx, id, role, new Date(this.now()).toISOString());
      return publicUser({ ...row, role });
    });
    if (user) await this.audit.record({ action: 'admin-user.update', actor: by, type: 'admin-user', details: { id, email: user.email, role: user.role } });
    return user;
  }

  /** Deletes an admin and their sessions; never the last Super Admin. False when there was none. */
  async remove(id: number, by: Actor = BY_SYSTEM): Promise<boolean> {
    const email = await this.db.transaction(async (tx) => {
      const row = await findAdminById(tx, id);
      if (!row) return undefined;
      if (row.role === 'super-admin' && (await countAdminsWithRole(tx, 'super-admin')) <= 1) {
        throw new FolioError(400, 'ApplicationError', 'The last Super Admin cannot be deleted');
      }
      await deleteAdminUser(tx, id);
      return row.email;
    });
    if (email !== undefined) await this.audit.record({ action: 'admin-user.delete', actor: by, type: 'admin-user', details: { id, email } });
    return email !== undefined;
  }

  /**
   * Sets the password of the admin with this e-mail (`folio admin reset-password`): their
   * sessions and reset links end. Throws when there is no such admin.
   */
  async setPassword(email: unknown, password: unknown): Promise<AdminUser> {
    const address = typeof email === 'string' ? email.trim().toLowerCase() : '';
    const text = checkPassword(password);
    const row = unstorableText(address) ? undefined : await findAdminByEmail(this.db, address);
    if (!row) throw new FolioError(404, 'NotFoundError', `No admin user has the e-mail "${address}"`);
    const hash = await Bun.password.hash(text);
    await this.db.transaction((tx) => setAdminPassword(tx, row.id, hash, new Date(this.now()).toISOString()));
    return publicUser(row);
  }

  /**
   * A reset link's token for the admin with this e-mail ("Forgot password?"), valid an hour,
   * replacing any earlier one; undefined for an unknown or blocked admin (the caller answers
   * the same either way). Only the token's hash is stored.
   */
  async createResetToken(email: unknown): Promise<{ user: AdminUser; token: string } | undefined> {
    if (typeof email !== 'string' || email.length > 254 || unstorableText(email)) return undefined;
    const row = await findAdminByEmail(this.db, email.trim().toLowerCase());
    if (!row || row.blocked) return undefined;
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.db.transaction((tx) => insertAdminReset(tx, { tokenHash: sha256(token), userId: row.id, expiresAt: now + RESET_LIFETIME_MS, now }));
    return { user: publicUser(row), token };
  }

  /** Sets a new password through a reset link's token (once, within the hour); the admin's sessions end. */
  async resetWithToken(token: unknown, password: unknown): Promise<AdminUser> {
    const text = checkPassword(password);
    const invalid = () =>
      new ValidationError('This reset link is invalid or has expired', { errors: [{ path: ['token'], message: 'This reset link is invalid or has expired' }] });
    if (typeof token !== 'string' || token.length === 0 || token.length > 128) throw invalid();
    const hash = await Bun.password.hash(text);
    const user = await this.db.transaction(async (tx) => {
      const id = await consumeAdminReset(tx, sha256(token), this.now());
      if (id === undefined) return undefined;
      await setAdminPassword(tx, id, hash, new Date(this.now()).toISOString());
      return findAdminById(tx, id);
    });
    if (!user) throw invalid();
    return publicUser(user);
  }

  /** Sets the admin's own name (the profile page); each part optional, at most 100 characters. */
  async setNames(id: number, input: { firstname?: unknown; lastname?: unknown }): Promise<AdminUser | undefined> {
    const errors: { path: string[]; message: string }[] = [];
    const read = (key: 'firstname' | 'lastname', label: string): string | null => {
      const value = input[key];
      if (value === undefined || value === null) return null;
      if (typeof value !== 'string' || unstorableText(value) || value.trim().length > 100) {
        errors.push({ path: [key], message: `${label} must be text of at most 100 characters` });
        return null;
      }
      return value.trim() || null;
    };
    const names = { firstname: read('firstname', 'First name'), lastname: read('lastname', 'Last name') };
    if (errors.length) throw new ValidationError(errors.length === 1 ? errors[0]!.message : `${errors.length} errors occurred`, { errors });
    const row = await findAdminById(this.db, id);
    if (!row) return undefined;
    await setAdminNames(this.db, id, names, new Date(this.now()).toISOString());
    return publicUser({ ...row, ...names });
  }

  /**
   * Changes an admin's own password, given the current one (a 400 naming `currentPassword`
   * otherwise). Every other session of theirs ends; the one given (the caller's) goes on.
   */
  async changePassword(id: number, input: { currentPassword?: unknown; password?: unknown }, keepSession: string | undefined): Promise<void> {
    const row = await findAdminById(this.db, id);
    if (!row) throw new ForbiddenError();
    const current = typeof input.currentPassword === 'string' && input.currentPassword.length <= MAX_PASSWORD_LENGTH ? input.currentPassword : '';
    const password = typeof input.password === 'string' ? input.password : '';
    const errors: { path: string[]; message: string }[] = [];
    if (!current || !(await Bun.password.verify(current, row.password).catch(() => false)))
      errors.push({ path: ['currentPassword'], message: 'The current password is not right' });
    if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH || unstorableText(password)) {
      errors.push({ path: ['password'], message: `The new password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters` });
    }
    if (errors.length) throw new ValidationError(errors.length === 1 ? errors[0]!.message : `${errors.length} errors occurred`, { errors });
    const hash = await Bun.password.hash(password);
    await this.db.transaction((tx) => setAdminPassword(tx, id, hash, new Date(this.now()).toISOString(), keepSession ? sha256(keepSession) : null));
  }

  /**
   * The admin with these credentials, or undefined (same answer and cost for an unknown email).
   * A failed attempt is in the audit log, from `ip`, with the email tried when it is one.
   */
  async verify(email: unknown, password: unknown, ip?: string): Promise<AdminUser | undefined> {
    const user = await this.check(email, password);
    if (!user) {
      const tried =
        typeof email === 'string' && isEmail(email.trim().toLowerCase()) && !unstorableText(email) ? email.trim().toLowerCase().slice(0, 254) : undefined;
      await this.audit.record({
        action: 'admin.login-failed',
        actor: { kind: 'public', ...(ip ? { ip } : {}) },
        type: 'admin-user',
        details: tried ? { email: tried } : {},
      });
    }
    return user;
  }

  private async check(email: unknown, password: unknown): Promise<AdminUser | undefined> {
    if (typeof email !== 'string' || typeof password !== 'string' || password.length > MAX_PASSWORD_LENGTH || unstorableText(email)) return undefined;
    const row = await findAdminByEmail(this.db, email.trim().toLowerCase());
    const hash = row?.password ?? (await (dummyHash ??= Bun.password.hash(randomBytes(16).toString('hex'))));
    const ok = await Bun.password.verify(password, hash).catch(() => false);
    return ok && row && !row.blocked ? publicUser(row) : undefined;
  }

  /** Starts a session (a login, in the audit log, from `ip`); returns the cookie's value (only its hash is stored). */
  async startSession(user: AdminUser, ip?: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await deleteExpiredAdminSessions(this.db, now);
    await insertAdminSession(this.db, { tokenHash: sha256(token), userId: user.id, expiresAt: now + SESSION_LIFETIME_MS, now: new Date(now).toISOString() });
    await this.audit.record({ action: 'admin.login', actor: { kind: 'admin', id: user.id, name: user.email, ...(ip ? { ip } : {}) }, type: 'admin-user' });
    return token;
  }

  async sessionUser(token: string | undefined): Promise<AdminUser | undefined> {
    if (!token || token.length > 128) return undefined;
    const row = await findSessionUser(this.db, sha256(token), this.now());
    return row ? publicUser(row) : undefined;
  }

  async endSession(token: string | undefined): Promise<void> {
    if (token && token.length <= 128) await deleteAdminSession(this.db, sha256(token));
  }
}
