/**
 * End users (the users & permissions plugin): accounts, password checks, reset codes.
 * Passwords and codes are stored hashed and never leave this module in a user object.
 */
import { createDocumentId } from '../documents/document-id';
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import { findRoleIdByTypeOrId, findRoleOfUser, findRolesOfUsers } from '../db/store/roles';
import {
  consumeConfirmationToken,
  countUsers,
  deleteUser,
  emailOrUsernameTaken,
  findUserByEmail,
  findUserById,
  findUserByIdentifier,
  findUserByResetToken,
  findUserByConfirmationToken,
  insertUser,
  listUsers,
  registrationConflict,
  setConfirmationToken,
  setResetToken,
  setUserPassword,
  updateUser,
  USER_PUBLIC_COLUMNS,
  usernameTaken,
  type NewUserRow,
  type UserChangesRow,
  type UserRow,
} from '../db/store/users';
import { sql } from '../db/sql';
import { deleteSessionsOf } from '../db/store/user-sessions';
import { FolioError, ValidationError } from '../errors';
import { orderBy, whereSql } from '../query/compile';
import { checkFilters, parseFilters } from '../query/filters';
import { parseFields, parsePagination, parseSort, type QueryLimits } from '../query/parse';
import type { ScalarField } from '../registry/fields/field';
import { BUILT_IN_USER_ATTRIBUTES, userModel } from '../registry/system-models';
import type { ContentType, Registry } from '../registry/types';
import { checkAccountFields, FieldErrors, type AccountFields } from './user-fields';
import { BY_SYSTEM, NO_AUDIT, type AuditTrail } from '../audit-trail';
import type { Actor } from '../documents/write/context';
import { UserWrites, type UserEventParams, type UserWriteHooks } from './user-writes';

/** How the audit log names the users of the users & permissions plugin. */
const USER_TYPE = 'plugin::users-permissions.user';

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

// Verified against when the user does not exist, so a failed login costs the same either way.
// A constant (Bun.password.hash('folio-timing-equaliser'), argon2id with Bun's defaults):
// hashing it at load cost every process ~155 ms and ~64 MiB of RSS before doing anything.
export const DUMMY_HASH = '$argon2id$v=19$m=65536,t=2,p=1$+0TNN/aNNbsssk5h9eStBWczNniLc+A+wlDDTwHkeqE$FBBcOUDMdRBJ60r5O866c5TehT+G7PDt43r9ebJkRMI';

/** How passwords are hashed and checked. Replaceable, so a test can see which hash a login verified against. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}

export const bunPasswords: PasswordHasher = {
  hash: (password) => Bun.password.hash(password),
  verify: (password, hash) => Bun.password.verify(password, hash),
};

/** Scalar attributes of the project's user extension schema (registry/system-models.ts). */
function extensionFields(model: ContentType): ScalarField[] {
  return Object.values(model.fields).filter((f): f is ScalarField => f.kind === 'scalar' && !BUILT_IN_USER_ATTRIBUTES.has(f.name));
}

/** The entries of `o` that hold a value. */
const defined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

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

/** Query parameters `GET /api/users` reads; pagination is top-level, as in Strapi's transformParamsToQuery. */
const PAGINATION_KEYS = ['page', 'pageSize', 'start', 'limit'] as const;
const LIST_KEYS = new Set<string>(['filters', 'sort', 'fields', 'populate', ...PAGINATION_KEYS]);
/**
 * For a list with neither filters nor sort (the CLI's), which never hops to another type. The
 * route passes the instance's registry: the user extension's relations lead to other types.
 */
const NO_TYPES: Registry = { contentTypes: [], components: [], get: () => undefined } as unknown as Registry;

/** Users have neither drafts nor locales. */
const USERS_SCOPE = { status: 'published' as const, locale: '' };

const taken = () => new FolioError(400, 'ApplicationError', 'Email or Username are already taken');

/** A provider's username is kept to this, leaving room for the four digits that make it unique. */
const USERNAME_BASE_MAX = 240;

export class Users {
  passwords: PasswordHasher = bunPasswords;
  /** Where account changes are recorded (the composition root sets the audit log); never a password or a code. */
  audit: AuditTrail = NO_AUDIT;
  /** How writes run and which lifecycle events they fire (the composition root hands it the document service's pipeline and hooks). */
  writes: UserWrites;
  /** The extension's scalar attributes: stored in the users table, shown (unless private) and written like the built-in ones. */
  private extension: ScalarField[];

  constructor(
    private db: Database,
    private model: ContentType = userModel(),
  ) {
    this.extension = extensionFields(model);
    this.writes = new UserWrites(db, model);
  }

  /** Writes from now on fire the users type's lifecycle events and join project code's writes (the composition root calls it). */
  rideOn(documents: UserWriteHooks): void {
    this.writes = new UserWrites(this.db, this.model, documents);
  }

  /** Names of the extension attributes a write may carry (passwords excepted: only the account's own has a route). */
  get extensionNames(): string[] {
    return this.extension.filter((f) => f.type !== 'password').map((f) => f.name);
  }

  /** A user as the API shows it: public columns, then the visible extension attributes. */
  private toUser(row: UserRow): User {
    const user: Record<string, unknown> = {};
    for (const c of USER_PUBLIC_COLUMNS) user[c] = row[c];
    user.confirmed = !!row.confirmed;
    user.blocked = !!row.blocked;
    for (const f of this.extension) if (f.visible) user[f.name] = f.fromColumn((row as unknown as Record<string, unknown>)[f.name] ?? null);
    return user as unknown as User;
  }

  /** The extension values of a write, checked as their fields check them (every problem at once), as column values. */
  private extensionColumns(input: Record<string, unknown>, mode: 'create' | 'update'): Record<string, string | number | bigint | null> {
    const errors = new FieldErrors();
    const out: Record<string, string | number | bigint | null> = {};
    for (const f of this.extension) {
      if (f.type === 'password') continue;
      let value = input[f.name];
      if (value === undefined) {
        if (mode === 'create' && f.attribute.default !== undefined) value = f.attribute.default;
        else if (mode === 'create' && f.attribute.required) errors.add(f.name, `${f.name} must be defined.`, value);
        if (value === undefined) continue;
      }
      if (value === null) {
        if (f.attribute.required) errors.add(f.name, `${f.name} must be defined.`, value);
        else out[f.name] = null;
        continue;
      }
      const normal = f.normalise(value);
      const problem = f.check(normal, 'published', f.name);
      if (problem) errors.add(f.name, problem.message, value);
      else out[f.name] = f.toColumn(normal);
    }
    errors.throwIfAny();
    return out;
  }

  /** Checks what a new or changed account may contain; throws 400 otherwise. */
  static checkFields(fields: AccountFields) {
    checkAccountFields(fields);
  }

  async create(input: NewUser, by: Actor = BY_SYSTEM): Promise<User> {
    // All three are required here; a partial update checks only what it carries.
    checkAccountFields(input, ['username', 'email', 'password']);
    const extra = this.extensionColumns(input as unknown as Record<string, unknown>, 'create');
    const email = input.email.toLowerCase();
    // Asked first so a taken address costs no hashing; asked again where it counts, below.
    if (await emailOrUsernameTaken(this.db, email, input.username)) throw taken();
    const roleId = await this.roleId(input.role ?? 'authenticated');
    const password = await this.passwords.hash(input.password);
    const now = new Date().toISOString();
    const row = {
      documentId: createDocumentId(),
      username: input.username,
      email,
      provider: 'local',
      password,
      confirmed: input.confirmed === false ? 0 : 1,
      blocked: input.blocked ? 1 : 0,
      roleId,
      now,
      extra,
    };
    // In the transaction that writes: a registration of the same address since the first check
    // (during the hashing, or earlier in the same group commit) is seen here, not by the UNIQUE index.
    const id = await this.inserting(by, row, taken);
    const user = (await this.find(id))!;
    await this.audit.record({
      action: 'user.create',
      actor: by,
      type: USER_TYPE,
      documentId: user.documentId,
      details: { id: user.id, username: user.username, role: input.role ?? 'authenticated' },
    });
    return user;
  }

  /**
   * An account a provider signs in (Strapi's providers connect): no password, confirmed, the
   * given role type. The username is made unique (Strapi's findValidUsername: the name, else
   * the name and four digits, ten tries, else a UUID) and kept to Folio's username rules.
   */
  async createFromProvider(input: { username: string; email: string; provider: string; role: string }): Promise<User> {
    const email = input.email.toLowerCase();
    const base = [...input.username]
      .filter((c) => c >= ' ' && c !== '\u007f')
      .join('')
      .trim()
      .slice(0, USERNAME_BASE_MAX);
    let username: string | undefined;
    for (let attempt = 0; attempt <= 10 && username === undefined; attempt++) {
      const candidate = attempt === 0 && base.length >= 3 ? base : `${base}${randomInt(1000, 9999)}`;
      if (candidate.length >= 3 && !(await usernameTaken(this.db, candidate))) username = candidate;
    }
    username ??= randomUUID();
    checkAccountFields({ username, email, provider: input.provider }, ['username', 'email']);
    const roleId = await this.roleId(input.role);
    const now = new Date().toISOString();
    const row = {
      documentId: createDocumentId(),
      username,
      email,
      provider: input.provider,
      password: null,
      confirmed: 1,
      blocked: 0,
      roleId,
      now,
      extra: this.extensionColumns({}, 'create'),
    };
    const id = await this.inserting(BY_SYSTEM, row, () => new FolioError(400, 'ApplicationError', 'Email is already taken.'));
    return (await this.find(id))!;
  }

  /**
   * Inserts a user in one write: beforeCreate may change what is written (user-writes.ts), the
   * address and username are checked in the transaction, afterCreate hears the row.
   */
  private inserting(by: Actor, row: NewUserRow, conflict: () => FolioError): Promise<number> {
    return this.writes.run(by, async (tx) => {
      const event = this.writes.listened ? await this.writes.before('Create', { data: this.eventData(row), populate: ['role'], where: {} }) : undefined;
      const data = event?.params.data ?? {};
      const written: NewUserRow = event ? { ...row, ...defined(await this.fromEventData(data, row)), extra: this.extensionColumns(data, 'create') } : row;
      if (await emailOrUsernameTaken(tx, written.email, written.username)) throw conflict();
      const id = await insertUser(tx, written);
      await event?.after(await this.eventUser(tx, id));
      return id;
    });
  }

  /**
   * Runs one change of user `id` in one write, with beforeUpdate/afterUpdate around it when
   * anyone listens: `data` gives the event's data (the changed columns as the API shows them),
   * `write` writes, given the data as the before handlers left it (undefined when nobody listens).
   */
  private updating<T>(
    by: Actor,
    id: number,
    data: () => Record<string, unknown>,
    write: (tx: Queryable, data?: Record<string, unknown>) => Promise<T>,
  ): Promise<T> {
    return this.writes.run(by, async (tx) => {
      if (!this.writes.listened) return write(tx);
      const now = new Date().toISOString();
      const params: UserEventParams = { data: { ...data(), updatedAt: now, publishedAt: now }, populate: ['role'], where: { id } };
      const event = await this.writes.before('Update', params);
      const result = await write(tx, event.params.data ?? {});
      await event.after(await this.eventUser(tx, id));
      return result;
    });
  }

  /** A new user row as a lifecycle event's `params.data` shows it (Strapi's keys: the role by id, the password's hash). */
  private eventData(row: NewUserRow): Record<string, unknown> {
    const data: Record<string, unknown> = {
      username: row.username,
      email: row.email,
      provider: row.provider,
      password: row.password,
      confirmed: !!row.confirmed,
      blocked: !!row.blocked,
      role: row.roleId,
      createdAt: row.now,
      updatedAt: row.now,
      publishedAt: row.now,
    };
    for (const f of this.extension) if (f.type !== 'password' && row.extra && f.name in row.extra) data[f.name] = f.fromColumn(row.extra[f.name] ?? null);
    return data;
  }

  /**
   * The built-in columns of `data` as a before handler left it, against what they were: a value
   * it changed is checked (and a new password hashed) as the API's would be.
   */
  private async fromEventData(
    data: Record<string, unknown>,
    was: Omit<UserChangesRow, 'password'> & { password?: string | null },
  ): Promise<Omit<UserChangesRow, 'password'> & { password?: string | null }> {
    const text = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
    const out = {
      username: text(data.username),
      email: text(data.email)?.toLowerCase(),
      provider: text(data.provider),
      blocked: data.blocked === undefined ? undefined : data.blocked ? 1 : 0,
      confirmed: data.confirmed === undefined ? undefined : data.confirmed ? 1 : 0,
      password:
        data.password === undefined || data.password === null || data.password === was.password
          ? was.password
          : await this.passwords.hash(String(data.password)),
      roleId: data.role === undefined ? undefined : data.role === was.roleId ? was.roleId : await this.roleId(data.role as string | number),
    };
    const changed = Object.fromEntries(
      (['username', 'email', 'provider'] as const).filter((k) => out[k] !== was[k] && out[k] !== undefined).map((k) => [k, out[k]]),
    );
    if (Object.keys(changed).length) checkAccountFields(changed);
    return out;
  }

  /** A user as lifecycle events' `result` shows it: with its role, read through the write's transaction. */
  private async eventUser(tx: Queryable, id: number): Promise<Record<string, unknown> | undefined> {
    const row = await findUserById(tx, id);
    if (!row) return undefined;
    return { ...this.toUser(row), role: (await findRoleOfUser(tx, id)) ?? null };
  }

  /** A role by type or id; 400 when there is none. */
  private async roleId(role: string | number): Promise<number> {
    // Ids beyond INTEGER's range match nothing (PostgreSQL would refuse the parameter).
    const asId = /^\d{1,10}$/.test(String(role)) && Number(role) <= 2 ** 31 - 1 ? Number(role) : -1;
    const found = await findRoleIdByTypeOrId(this.db, String(role), asId);
    if (found === undefined) throw new ValidationError(`Unknown role "${role}"`);
    return found;
  }

  async find(id: number): Promise<User | undefined> {
    const row = await findUserById(this.db, id);
    return row && this.toUser(row);
  }

  /** The user, its role type and its token version (see migration 0004_token_version), for request authentication. */
  async principal(id: number): Promise<{ user: User; roleType: string | null; tokenVersion: number } | undefined> {
    const row = await findUserById(this.db, id);
    return row && { user: this.toUser(row), roleType: row.roleType, tokenVersion: Number(row.tokenVersion) };
  }

  /**
   * `GET /api/users`, as Strapi's user controller (fetchAll → transformParamsToQuery):
   * `filters`, `sort`, `fields`, `populate` and top-level `start`/`limit` or `page`/`pageSize`
   * (every user without them). Private attributes and unknown keys are 400 `Invalid key`.
   */
  async list(raw: Record<string, unknown> = {}, registry: Registry = NO_TYPES, limits?: QueryLimits, only?: number): Promise<Partial<User>[]> {
    for (const key of Object.keys(raw)) {
      if (!LIST_KEYS.has(key)) throw ValidationError.invalidKey(key, 'query', { param: key });
    }
    const fields = parseFields(this.model, raw.fields);
    const where = this.whereOf(raw.filters, registry);
    const order = orderBy(this.model, parseSort(this.model, raw.sort), USERS_SCOPE);
    const paging = PAGINATION_KEYS.filter((key) => raw[key] !== undefined);
    let page: { limit: number; offset: number } | undefined;
    if (paging.length) {
      const pagination = Object.fromEntries(paging.map((key) => [key, raw[key]]));
      // No maximum: without pagination every user is answered, as Strapi does.
      const { start, limit } = parsePagination(pagination, { defaultLimit: limits?.defaultLimit ?? 25, maxLimit: Number.MAX_SAFE_INTEGER });
      page = { limit, offset: start };
    }
    const users = (await listUsers(this.db, { where, order, page, id: only })).map((row) => this.toUser(row));
    if (!fields) return users;
    const shown = new Set(['id', 'documentId', ...fields]);
    return users.map((user) => Object.fromEntries(Object.entries(user).filter(([key]) => shown.has(key))) as Partial<User>);
  }

  /**
   * `GET /api/users/me`: the user as `fields` and `filters` ask (Strapi's fetch of the current
   * user); undefined when the filters leave it out. Other parameters are ignored, as Strapi does.
   */
  async me(id: number, raw: Record<string, unknown>, registry: Registry): Promise<Partial<User> | undefined> {
    const picked = Object.fromEntries(Object.entries(raw).filter(([key]) => key === 'fields' || key === 'filters' || key === 'sort'));
    return (await this.list(picked, registry, undefined, id))[0];
  }

  /** The users `filters` (Strapi's, as `GET /api/users/count` and the query engine take them) match; every user without. */
  async count(filters?: unknown, registry: Registry = NO_TYPES): Promise<number> {
    return countUsers(this.db, this.whereOf(filters, registry));
  }

  /** `filters` as a condition over the users table (400 for a private or unknown attribute, as the list). */
  private whereOf(filters: unknown, registry: Registry) {
    if (filters === undefined) return sql.empty;
    if (typeof filters !== 'object' || filters === null || Array.isArray(filters)) throw new ValidationError('Invalid filters: expected an object');
    checkFilters(filters);
    return whereSql(this.db.dialect, registry, this.model, parseFilters(registry, this.model, filters as Record<string, unknown>), USERS_SCOPE);
  }

  async role(userId: number) {
    return findRoleOfUser(this.db, userId);
  }

  /** The roles of several users, by user id, in one read (`populate=role` on a list). */
  async rolesOf(userIds: number[]) {
    if (userIds.length === 0) return new Map<number, Awaited<ReturnType<Users['role']>>>();
    return new Map((await findRolesOfUsers(this.db, userIds)).map(({ userId, ...role }) => [userId, role]));
  }

  /**
   * The user whose email (any case) or username matches and whose password is right.
   * Exactly one password verification runs whatever the outcome (against a dummy hash of
   * the same cost for an unknown identifier), so the answer time does not tell whether
   * an account exists. The token version comes from the same read, so a password change
   * racing the login cannot hand out a JWT of the new version for the old password.
   */
  async authenticate(identifier: string, password: string): Promise<{ user: User; tokenVersion: number } | undefined> {
    // No account holds a NUL (usernames and addresses refuse it), and PostgreSQL cannot compare one.
    const row = identifier.includes('\0') ? undefined : await findUserByIdentifier(this.db, identifier.toLowerCase(), identifier);
    const ok = await this.passwords.verify(password, row?.password ?? DUMMY_HASH);
    return row?.password && ok ? { user: this.toUser(row), tokenVersion: Number(row.tokenVersion) } : undefined;
  }

  async checkPassword(id: number, password: string): Promise<boolean> {
    const row = await findUserById(this.db, id);
    return (await this.passwords.verify(password, row?.password ?? DUMMY_HASH)) && !!row?.password;
  }

  /**
   * Sets a new password, forgets any reset code, moves the token version on and ends the
   * user's refresh-token sessions, so every JWT issued before stops working. Returns the new
   * version, for the JWT to answer with.
   */
  async setPassword(id: number, password: string, by: Actor = BY_SYSTEM): Promise<number> {
    checkAccountFields({ password }, ['password']);
    const hash = await this.passwords.hash(password);
    // In a write transaction: a lone `get` goes to SQLite's reader connection.
    const version = await this.updating(
      by,
      id,
      () => ({ password: hash }),
      async (tx) => {
        const moved = await setUserPassword(tx, id, hash, new Date().toISOString());
        await deleteSessionsOf(tx, id);
        return moved;
      },
    );
    await this.audit.record({ action: 'user.update', actor: by, type: USER_TYPE, details: { id, fields: ['password'] } });
    return version ?? 0;
  }

  /** Stores a new reset code (hashed; it replaces any earlier one) and returns it in clear for the e-mail: 64 random bytes in hex, as Strapi's. */
  async createResetCode(id: number): Promise<string> {
    const code = randomBytes(64).toString('hex');
    const hash = sha256(code);
    await this.updating(
      BY_SYSTEM,
      id,
      () => ({ resetPasswordToken: hash }),
      (tx) => setResetToken(tx, id, hash),
    );
    return code;
  }

  /** Stores a new confirmation token (hashed; it replaces any earlier one) and returns it in clear for the e-mail: 20 random bytes in hex, as Strapi's. */
  async createConfirmationToken(id: number): Promise<string> {
    const token = randomBytes(20).toString('hex');
    const hash = sha256(token);
    await this.updating(
      BY_SYSTEM,
      id,
      () => ({ confirmationToken: hash }),
      (tx) => setConfirmationToken(tx, id, hash),
    );
    return token;
  }

  /** Confirms the account this token was sent to and forgets the token; undefined when no account holds it (any more). */
  async confirmByToken(token: string): Promise<User | undefined> {
    const hash = sha256(token);
    const id = await this.writes.run(BY_SYSTEM, async (tx) => {
      if (!this.writes.listened) return consumeConfirmationToken(tx, hash, new Date().toISOString());
      // Lifecycle handlers hear which account it is before it changes (Strapi's emailConfirmation edits it by id).
      const holder = await findUserByConfirmationToken(tx, hash);
      if (!holder) return undefined;
      const event = await this.writes.before('Update', { data: { confirmed: true, confirmationToken: null }, populate: ['role'], where: { id: holder.id } });
      const confirmed = await consumeConfirmationToken(tx, hash, new Date().toISOString());
      await event.after(await this.eventUser(tx, holder.id));
      return confirmed;
    });
    return id === undefined ? undefined : this.find(id);
  }

  /** The account with this e-mail (any case), whatever its provider. */
  async findByEmail(email: string): Promise<User | undefined> {
    const row = await findUserByEmail(this.db, email.toLowerCase());
    return row && this.toUser(row);
  }

  /** Whether a registration of this e-mail and username would be confused with an account (Strapi's register checks); `provider` narrows it. */
  registrationConflict(email: string, username: string, provider?: string): Promise<boolean> {
    return registrationConflict(this.db, email.toLowerCase(), username, provider);
  }

  async findByResetCode(code: string): Promise<User | undefined> {
    const row = await findUserByResetToken(this.db, sha256(code));
    return row && this.toUser(row);
  }

  /**
   * Partial update of an account; role by type or id. A new password also moves the token
   * version on (JWTs issued before stop working). Who may change what is the caller's
   * business (the route); this checks only what the values may be.
   */
  async update(id: number, fields: UserChanges, by: Actor = BY_SYSTEM): Promise<User | undefined> {
    const extension = Object.fromEntries(this.extensionNames.filter((n) => n in fields).map((n) => [n, (fields as Record<string, unknown>)[n]]));
    const builtIn = Object.fromEntries(Object.entries(fields).filter(([n]) => !(n in extension)));
    checkAccountFields(builtIn);
    const extra = this.extensionColumns(extension, 'update');
    const { username, email, password, blocked, confirmed, provider, role } = fields as {
      username?: string;
      email?: string;
      password?: string;
      blocked?: boolean;
      confirmed?: boolean;
      provider?: string;
      role?: string | number;
    };
    // A new password hash also forgets the reset code and moves the token version on (store/users.ts).
    const changes: UserChangesRow = {
      username,
      email: email?.toLowerCase(),
      password: password === undefined ? undefined : await this.passwords.hash(password),
      blocked: blocked === undefined ? undefined : blocked ? 1 : 0,
      confirmed: confirmed === undefined ? undefined : confirmed ? 1 : 0,
      provider,
      roleId: role === undefined ? undefined : await this.roleId(role),
    };
    const eventData = () => ({
      ...extension,
      ...defined({ username, email: changes.email, password: changes.password, blocked, confirmed, provider, role: changes.roleId }),
    });
    await this.updating(by, id, eventData, async (tx, data) => {
      // What a beforeUpdate handler left in the event's data is what is written.
      const fromData = data && (await this.fromEventData(data, changes));
      const written: UserChangesRow = fromData ? { ...fromData, password: fromData.password ?? undefined } : changes;
      const writtenExtra = data ? this.extensionColumns(data, 'update') : extra;
      const named = written.username !== undefined || written.email !== undefined;
      if (named && (await emailOrUsernameTaken(tx, written.email ?? '', written.username ?? '', id))) throw taken();
      await updateUser(tx, id, written, new Date().toISOString(), writtenExtra);
      // A new password or a block ends the account's refresh-token sessions (and their access tokens).
      if (written.password !== undefined || written.blocked === 1) await deleteSessionsOf(tx, id);
    });
    const user = await this.find(id);
    // The fields changed, by name; of their values only the role and the flags (never a password).
    const shown = defined({ blocked, confirmed, role });
    if (user)
      await this.audit.record({
        action: 'user.update',
        actor: by,
        type: USER_TYPE,
        documentId: user.documentId,
        details: { id, username: user.username, fields: Object.keys(fields), ...shown },
      });
    return user;
  }

  async delete(id: number, by: Actor = BY_SYSTEM): Promise<User | undefined> {
    const user = await this.find(id);
    if (user) {
      await this.writes.run(by, async (tx) => {
        const event = this.writes.listened ? await this.writes.before('Delete', { where: { id } }) : undefined;
        const was = event && (await findUserById(tx, id));
        await deleteUser(tx, id);
        await event?.after(was ? this.toUser(was) : undefined);
      });
      await this.audit.record({ action: 'user.delete', actor: by, type: USER_TYPE, documentId: user.documentId, details: { id, username: user.username } });
    }
    return user;
  }
}
