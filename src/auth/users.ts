/**
 * End users (the users & permissions plugin): accounts, password checks, reset codes.
 * Passwords and codes are stored hashed and never leave this module in a user object.
 */
import { createId } from '@paralleldrive/cuid2';
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database';
import { FolioError, ValidationError } from '../errors';

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
}

const PUBLIC_COLUMNS = ['id', 'documentId', 'username', 'email', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt', 'publishedAt'];
const SELECT = `SELECT ${PUBLIC_COLUMNS.map((c) => `u."${c}"`).join(', ')}, u."password", u."roleId", r."type" AS "roleType" FROM folio_users u LEFT JOIN folio_roles r ON r."id" = u."roleId"`;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Verified against when the user does not exist, so a failed login costs the same either way.
// A constant (Bun.password.hash('folio-timing-equaliser'), argon2id with Bun's defaults):
// hashing it at load cost every process ~155 ms and ~64 MiB of RSS before doing anything.
const DUMMY_HASH = '$argon2id$v=19$m=65536,t=2,p=1$+0TNN/aNNbsssk5h9eStBWczNniLc+A+wlDDTwHkeqE$FBBcOUDMdRBJ60r5O866c5TehT+G7PDt43r9ebJkRMI';

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;

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
  role?: string;
  blocked?: boolean;
}

export class Users {
  constructor(private db: Database) {}

  /** Checks what a new or changed account may contain; throws 400 otherwise. */
  static checkFields(fields: { username?: unknown; email?: unknown; password?: unknown }) {
    const errors: { path: string[]; message: string; name: 'ValidationError'; value: unknown }[] = [];
    const fail = (path: string, message: string, value: unknown) => errors.push({ path: [path], message, name: 'ValidationError', value });
    if (fields.username !== undefined && (typeof fields.username !== 'string' || fields.username.trim().length < 3)) {
      fail('username', 'username must be at least 3 characters', fields.username);
    }
    if (fields.email !== undefined && (typeof fields.email !== 'string' || !EMAIL.test(fields.email))) fail('email', 'email must be a valid email', fields.email);
    if (fields.password !== undefined) {
      if (typeof fields.password !== 'string' || fields.password.length < MIN_PASSWORD_LENGTH) {
        fail('password', `password must be at least ${MIN_PASSWORD_LENGTH} characters`, null);
      } else if (fields.password.length > MAX_PASSWORD_LENGTH) fail('password', `password must be at most ${MAX_PASSWORD_LENGTH} characters`, null);
    }
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
  }

  async create(input: NewUser): Promise<User> {
    // All three are required here; checkFields alone skips absent ones (partial updates).
    Users.checkFields({ username: input.username ?? null, email: input.email ?? null, password: input.password ?? null });
    const email = input.email.toLowerCase();
    const taken = await this.db.get('SELECT 1 AS x FROM folio_users WHERE "email" = ? OR "username" = ?', [email, input.username]);
    if (taken) throw new FolioError(400, 'ApplicationError', 'Email or Username are already taken');
    const role = await this.db.get<{ id: number }>('SELECT "id" FROM folio_roles WHERE "type" = ?', [input.role ?? 'authenticated']);
    if (!role) throw new ValidationError(`Unknown role "${input.role}"`);
    const now = new Date().toISOString();
    const id = await this.db.insert(
      'INSERT INTO folio_users ("documentId", "username", "email", "provider", "password", "confirmed", "blocked", "roleId", "createdAt", "updatedAt", "publishedAt") VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)',
      [createId(), input.username, email, 'local', await Bun.password.hash(input.password), input.blocked ? 1 : 0, role.id, now, now, now],
    );
    return (await this.find(id))!;
  }

  private async row(where: string, params: (string | number)[]): Promise<UserRow | undefined> {
    return this.db.get<UserRow>(`${SELECT} WHERE ${where}`, params);
  }

  async find(id: number): Promise<User | undefined> {
    const row = await this.row('u."id" = ?', [id]);
    return row && toUser(row);
  }

  /** The user and its role type, for request authentication. */
  async principal(id: number): Promise<{ user: User; roleType: string | null } | undefined> {
    const row = await this.row('u."id" = ?', [id]);
    return row && { user: toUser(row), roleType: row.roleType };
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

  /** The user whose email (any case) or username matches and whose password is right. */
  async authenticate(identifier: string, password: string): Promise<User | undefined> {
    const row = await this.row('u."email" = ? OR u."username" = ?', [identifier.toLowerCase(), identifier]);
    const ok = await Bun.password.verify(password, row?.password ?? DUMMY_HASH);
    return row && ok ? toUser(row) : undefined;
  }

  async checkPassword(id: number, password: string): Promise<boolean> {
    const row = await this.row('u."id" = ?', [id]);
    return !!row?.password && (await Bun.password.verify(password, row.password));
  }

  async setPassword(id: number, password: string): Promise<void> {
    Users.checkFields({ password });
    await this.db.run('UPDATE folio_users SET "password" = ?, "resetPasswordToken" = NULL, "updatedAt" = ? WHERE "id" = ?', [
      await Bun.password.hash(password),
      new Date().toISOString(),
      id,
    ]);
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

  /** Partial update of an account; role by type. */
  async update(id: number, fields: { username?: string; email?: string; password?: string; blocked?: boolean; role?: string | number }): Promise<User | undefined> {
    Users.checkFields(fields);
    const sets: string[] = [];
    const values: (string | number)[] = [];
    if (fields.username !== undefined) sets.push('"username" = ?') && values.push(fields.username);
    if (fields.email !== undefined) sets.push('"email" = ?') && values.push(fields.email.toLowerCase());
    if (fields.password !== undefined) sets.push('"password" = ?') && values.push(await Bun.password.hash(fields.password));
    if (fields.blocked !== undefined) sets.push('"blocked" = ?') && values.push(fields.blocked ? 1 : 0);
    if (fields.role !== undefined) {
      const role = await this.db.get<{ id: number }>('SELECT "id" FROM folio_roles WHERE "type" = ? OR "id" = ?', [String(fields.role), Number(fields.role) || -1]);
      if (!role) throw new ValidationError(`Unknown role "${fields.role}"`);
      sets.push('"roleId" = ?') && values.push(role.id);
    }
    if (fields.username !== undefined || fields.email !== undefined) {
      const clash = await this.db.get('SELECT 1 AS x FROM folio_users WHERE ("email" = ? OR "username" = ?) AND "id" <> ?', [
        fields.email?.toLowerCase() ?? '',
        fields.username ?? '',
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
