/**
 * What the users & permissions plugin's routes share (auth.ts: /api/auth/*, users.ts:
 * /api/users*, roles.ts: /api/users-permissions/*). They answer as Strapi's plugin does:
 * bare objects and arrays (no `{ data }`), errors in the envelope.
 */
import type { Principal } from '../../auth/access';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../errors';
import { readJsonBody } from '../body';
import type { Guard } from '../guard';

export type Body = Record<string, unknown>;

/**
 * With a project: its answer when one of its routes takes this request (an extension replaced
 * the action, or put policies or middlewares on its route), else undefined and Folio's route
 * answers (http/routes/project.ts projectAnswer).
 */
export type ProjectFirst = (request: Request) => Promise<Response> | undefined;

/** The guard, for the plugin's actions named without their prefix (`user.me`: `plugin::users-permissions.user.me`). */
export const pluginGuard = (allow: Guard) => (request: Request, action: string) => allow(request, `plugin::users-permissions.${action}`);

/** A JSON object body, refused (400) when missing or holding keys outside `allowed`. */
export async function objectBody(request: Request, bodyLimit: number, allowed?: string[]): Promise<Body> {
  const data = await readJsonBody(request, bodyLimit);
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ValidationError('Missing request body');
  if (allowed) {
    const extra = Object.keys(data).filter((k) => !allowed.includes(k));
    if (extra.length) throw new ValidationError(`Invalid parameters: ${extra.join(', ')}`);
  }
  return data as Body;
}

/** The user behind a JWT; other callers (API tokens, anonymous) have no account here: 401. */
export function userOf(principal: Principal) {
  if (principal.kind !== 'user') throw new UnauthorizedError();
  return principal.user;
}

/** A numeric path id; anything else names nothing (404, not a database error). */
export function numericId(raw: string): number {
  if (!/^\d+$/.test(raw)) throw new NotFoundError();
  return Number(raw);
}
