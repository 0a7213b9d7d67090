/**
 * One project route as Strapi composes it: the global middlewares of config/middlewares (in
 * order; Strapi's built-in names are Folio's own behaviour already and pass through, except
 * `strapi::errors`, which answers errors where it stands), then the route's info,
 * authentication, authorization (its action must be granted unless `auth: false`; a
 * ForbiddenError or UnauthorizedError thrown further in is answered as ctx.forbidden() /
 * ctx.unauthorized() here, a PolicyError passes), the route's policies, its middlewares, and
 * the handler, whose return value becomes the body when the body is not set.
 */
import { FolioError, ForbiddenError as FolioForbidden, UnauthorizedError as FolioUnauthorized } from '../errors';
import type { Instance } from '../instance';
import type { Logger } from '../log';
import { authState, grantsKey, readableBy } from '../auth/access';
import { adoptAnswer, createContext, errorBody, PassedAnswer, responseOf, type ChainCaller, type IncomingRequest, type ProjectContext } from './context';
import { CAN_READ, CAN_READ_KEY } from './factories';
import { ForbiddenError, HttpError, PolicyError, UnauthorizedError } from './strapi-errors';
import type { ProjectStrapi } from './strapi';

export type Middleware = (ctx: ProjectContext, next: () => Promise<unknown>) => unknown;
export type Policy = (policyContext: ProjectContext, config: unknown, deps: { strapi: ProjectStrapi }) => unknown;

export interface ProjectRoute {
  method: string;
  /** Koa-style path with the API prefix (`/api/articles/:slug`). */
  path: string;
  /** The action granted to roles (`api::article.article.findBySlug`). */
  action: string;
  handler: Function;
  config: Record<string, any>;
  info: Record<string, unknown>;
  policies: { handler: Policy; config: unknown }[];
  middlewares: Middleware[];
  /**
   * A core action whose controller and service are Strapi's own: the chain ends in Folio's REST
   * handler for it (IncomingRequest.core), given the request as the policies and middlewares
   * leave it (ctx.query, ctx.request.body), instead of the controller.
   */
  folioCore?: { uid: string; action: string };
}

export type ComposedChain = (ctx: ProjectContext, last?: () => Promise<unknown>) => Promise<unknown>;

export function compose(middlewares: Middleware[]): ComposedChain {
  return (ctx, last) => {
    let index = -1;
    const dispatch = async (i: number): Promise<unknown> => {
      if (i <= index) throw new Error('next() called multiple times');
      index = i;
      const fn = i === middlewares.length ? last : middlewares[i];
      if (!fn) return undefined;
      return fn(ctx, () => dispatch(i + 1));
    };
    return dispatch(0);
  };
}

/** Strapi's errors middleware: application errors with their status and details, HTTP errors without details, anything else a 500 logged. */
export function errorsMiddleware(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof PassedAnswer) {
        await adoptAnswer(ctx, error.answer);
        return;
      }
      if (error instanceof FolioError) {
        ctx.status = error.status;
        ctx.body = errorBody(error.status, error.name, error.message, error.details ?? {});
        for (const [k, v] of Object.entries(error.headers ?? {})) ctx.set(k, v);
        return;
      }
      if (error instanceof HttpError) {
        ctx.status = error.status;
        ctx.body = errorBody(error.status, error.name, error.status >= 500 ? 'Internal Server Error' : error.message);
        return;
      }
      log.error('unexpected error in project code', { path: ctx.path, error });
      ctx.status = 500;
      ctx.body = errorBody(500, 'InternalServerError', 'Internal Server Error');
    }
  };
}

const isForbidden = (e: unknown) => (e instanceof ForbiddenError && !(e instanceof PolicyError)) || e instanceof FolioForbidden;
const isUnauthorized = (e: unknown) => e instanceof UnauthorizedError || e instanceof FolioUnauthorized;

/** The per-route part of the chain: route info, authenticate, authorize, policies (one step), route middlewares, return body, handler. */
export function routeChain(instance: Instance, strapi: ProjectStrapi, route: ProjectRoute): Middleware[] {
  const authOff = route.config.auth === false;
  const { policies } = route;
  return [
    // Route info, authentication, authorization and policies, in this order, as one step.
    async (ctx, next) => {
      ctx.state.route = { method: route.method, path: route.path, handler: route.action, config: route.config, info: route.info };
      const principal = await instance.access.authenticate(ctx.get('authorization') || undefined);
      const can = await instance.access.grants(principal);
      Object.assign(ctx.state, authState(principal));
      let readable: Set<string> | undefined;
      const readableTypes = () => (readable ??= readableBy(can, instance.registry));
      (ctx.state as any)[CAN_READ] = (uid: string) => readableTypes().has(uid);
      (ctx.state as any)[CAN_READ_KEY] = grantsKey(principal);
      (ctx.state as any)[CALLER] = { principal, can, readableTypes } satisfies ChainCaller;
      // A ForbiddenError or UnauthorizedError from here on (the policies, the middlewares, the handler) is answered here.
      try {
        if (!authOff && !can(route.action)) throw new FolioForbidden();
        for (const { handler, config } of policies) {
          const result = await handler(ctx, config, { strapi });
          if (result !== true && result !== undefined) throw new PolicyError();
        }
        return await next();
      } catch (error) {
        if (isUnauthorized(error)) return ctx.unauthorized();
        if (isForbidden(error)) return ctx.forbidden();
        throw error;
      }
    },
    ...route.middlewares,
    async (ctx, next) => {
      const value = await next();
      if (ctx._untouched === undefined && (ctx.body === undefined || ctx.body === null) && value !== undefined && value !== null) ctx.body = value;
    },
    route.folioCore ? (ctx) => folioAnswer(ctx) : (ctx) => route.handler(ctx),
  ];
}

/** Folio's own answer of a core route, as its controller would give it (an error answer is thrown, as the controller's errors are). */
async function folioAnswer(ctx: ProjectContext): Promise<void> {
  const core = (ctx as { [CORE]?: IncomingRequest['core'] })[CORE];
  if (!core) throw new Error("a core route reached without Folio's handler");
  const caller = (ctx.state as { [CALLER]?: ChainCaller } | undefined)?.[CALLER];
  const answer = await core({ method: ctx.method, query: ctx._touchedQuery, body: ctx.request.body, params: ctx.params, caller });
  if (answer.status >= 400 && ![401, 403].includes(answer.status)) throw new PassedAnswer(answer);
  await adoptAnswer(ctx, answer);
}
const CORE = Symbol('folio.core');
const OWN = Symbol('folio.own');

/** A route of Folio's own a built-in plugin action answers through (`/users/:id`, under the API prefix). */
export interface OwnRoute {
  method: string;
  path: string;
}
/** A built-in plugin action's own routes: app.ts leaves a plugin route still ending in it to Folio's route. */
export const OWN_ROUTES = Symbol('folio.ownRoutes');

/**
 * A built-in plugin controller action (users-permissions' `auth.register`, `user.me`…): called
 * with a ctx (by Folio's chain, or by an extension's wrapper), it answers as Folio's own route
 * for it does, on the ctx's query, body, params and headers, and puts the answer into the ctx
 * (`ctx.status`, `ctx.body`). An error answer is thrown, as Strapi's controllers throw theirs
 * (401 and 403 are set, as Strapi's `ctx.unauthorized()` / `ctx.forbidden()` set them). Of
 * several routes (auth.callback: the login, a provider's callback) the one of the ctx's method
 * whose parameters the ctx has.
 */
export function ownAction(routes: OwnRoute[]): (ctx: ProjectContext) => Promise<void> {
  const action = async (ctx: ProjectContext) => {
    const own = (ctx as { [OWN]?: IncomingRequest['own'] })[OWN];
    if (!own) throw new Error('a built-in plugin action called outside a request');
    const params: Record<string, string> = ctx.params ?? {};
    const fits = (route: OwnRoute) => (route.path.match(/:\w+/g) ?? []).every((name) => params[name.slice(1)] !== undefined);
    const route = routes.find((r) => r.method === ctx.method && fits(r)) ?? routes.find(fits) ?? routes[0]!;
    const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? '')).replace('(.*)', () => params['0'] ?? '');
    const answer = await own({ method: route.method, path, query: ctx.query ?? {}, body: ctx.request.body });
    if (answer.status >= 400 && ![401, 403].includes(answer.status)) throw new PassedAnswer(answer);
    await adoptAnswer(ctx, answer);
  };
  Object.defineProperty(action, OWN_ROUTES, { value: routes, enumerable: false });
  return action;
}
/** The caller the chain authenticated, handed to Folio's core handler (folioAnswer). */
const CALLER = Symbol('folio.caller');

/**
 * Strapi runs config/middlewares around every request of its app, not only the project's
 * routes: the global chain around an answer of Folio's own (`inner`). An error answer (a 400,
 * 413, 429, 5xx: what Strapi throws) passes by the middlewares' code after `await next()`, as
 * a thrown error does; 401, 403 and 404 are set answers there and do not, nor are GraphQL's.
 */
export async function runAround(global: Middleware[], incoming: IncomingRequest, inner: () => Promise<Response>): Promise<Response> {
  const ctx = createContext(incoming);
  if (incoming.own) (ctx as { [OWN]?: IncomingRequest['own'] })[OWN] = incoming.own;
  // GraphQL's errors are its server's own answers (Apollo's, in Strapi), never thrown through the app.
  const thrownOnError = !incoming.url.pathname.startsWith('/graphql');
  await compose(global)(ctx, async () => {
    const answer = await inner();
    if (thrownOnError && answer.status >= 400 && ![401, 403, 404, 405].includes(answer.status)) throw new PassedAnswer(answer);
    await adoptAnswer(ctx, answer);
  });
  return responseOf(ctx);
}

/** Runs a request through the global chain and the route's (composed: ProjectApp.handle), and answers what the ctx holds. */
export async function runRoute(run: ComposedChain, incoming: IncomingRequest): Promise<Response> {
  const ctx = createContext(incoming);
  if (incoming.core) (ctx as { [CORE]?: IncomingRequest['core'] })[CORE] = incoming.core;
  if (incoming.own) (ctx as { [OWN]?: IncomingRequest['own'] })[OWN] = incoming.own;
  await run(ctx);
  return responseOf(ctx);
}
