/**
 * What every /admin/api/settings route and /admin/api/files route starts with: the session's
 * admin (401 without), the area its role may reach (403 otherwise: an Editor never reaches
 * settings), and on writes the CSRF checks. Plus the small readers of bodies and path
 * parameters they share, so bad input is always a 400 envelope, never a thrown TypeError.
 */
import { ForbiddenError, ValidationError } from '../../errors';
import type { Instance } from '../../instance';
import { readJsonBody } from '../../http/body';
import { unstorableText } from '../../text';
import { adminMay, type AdminAccounts, type AdminUser } from '../accounts';
import { checkCsrf } from '../csrf';
import { requireAdmin } from '../session';

export type Body = Record<string, unknown>;

export function gate(instance: Instance, accounts: AdminAccounts, area: 'settings' | 'media') {
  return async (request: Request): Promise<AdminUser> => {
    const { user, token } = await requireAdmin(accounts, request);
    if (!adminMay(user.role, area)) throw new ForbiddenError(area === 'settings' ? 'Only a Super Admin may change settings' : 'Forbidden');
    if (request.method !== 'GET' && request.method !== 'HEAD') checkCsrf(request, token, instance.config.trustProxy);
    return user;
  };
}

/** The JSON object a write sends (400 for anything else). */
export async function bodyOf(request: Request, limit: number): Promise<Body> {
  const body = await readJsonBody(request, limit);
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('Expected a JSON object in the request body');
  return body as Body;
}

/** A field error as the app shows it at its control. */
export const fieldError = (path: string, message: string) => new ValidationError(message, { errors: [{ path: [path], message }] });

/** A text field: absent is `undefined` unless required; wrong types, NUL and over-long text are 400s naming the field. */
export function text(body: Body, name: string, options: { required?: boolean; max?: number } = {}): string | undefined {
  const value = body[name];
  if (value === undefined || value === null || value === '') {
    if (options.required) throw fieldError(name, `${name} is required`);
    return undefined;
  }
  if (typeof value !== 'string') throw fieldError(name, `${name} must be a string`);
  const why = unstorableText(value);
  if (why) throw fieldError(name, `${name}: ${why}`);
  if (value.length > (options.max ?? 255)) throw fieldError(name, `${name} must be at most ${options.max ?? 255} characters`);
  return value;
}

/** A list of strings (400 naming the field otherwise). */
export function strings(body: Body, name: string): string[] {
  const value = body[name] ?? [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || unstorableText(v))) throw fieldError(name, `${name} must be a list of strings`);
  return value as string[];
}

/** A positive integer id from the path (anything else matches nothing: 404 by the caller). */
export function idParam(raw: string): number | undefined {
  return /^\d{1,10}$/.test(raw) && Number(raw) <= 2 ** 31 - 1 && Number(raw) > 0 ? Number(raw) : undefined;
}

/** A path parameter as text: percent-decoded once, refused when it holds what no column can. */
export function nameParam(raw: string): string {
  let name = raw;
  try {
    if (raw.includes('%')) name = decodeURIComponent(raw);
  } catch {
    throw new ValidationError('Invalid path parameter');
  }
  if (unstorableText(name)) throw new ValidationError('Invalid path parameter');
  return name;
}
