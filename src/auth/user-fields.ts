/**
 * What account fields may hold, checked before anything else looks at them. Every check
 * is linear and caps the length before any pattern runs: the old e-mail pattern
 * (`^[^\s@]+@[^\s@]+\.[^\s@]+$`) backtracked quadratically, so one 40,000-character
 * address held the event loop (and every other request) for seconds.
 *
 * Limits (Strapi's user type has minimums only: username 3, password 6):
 * - username: 3–254 characters. As long as an e-mail address because `folio user create`
 *   uses the address as the username when none is given, and the login identifier is
 *   either of them.
 * - email: at most 254 characters (RFC 5321) and the shape `isEmail` accepts.
 * - password: 6–128 characters. Argon2id (Bun's default) reads the whole password; bcrypt
 *   hashes imported from Strapi only use the first 72 bytes, so a longer limit would only
 *   buy hashing time for whoever sends it.
 *
 * Messages and the `details.errors` shape are yup's, as Strapi answers them.
 */
import { ValidationError, type FieldError } from '../errors';
import { EMAIL_MAX_LENGTH, isEmail, unstorableText } from '../text';

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = EMAIL_MAX_LENGTH;
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
/** The login identifier is an e-mail address or a username. */
export const IDENTIFIER_MAX_LENGTH = Math.max(EMAIL_MAX_LENGTH, USERNAME_MAX_LENGTH);
/** Reset codes are 128 hex characters; anything much longer is not worth hashing. */
export const RESET_CODE_MAX_LENGTH = 256;
const PROVIDER_MAX_LENGTH = 64;

/** Fields whose values never go back to the caller, not even in an error. */
const SECRET = new Set(['password', 'currentPassword', 'passwordConfirmation', 'code']);

export class FieldErrors {
  readonly list: FieldError[] = [];

  add(path: string, message: string, value: unknown) {
    this.list.push({ path: [path], message, name: 'ValidationError', value: SECRET.has(path) ? null : value });
  }

  /** Throws one ValidationError listing every failure, if any. */
  throwIfAny() {
    if (this.list.length) throw ValidationError.fromFieldErrors(this.list);
  }

  /**
   * A string within [min, max] characters, or an entry here. Absent (undefined, or null
   * when required) is "a required field" when required and fine otherwise; anything else
   * that is not a string (null in a partial update, a number, `{ "$ne": "" }`) is a type
   * error, so it never reaches a query.
   */
  string(name: string, value: unknown, options: { required?: boolean; min?: number; max: number; trim?: boolean }): value is string {
    if (value === undefined || (value === null && options.required)) {
      if (options.required) this.add(name, `${name} is a required field`, value);
      return false;
    }
    if (typeof value !== 'string') {
      this.add(name, `${name} must be a \`string\` type`, value);
      return false;
    }
    if (value.length > options.max) {
      // Not echoed: the point of the cap is not to handle that much text.
      this.list.push({ path: [name], message: `${name} must be at most ${options.max} characters`, name: 'ValidationError', value: null });
      return false;
    }
    if (options.min !== undefined && (options.trim ? value.trim() : value).length < options.min) {
      this.add(name, `${name} must be at least ${options.min} characters`, value);
      return false;
    }
    return true;
  }

  boolean(name: string, value: unknown) {
    if (value !== undefined && typeof value !== 'boolean') this.add(name, `${name} must be a \`boolean\` type`, value);
  }
}

export interface AccountFields {
  username?: unknown;
  email?: unknown;
  password?: unknown;
  role?: unknown;
  blocked?: unknown;
  confirmed?: unknown;
  provider?: unknown;
}

/**
 * Checks the account fields present in `fields` (and that the `required` ones are there);
 * throws 400 ValidationError listing every failure.
 */
export function checkAccountFields(fields: AccountFields, required: (keyof AccountFields)[] = []): void {
  const errors = new FieldErrors();
  const need = (name: keyof AccountFields) => required.includes(name);
  if (errors.string('username', fields.username, { required: need('username'), min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH, trim: true })) {
    const reason = unstorableText(fields.username as string);
    if (reason) errors.add('username', `username ${reason}`, null);
  }
  // isEmail caps the length itself; the type check comes first so a non-string never reaches it.
  if (errors.string('email', fields.email, { required: need('email'), max: EMAIL_MAX_LENGTH }) && !isEmail(fields.email as string)) {
    errors.add('email', 'email must be a valid email', fields.email);
  }
  errors.string('password', fields.password, { required: need('password'), min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH });
  errors.boolean('blocked', fields.blocked);
  errors.boolean('confirmed', fields.confirmed);
  if (errors.string('provider', fields.provider, { min: 1, max: PROVIDER_MAX_LENGTH })) {
    const reason = unstorableText(fields.provider as string);
    if (reason) errors.add('provider', `provider ${reason}`, null);
  }
  const role = fields.role;
  if (
    role !== undefined &&
    !(typeof role === 'string' && role.length > 0 && role.length <= 256) &&
    !(typeof role === 'number' && Number.isSafeInteger(role) && role > 0)
  ) {
    errors.add('role', 'role must be a role id or type', typeof role === 'string' ? null : role);
  }
  errors.throwIfAny();
}

/** A required e-mail address (forgot-password); returns it. */
export function checkEmail(value: unknown): string {
  const errors = new FieldErrors();
  if (errors.string('email', value, { required: true, max: EMAIL_MAX_LENGTH }) && !isEmail(value as string))
    errors.add('email', 'email must be a valid email', value);
  errors.throwIfAny();
  return value as string;
}

/** The login body: both present and strings, capped; returns them. */
export function checkCredentials(body: Record<string, unknown>): { identifier: string; password: string } {
  const errors = new FieldErrors();
  errors.string('identifier', body.identifier, { required: true, max: IDENTIFIER_MAX_LENGTH });
  errors.string('password', body.password, { required: true, max: PASSWORD_MAX_LENGTH });
  errors.throwIfAny();
  return { identifier: body.identifier as string, password: body.password as string };
}

/** bcrypt, Strapi's hash, reads 72 bytes of a password: Strapi refuses longer new passwords. */
export const PASSWORD_MAX_BYTES = 72;

/** A new password's yup checks in Strapi's auth schemas: required, a string, at most 72 bytes of UTF-8. */
function newPassword(errors: FieldErrors, name: string, value: unknown): void {
  if (!errors.string(name, value, { required: true, max: Number.MAX_SAFE_INTEGER })) return;
  const text = value as string;
  if (text === '') errors.add(name, `${name} is a required field`, null);
  // More characters than bytes allowed means more bytes too; the length is checked before encoding.
  else if (text.length > PASSWORD_MAX_BYTES || Buffer.byteLength(text) > PASSWORD_MAX_BYTES)
    errors.add(name, `Password must be less than ${PASSWORD_MAX_BYTES + 1} bytes`, null);
}

/** A required string of at most `max` characters (`''` counts as missing, as yup's `required`). */
function requiredString(errors: FieldErrors, name: string, value: unknown, max: number): void {
  if (errors.string(name, value, { required: true, max }) && value === '') errors.add(name, `${name} is a required field`, null);
}

/** Yup's `noUnknown()`: a body with other keys is one error, its secrets not echoed. */
export function checkNoUnknown(body: Record<string, unknown>, allowed: string[]): void {
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length === 0) return;
  const shown = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, SECRET.has(k) ? null : v]));
  throw ValidationError.fromFieldErrors([
    { path: [], message: `this field has unspecified keys: ${unknown.join(', ')}`, name: 'ValidationError', value: shown },
  ]);
}

/**
 * The reset-password body, as Strapi's schema checks it (unknown keys, then every field; the
 * errors in the order yup reports them: `passwordConfirmation`, `code`, then `password`,
 * whose checks finish last). Nothing is looked up before this passes.
 */
export function checkResetPasswordBody(body: Record<string, unknown>): { code: string; password: string } {
  checkNoUnknown(body, ['code', 'password', 'passwordConfirmation']);
  const errors = new FieldErrors();
  confirmation(errors, body);
  requiredString(errors, 'code', body.code, RESET_CODE_MAX_LENGTH);
  newPassword(errors, 'password', body.password);
  errors.throwIfAny();
  return { code: body.code as string, password: body.password as string };
}

/** The change-password body, as Strapi's schema checks it (`passwordConfirmation`, `currentPassword`, then `password`). */
export function checkChangePasswordBody(body: Record<string, unknown>): { currentPassword: string; password: string } {
  checkNoUnknown(body, ['currentPassword', 'password', 'passwordConfirmation']);
  const errors = new FieldErrors();
  confirmation(errors, body);
  requiredString(errors, 'currentPassword', body.currentPassword, PASSWORD_MAX_LENGTH);
  newPassword(errors, 'password', body.password);
  errors.throwIfAny();
  return { currentPassword: body.currentPassword as string, password: body.password as string };
}

/** `passwordConfirmation`: required, and equal to `password` (yup's `oneOf([ref('password')])`). */
function confirmation(errors: FieldErrors, body: Record<string, unknown>): void {
  const value = body.passwordConfirmation;
  if (!errors.string('passwordConfirmation', value, { required: true, max: Number.MAX_SAFE_INTEGER })) return;
  if (value === '') errors.add('passwordConfirmation', 'passwordConfirmation is a required field', null);
  else if (value !== body.password) errors.add('passwordConfirmation', 'Passwords do not match', null);
}

/** The register body's own checks (Strapi's schema; the account checks follow in Users.create): email, username, then password. */
export function checkRegisterBody(body: Record<string, unknown>): { email: string; username: string; password: string } {
  const errors = new FieldErrors();
  if (errors.string('email', body.email, { required: true, max: EMAIL_MAX_LENGTH })) {
    if (body.email === '') errors.add('email', 'email is a required field', '');
    else if (!isEmail(body.email as string)) errors.add('email', 'email must be a valid email', body.email);
  }
  requiredString(errors, 'username', body.username, USERNAME_MAX_LENGTH);
  newPassword(errors, 'password', body.password);
  errors.throwIfAny();
  return { email: body.email as string, username: body.username as string, password: body.password as string };
}
