/**
 * The one preamble of every protected route: who is calling (401 for a credential that is
 * presented but not valid), then whether they hold the route's action (403). Routes call it
 * first, before they read a body, so a refused request never costs a parse. The caller's
 * grants are looked up once here and answer every later question of the same request
 * (which types populate, filters and sort may reach) without another lookup.
 */
import { actorOf, readableBy, type Principal } from '../auth/access';
import type { Actor } from '../documents/write/context';
import { ForbiddenError } from '../errors';
import type { Instance } from '../instance';
import { clientAddress } from './rate-limit';

export interface Caller {
  principal: Principal;
  /** Content types whose `find` the caller holds, from the grants already read. */
  readableTypes(): Set<string>;
  /** Whether the caller holds an action (from the grants already read). */
  can(action: string): boolean;
}

/**
 * Authenticates the request and authorizes `action` (Strapi's name for it). `known`: the caller
 * a project route's chain already authenticated for this same request (its core handler then
 * only authorizes).
 */
export type Guard = (request: Request, action: string, known?: Caller) => Promise<Caller>;

/** Authenticates the request and reads its grants, for routes that decide per item (GraphQL's fields, the realtime feed's types). */
export type Identify = (request: Request) => Promise<Caller>;

/**
 * Authenticates the request and reads its grants without authorizing one action: for GraphQL,
 * whose fields each name their own (401 for a bad credential all the same).
 */
export function identify({ access, registry }: Pick<Instance, 'access' | 'registry'>): Identify {
  return async (request) => {
    const principal = await access.authenticate(request.headers.get('authorization'));
    const can = await access.grants(principal);
    let readable: Set<string> | undefined;
    return { principal, can, readableTypes: () => (readable ??= readableBy(can, registry)) };
  };
}

export function guard(instance: Pick<Instance, 'access' | 'registry'>): Guard {
  const who = identify(instance);
  return async (request, action, known) => {
    const caller = known ?? (await who(request));
    if (!caller.can(action)) throw new ForbiddenError();
    return caller;
  };
}

/** What Elysia hands a handler as `server`: where a request came from. */
export type PeerSource = { requestIP(request: Request): { address: string } | null } | null | undefined;

/**
 * The actor of a caller's writes, with the client's address (behind a trusted proxy, the one it
 * reports). The address is looked up when first read (the audit log reads it inside the write;
 * with the audit log off nobody does): asking the server for a request's peer costs ~5 µs.
 */
export function writerOf(caller: Pick<Caller, 'principal'>, request: Request, server: PeerSource, trustProxy: boolean): Actor {
  const actor = actorOf(caller.principal);
  let ip: string | undefined;
  let known = false;
  return Object.defineProperty(actor, 'ip', {
    enumerable: true,
    configurable: true,
    get() {
      if (!known) {
        known = true;
        ip = clientAddress(request, server?.requestIP(request)?.address, trustProxy) || undefined;
      }
      return ip;
    },
  });
}
