/**
 * /api/auth/*: login, registration, passwords and e-mail confirmation. Each route guards its
 * action, reads the body and calls the flow (auth/account-flows.ts); the rules live there.
 *
 * Rate limits (instance.authLimiter), on Strapi's routes and keys: `/auth/local`,
 * `/auth/reset-password` and `/auth/change-password` per client address and path, before
 * anything else runs, authentication included (guessing passwords or codes is the threat);
 * `/auth/local/register`, `/auth/forgot-password` and `/auth/send-email-confirmation` per
 * client address, path and the body's e-mail, so one client may act for another address.
 * The confirmation link, refresh, logout and sessions are not limited.
 *
 * Refresh mode (`jwtManagement: 'refresh'`): a login (password or provider) answers a refresh
 * token beside the access JWT, in the body, or in the httpOnly `strapi_up_refresh` cookie when
 * `sessions.httpOnly` is set or the request says `X-Strapi-Refresh-Cookie: httpOnly`; register
 * and password changes answer it in the body always, as Strapi's; refresh and logout read that
 * cookie before the body. In legacy-support mode those routes are 404.
 */
import { Elysia } from 'elysia';
import type { AuthAnswer, FlowContext } from '../../auth/account-flows';
import type { Instance } from '../../instance';
import { readJsonBody } from '../body';
import { writerOf, type Caller, type Guard } from '../guard';
import { parseQueryString } from '../query-string';
import { clientAddress } from '../rate-limit';
import { json } from '../respond';
import { overHttps, readCookie, refreshCookie, refreshCookieName, setCookie } from '../cookies';
import { PROVIDER_SESSION_MS } from '../../auth/providers/connect';
import { objectBody, pluginGuard, userOf, type Body, type ProjectFirst } from './users-permissions';

/** Limited per client address and path alone (their bodies carry no e-mail to key on); `/api/connect/*` too. */
const LIMITED = new Set(['/api/auth/local', '/api/auth/reset-password', '/api/auth/change-password']);

/** The cookie holding a provider sign-in's key (its state lives on the server: auth/providers/connect.ts). */
const CONNECT_COOKIE = 'folio_connect';

type Server = { requestIP(request: Request): { address: string } | null } | null | undefined;

export function authRoutes(instance: Instance, allow: Guard, projectFirst?: ProjectFirst) {
  const { accounts, config, authLimiter } = instance;
  const { sessions: sessionSettings } = instance.usersPermissions.plugin;
  const guarded = pluginGuard(allow);
  const body = (request: Request) => objectBody(request, config.bodyLimit);
  const addressOf = (request: Request, server: Server) => clientAddress(request, server?.requestIP(request)?.address, config.trustProxy);
  /** What a flow needs of the request: the user agent (session metadata) and, once the guard has passed, who asks (audit). */
  const context = (request: Request, caller?: Caller, server?: Server): FlowContext => ({
    userAgent: request.headers.get('user-agent'),
    ...(caller ? { actor: writerOf(caller, request, server ?? null, config.trustProxy) } : {}),
  });

  /**
   * A route limited per e-mail: the body is read first (bounded by the body limit) to key on
   * its `email`; a body that cannot be read still counts, under no e-mail, before it is refused.
   */
  const emailLimited = async (request: Request, server: Server, path: string): Promise<Body> => {
    let data: Body;
    try {
      data = await body(request);
    } catch (error) {
      await authLimiter.hit(addressOf(request, server), path, 'unknownIdentifier');
      throw error;
    }
    const email = typeof data.email === 'string' && data.email !== '' ? data.email.toLowerCase() : 'unknownIdentifier';
    await authLimiter.hit(addressOf(request, server), path, email);
    return data;
  };

  /** A 302, as koa's redirect answers it (the URL is the provider's or the configured front end's). */
  const redirect = (location: string, headers: Record<string, string> = {}) =>
    new Response(`Redirecting to ${location}.`, {
      status: 302,
      headers: { location, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers },
    });

  /** Whether this request's refresh token travels in the cookie (the setting, or the request's header). */
  const inCookie = (request: Request) => sessionSettings.httpOnly || request.headers.get('x-strapi-refresh-cookie') === 'httpOnly';

  /** A login's answer: the refresh token (refresh mode) moved into the cookie when the cookie mode applies. */
  const signedIn = (request: Request, answer: AuthAnswer | { user: unknown }): Response => {
    if (!('refreshToken' in answer) || answer.refreshToken === undefined || !inCookie(request)) return json(answer);
    const { refreshToken, ...rest } = answer;
    return json(rest, 200, { 'set-cookie': refreshCookie(request, sessionSettings, config.trustProxy, refreshToken) });
  };

  /** The refresh token of a request: the cookie first, then the body's `refreshToken` (Strapi's order). */
  const refreshTokenOf = (request: Request, data: Body | undefined) => readCookie(request, refreshCookieName(sessionSettings)) ?? data?.refreshToken;

  /** An optional JSON body (refresh and logout take none too). */
  const optionalBody = async (request: Request): Promise<Body | undefined> => {
    const data = await readJsonBody(request, config.bodyLimit);
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Body) : undefined;
  };

  /** The signed-in user and the session its access token belongs to. */
  const signedInUser = async (request: Request, action: string) => {
    const { principal } = await guarded(request, action);
    return { user: userOf(principal), sessionId: principal.kind === 'user' ? principal.sessionId : undefined };
  };

  return new Elysia({ name: 'users-permissions:auth' })
    .onBeforeHandle(({ request }) => projectFirst?.(request))
    .onBeforeHandle(async ({ request, server, path }) => {
      const normal = path.toLowerCase().replace(/\/+$/, '');
      if (LIMITED.has(normal) || normal.startsWith('/api/connect/')) await authLimiter.hit(addressOf(request, server), path);
    })
    .get('/api/connect/:provider', async ({ request, params }) => {
      await guarded(request, 'auth.connect');
      const query = parseQueryString(request.url);
      const { location, key } = await instance.providers.start(params.provider, { callback: query.callback, previousKey: readCookie(request, CONNECT_COOKIE) });
      const cookie = setCookie(CONNECT_COOKIE, key, {
        path: '/api',
        sameSite: 'lax',
        maxAge: PROVIDER_SESSION_MS,
        secure: overHttps(request, config.trustProxy),
      });
      return redirect(location, { 'set-cookie': cookie });
    })
    .get('/api/connect/:provider/callback', async ({ request, params }) => {
      await guarded(request, 'auth.connect');
      const query = parseQueryString(request.url);
      const { location } = await instance.providers.providerCallback(params.provider, readCookie(request, CONNECT_COOKIE), query);
      return redirect(location);
    })
    .get('/api/auth/:provider/callback', async ({ request, params }) => {
      await guarded(request, 'auth.callback');
      // `local` is the password login, which a GET carries no body for: its "required" errors, as Strapi's.
      if (params.provider === 'local') return signedIn(request, await accounts.login({}, context(request)));
      return signedIn(request, await instance.providers.signIn(params.provider, readCookie(request, CONNECT_COOKIE), context(request)));
    })
    .post(
      '/api/auth/local',
      async ({ request }) => {
        await guarded(request, 'auth.callback');
        // No body, or not an object, is a login without its fields: yup's two "required" errors, as Strapi's.
        const data = await readJsonBody(request, config.bodyLimit);
        return signedIn(request, await accounts.login(data && typeof data === 'object' && !Array.isArray(data) ? (data as Body) : {}, context(request)));
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/local/register',
      async ({ request, server, path }) => {
        const data = await emailLimited(request, server, path);
        const caller = await guarded(request, 'auth.register');
        // Strapi's register answers the refresh token in the body whatever the cookie mode (only login and providers set the cookie).
        return json(await accounts.register(data, context(request, caller, server)));
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/change-password',
      async ({ request, server }) => {
        const caller = await guarded(request, 'auth.changePassword');
        return json(await accounts.changePassword(userOf(caller.principal), await body(request), context(request, caller, server)));
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/forgot-password',
      async ({ request, server, path }) => {
        const data = await emailLimited(request, server, path);
        await guarded(request, 'auth.forgotPassword');
        return json(await accounts.forgotPassword(data));
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/reset-password',
      async ({ request, server }) => {
        const caller = await guarded(request, 'auth.resetPassword');
        return json(await accounts.resetPassword(await body(request), context(request, caller, server)));
      },
      { parse: 'none' },
    )
    .get('/api/auth/email-confirmation', async ({ request }) => {
      await guarded(request, 'auth.emailConfirmation');
      const confirmed = await accounts.emailConfirmation(parseQueryString(request.url).confirmation);
      return redirect(confirmed.redirect);
    })
    .post(
      '/api/auth/refresh',
      async ({ request }) => {
        await guarded(request, 'auth.refresh');
        const data = await optionalBody(request);
        const tokens = await accounts.refresh(refreshTokenOf(request, data));
        if (!inCookie(request)) return json(tokens);
        return json({ jwt: tokens.jwt }, 200, { 'set-cookie': refreshCookie(request, sessionSettings, config.trustProxy, tokens.refreshToken) });
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/logout',
      async ({ request }) => {
        const { user, sessionId } = await signedInUser(request, 'auth.logout');
        const data = (await optionalBody(request)) ?? {};
        const answer = await accounts.logout(user, sessionId, { scope: data.scope, deviceId: data.deviceId, refreshToken: refreshTokenOf(request, data) });
        return inCookie(request) ? json(answer, 200, { 'set-cookie': refreshCookie(request, sessionSettings, config.trustProxy, null) }) : json(answer);
      },
      { parse: 'none' },
    )
    .get('/api/auth/sessions', async ({ request }) => {
      const { user, sessionId } = await signedInUser(request, 'auth.getSessions');
      return json(await accounts.listSessions(user, sessionId));
    })
    .delete('/api/auth/sessions/:sessionId', async ({ request, params }) => {
      const { user } = await signedInUser(request, 'auth.revokeSession');
      return json(await accounts.revokeSession(user, params.sessionId));
    })
    .post(
      '/api/auth/send-email-confirmation',
      async ({ request, server, path }) => {
        const data = await emailLimited(request, server, path);
        await guarded(request, 'auth.sendEmailConfirmation');
        return json(await accounts.sendEmailConfirmation(data));
      },
      { parse: 'none' },
    );
}
