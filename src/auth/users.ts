/**
 * End users (the users & permissions plugin): accounts, password checks, reset codes.
 * Passwords and codes are stored hashed and never leave this module in a user object.
 */
import { createId } from '@paralleldrive/cuid2';
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database';
import { FolioError, ValidationError } from '../errors';
import { checkAccountFields, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type AccountFields } from './user-fields';

export interface User {
  id: number;
  documentId: string;
  username: string;
  email: string;
  provider: string;
  confirmed: boolean;
  blocked: boolean;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
}

interface UserRow extends Omit<User, 'confirmed' | 'blocked'> {
  confirmed: number;
  blocked: number;
  password: string | null;
  roleId: number | null;
  roleType: string | null;
  tokenVersion: number;
}

const PUBLIC_COLUMNS = ['id', 'documentId', 'username', 'email', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt', 'publishedAt'];
const SELECT = `SELECT ${PUBLIC_COLUMNS.map((c) => `u."${c}"`).join(', ')}, u."password", u."roleId", u."tokenVersion", r."type" AS "roleType" FROM folio_users u LEFT JOIN folio_roles r ON r."id" = u."roleId"`;
// Verified against when the user does not exist, so a failed login costs the same either way.
// A constant (Bun.password.hash('folio-timing-equaliser'), argon2id with Bun's defaults):
// hashing it at load cost every process ~155 ms and ~64 MiB of RSS before doing anything.
export const DUMMY_HASH = '$argon2id$v=19$m=65536,t=2,p=1$+0TNN/aNNbsssk5h9eStBWczNniLc+A+wlDDTwHkeqE$FBBcOUDMdRBJ60r5O866c5TehT+G7PDt43r9ebJkRMI';

export const MIN_PASSWORD_LENGTH = PASSWORD_MIN_LENGTH;
export const MAX_PASSWORD_LENGTH = PASSWORD_MAX_LENGTH;

/** How passwords are hashed and checked. Replaceable, so a test can see which hash a login verified against. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}

export const bunPasswords: PasswordHasher = {
  hash: (password) => Bun.password.hash(password),
  verify: (password, hash) => Bun.password.verify(password, hash),
};

const toUser = (row: UserRow): User => {
  const user: Record<string, unknown> = {};
  for (const c of PUBLIC_COLUMNS) user[c] = row[c as keyof UserRow];
  user.confirmed = !!row.confirmed;
  user.blocked = !!row.blocked;
  return user as unknown as User;
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface NewUser {
  username: string;
  email: string;
  password: string;
  /** A role type, or a role id. */
  role?: string | number;
  blocked?: boolean;
  confirmed?: boolean;
}

/** What an update may change; values are checked here, whatever the caller sent. */
export type UserChanges = AccountFields;

export class Users {
  passwords: PasswordHasher = bunPasswords;

  constructor(private db: Database) {}

  /** Checks what a new or changed account may contain; throws 400 otherwise. */
  static checkFields(fields: AccountFields) {
    checkAccountFields(fields);
  }

  async create(input: NewUser): Promise<User> {
    // All three are required here; a partial update checks only what it carries.
    checkAccountFields(input, ['username', 'email', 'password']);
    const email = input.email.toLowerCase();
    const taken = await this.db.get('SELECT 1 AS x FROM folio_users WHERE "email" = ? OR "username" = ?', [email, input.username]);
    if (taken) throw new FolioError(400, 'ApplicationError', 'Email or Username are already taken');
    const roleId = await this.roleId(input.role ?? 'authenticated');
    const now = new Date().toISOString();
    const id = await this.db.insert(
      'INSERT INTO folio_users ("documentId", "username", "email", "provider", "password", "confirmed", "blocked", "roleId", "createdAt", "updatedAt", "publishedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [createId(), input.username, email, 'local', await this.passwords.hash(input.password), input.confirmed === false ? 0 : 1, input.blocked ? 1 : 0, roleId, now, now, now],
    );
    return (await this.find(id))!;
  }

  /** A role by type or id; 400 when there is none. */
  private async roleId(role: string | number): Promise<number> {
    // Ids beyond INTEGER's range match nothing (PostgreSQL would refuse the parameter).
    const asId = /^\d{1,10}$/.test(String(role)) && Number(role) <= 2 ** 31 - 1 ? Number(role) : -1;
    const found = await this.db.get<{ id: number }>('SELECT "id" FROM folio_roles WHERE "type" = ? OR "id" = ?', [String(role), asId]);
    if (!found) throw new ValidationError(`Unknown role "${role}"`);
    return found.id;
  }

  private async row(where: string, params: (string | number)[]): Promise<UserRow | undefined> {
    return this.db.get<UserRow>(`${SELECT} WHERE ${where}`, params);
  }

  async find(id: number): Promise<User | undefined> {
    const row = await this.row('u."id" = ?', [id]);
    return row && toUser(row);
  }

  /** The user, its role type and its token version (see 0004_token_version.sql), for request authentication. */
  async principal(id: number): Promise<{ user: User; roleType: string | null; tokenVersion: number } | undefined> {
    const row = await this.row('u."id" = ?', [id]);
    return row && { user: toUser(row), roleType: row.roleType, tokenVersion: Number(row.tokenVersion) };
  }

  async list(): Promise<User[]> {
    return (await this.db.all<UserRow>(`${SELECT} ORDER BY u."id"`)).map(toUser);
  }

  async count(): Promise<number> {
    return (await this.db.get<{ n: number }>('SELECT CAST(COUNT(*) AS INTEGER) AS n FROM folio_users'))?.n ?? 0;
  }

  async role(userId: number) {
    return this.db.get(
      'SELECT r."id", r."documentId", r."name", r."description", r."type", r."createdAt", r."updatedAt" FROM folio_roles r JOIN folio_users u ON u."roleId" = r."id" WHERE u."id" = ?',
      [userId],
    );
  }

  /**
   * The user whose email (any case) or username matches and whose password is right.
   * Exactly one password verification runs whatever the outcome (against a dummy hash of
   * the same cost for an unknown identifier), so the answer time does not tell whether
   * an account exists. The token version comes from the same read, so a password change
   * racing the login cannot hand out a JWT of the new version for the old password.
   */
  async authenticate(identifier: string, password: string): Promise<{ user: User; tokenVersion: number } | undefined> {
    const row = await this.row('u."email" = ? OR u."username" = ?', [identifier.toLowerCase(), identifier]);
    const ok = await this.passwords.verify(password, row?.password ?? DUMMY_HASH);
    return row?.password && ok ? { user: toUser(row), tokenVersion: Number(row.tokenVersion) } : undefined;
  }

  async checkPassword(id: number, password: string): Promise<boolean> {
    const row = await this.row('u."id" = ?', [id]);
    return await this.passwords.verify(password, row?.password ?? DUMMY_HASH) && !!row?.password;
  }

  /**
   * Sets a new password, forgets any reset code and moves the token version on, so every
   * JWT issued before stops working. Returns the new version, for the JWT to answer with.
   */
  async setPassword(id: number, password: string): Promise<number> {
    checkAccountFields({ password }, ['password']);
    const hash = await this.passwords.hash(password);
    // In a write transaction: a lone `get` goes to SQLite's reader connection.
    const row = await this.db.transaction((tx) =>
      tx.get<{ v: number }>(
        'UPDATE folio_users SET "password" = ?, "resetPasswordToken" = NULL, "tokenVersion" = "tokenVersion" + 1, "updatedAt" = ? WHERE "id" = ? RETURNING "tokenVersion" AS v',
        [hash, new Date().toISOString(), id],
      ),
    );
    return Number(row?.v ?? 0);
  }

  /** Stores a new reset code (hashed) and returns it in clear for the e-mail; undefined for unknown emails. */
  async createResetCode(email: string): Promise<string | undefined> {
    const code = randomBytes(64).toString('hex');
    const result = await this.db.run('UPDATE folio_users SET "resetPasswordToken" = ? WHERE "email" = ?', [sha256(code), email.toLowerCase()]);
    return result.changes ? code : undefined;
  }

  async findByResetCode(code: string): Promise<User | undefined> {
    const row = await this.row('u."resetPasswordToken" = ?', [sha256(code)]);
    return row && toUser(row);
  }

  /**
   * Partial update of an account; role by type or id. A new password also moves the token
   * version on (JWTs issued before stop working). Who may change what is the caller's
   * business (the route); this checks only what the values may be.
   */
  async update(id: number, fields: UserChanges): Promise<User | undefined> {
    checkAccountFields(fields);
    const { username, email, password, blocked, confirmed, provider, role } = fields as {
      username?: string; email?: string; password?: string; blocked?: boolean; confirmed?: boolean; provider?: string; role?: string | number;
    };
    const sets: string[] = [];
    const values: (string | number)[] = [];
    const set = (column: string, value: string | number) => (sets.push(`"${column}" = ?`), values.push(value));
    if (username !== undefined) set('username', username);
    if (email !== undefined) set('email', email.toLowerCase());
    if (password !== undefined) {
      set('password', await this.passwords.hash(password));
      sets.push('"resetPasswordToken" = NULL', '"tokenVersion" = "tokenVersion" + 1');
    }
    if (blocked !== undefined) set('blocked', blocked ? 1 : 0);
    if (confirmed !== undefined) set('confirmed', confirmed ? 1 : 0);
    if (provider !== undefined) set('provider', provider);
    if (role !== undefined) set('roleId', await this.roleId(role));
    if (username !== undefined || email !== undefined) {
      const clash = await this.db.get('SELECT 1 AS x FROM folio_users WHERE ("email" = ? OR "username" = ?) AND "id" <> ?', [
        email?.toLowerCase() ?? '',
        username ?? '',
        id,
      ]);
      if (clash) throw new FolioError(400, 'ApplicationError', 'Email or Username are already taken');
    }
    if (sets.length) await this.db.run(`UPDATE folio_users SET ${sets.join(', ')}, "updatedAt" = ? WHERE "id" = ?`, [...values, new Date().toISOString(), id]);
    return this.find(id);
  }

  async delete(id: number): Promise<User | undefined> {
    const user = await this.find(id);
    if (user) await this.db.run('DELETE FROM folio_users WHERE "id" = ?', [id]);
    return user;
  }
}
