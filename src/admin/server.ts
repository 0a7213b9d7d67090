/**
 * Folio Admin over HTTP: the app's pages and assets under /admin (every page path answers
 * the app's HTML, so each view is deep-linkable), and its own API under /admin/api, which
 * only an admin session cookie opens (an Authorization header is never read here) and the
 * content API never honours. An HTTP layer beside src/http/: it calls the same services.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Elysia } from 'elysia';
import { NotFoundError } from '../errors';
import type { Instance } from '../instance';
import type { Logger } from '../log';
import { readJsonBody } from '../http/body';
import { clientAddress } from '../http/rate-limit';
import { json } from '../http/respond';
import { AdminAccounts, type AdminUser } from './accounts';
import { ADMIN_CSP, assetResponse, pageResponse } from './assets';
import { adminContentRoutes, contentGate } from './content';
import { adminHistoryRoutes } from './history';
import { adminAuditRoutes } from './audit';
import { adminReleaseRoutes } from './releases';
import { adminFileRoutes } from './files';
import { adminSettingsRoutes } from './settings/index';
import { adminUploadRoutes } from './upload';
import { adminProfileRoutes } from './profile';
import { schemaOf } from './schema';
import { adminViewRoutes } from './views';
import { checkCsrf, checkOrigin, csrfToken } from './csrf';
import { clearedCookie, overHttps, requireAdmin, sessionCookie, sessionToken } from './session';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Headers only a proxy (or a client pretending to be behind one) sends: the address, host or path it came through. */
const PROXY_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-server',
  'x-real-ip',
  'via',
  'x-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'x-cluster-client-ip',
  'x-original-forwarded-for',
];

/** `localhost`, `127.0.0.1`, `[::1]`, with or without a port. */
function isLoopbackHost(host: string | null): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

const originHost = (origin: string) => {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
};

type Body = Record<string, unknown>;

async function objectBody(request: Request, limit: number): Promise<Body> {
  const body = await readJsonBody(request, limit);
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}

export function adminRoutes(instance: Instance, log: Logger) {
  const { config, authLimiter } = instance;
  const accounts = new AdminAccounts(instance.db);
  accounts.audit = instance.audit;
  // The first-run form answers from this machine; from elsewhere it needs this code, which
  // only someone who can read the server's log knows. It dies with the process.
  const setupCode = randomBytes(6).toString('hex');
  // Said once the server listens (a start that fails prints only its error), as start-up
  // information: FOLIO_LOG_LEVEL=warn keeps it out, as every other start-up line.
  const announce = () =>
    accounts
      .count()
      .then(
        (n) =>
          n === 0 &&
          log.info(
            `No admin user yet: open /admin from this machine to create one, or enter the one-time code ${setupCode} (or run: folio admin create --email E --password P)`,
          ),
      )
      .catch(() => {});

  /**
   * Whether the request comes from this machine itself: a loopback peer, with none of the
   * headers a proxy adds, addressed to a loopback name. A reverse proxy on the same machine
   * connects from loopback too, and then the request came from anywhere: nginx with only
   * `proxy_set_header X-Real-IP` (or Host, or Via) gives itself away; FOLIO_TRUST_PROXY
   * changes nothing here, since a trusted proxy's requests still come from elsewhere.
   */
  const fromLoopback = (request: Request, peer: string | undefined) =>
    !!peer &&
    LOOPBACK.has(peer) &&
    !PROXY_HEADERS.some((h) => request.headers.has(h)) &&
    isLoopbackHost(request.headers.get('host')) &&
    (!request.headers.has('origin') || isLoopbackHost(originHost(request.headers.get('origin')!)));

  const codeMatches = (code: unknown) =>
    typeof code === 'string' && code.length === setupCode.length && timingSafeEqual(Buffer.from(code), Buffer.from(setupCode));

  /** Logs the user in: a new session, its cookie, and what the app needs to know. */
  async function loggedIn(request: Request, user: AdminUser, peer: string | undefined) {
    const token = await accounts.startSession(user, clientAddress(request, peer, config.trustProxy));
    const secure = overHttps(request, config.trustProxy);
    return json({ data: { user, csrfToken: csrfToken(token), setupRequired: false } }, 200, {
      'set-cookie': sessionCookie(token, secure),
      'cache-control': 'no-store',
    });
  }

  /** Any page path: the app's HTML, with the policy that lets it load its own script and style. */
  const page = ({ request, path, set }: { request: Request; path: string; set: { headers: Record<string, string | number> } }) => {
    if (path.startsWith('/admin/api/') || path.startsWith('/admin/assets/')) throw new NotFoundError();
    set.headers['content-security-policy'] = ADMIN_CSP;
    return pageResponse(request);
  };

  const peerOf = (server: { requestIP(r: Request): { address: string } | null } | null, request: Request) => server?.requestIP(request)?.address;

  return (
    new Elysia({ name: 'admin' })
      .onStart(() => void announce())
      .get('/admin/api/session', async ({ request, server }) => {
        const token = sessionToken(request);
        const user = await accounts.sessionUser(token);
        const setupRequired = !user && (await accounts.count()) === 0;
        return json(
          {
            data: {
              user: user ?? null,
              csrfToken: user && token ? csrfToken(token) : null,
              setupRequired,
              setupNeedsCode: setupRequired && !fromLoopback(request, peerOf(server, request)),
              // "Forgot password?" mails a link, so it is offered only when mail goes out.
              mailConfigured: !!config.smtpUrl,
            },
          },
          200,
          { 'cache-control': 'no-store' },
        );
      })
      .post(
        '/admin/api/setup',
        async ({ request, server }) => {
          const peer = peerOf(server, request);
          await authLimiter.hit(clientAddress(request, peer, config.trustProxy), '/admin/api/setup');
          checkOrigin(request, config.trustProxy);
          const body = await objectBody(request, config.bodyLimit);
          if (!fromLoopback(request, peer) && !codeMatches(body.code)) {
            return json(
              {
                data: null,
                error: {
                  status: 403,
                  name: 'ForbiddenError',
                  message: 'Enter the one-time code from the server log',
                  details: { errors: [{ path: ['code'], message: 'Enter the one-time code from the server log' }] },
                },
              },
              403,
            );
          }
          const ip = clientAddress(request, peer, config.trustProxy);
          const user = await accounts.create({ email: body.email, password: body.password }, { first: true }, { kind: 'public', ip });
          log.info(`admin user created: ${user.email}`);
          return loggedIn(request, user, peer);
        },
        { parse: 'none' },
      )
      .post(
        '/admin/api/login',
        async ({ request, server }) => {
          // Counted before anything else runs, so a guesser pays for every attempt.
          const peer = peerOf(server, request);
          await authLimiter.hit(clientAddress(request, peer, config.trustProxy), '/admin/api/login');
          checkOrigin(request, config.trustProxy);
          const body = await objectBody(request, config.bodyLimit);
          const user = await accounts.verify(body.email, body.password, clientAddress(request, peer, config.trustProxy));
          if (!user) return json({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Invalid email or password', details: {} } }, 401);
          return loggedIn(request, user, peer);
        },
        { parse: 'none' },
      )
      .post(
        '/admin/api/forgot-password',
        async ({ request, server, path }) => {
          const body = await objectBody(request, config.bodyLimit);
          // Per address and e-mail, as users-permissions' forgot-password: one client may not flood one mailbox.
          const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : 'unknownIdentifier';
          await authLimiter.hit(clientAddress(request, peerOf(server, request), config.trustProxy), path, email);
          checkOrigin(request, config.trustProxy);
          if (!config.smtpUrl) {
            return json(
              {
                data: null,
                error: {
                  status: 400,
                  name: 'ApplicationError',
                  message: 'Mail is not configured on this server: run folio admin reset-password --email E --password P',
                  details: {},
                },
              },
              400,
            );
          }
          const reset = await accounts.createResetToken(body.email);
          if (reset) {
            const link = `${instance.usersPermissions.publicUrl}/admin/reset-password?token=${reset.token}`;
            // Not awaited: the answer takes as long whether or not the address is an admin's.
            void instance.email
              .send({
                to: reset.user.email,
                subject: 'Reset your Folio Admin password',
                text: `Someone (hopefully you) asked to reset the password of the Folio Admin account ${reset.user.email}.\n\nSet a new password within the hour:\n\n${link}\n\nIf you did not ask, ignore this mail: the password stays as it is.`,
                secrets: [reset.token],
              })
              .catch((error) => log.error('admin reset mail not sent', { reason: (error as Error).message }));
            log.info(`admin password reset link sent to ${reset.user.email}`);
          }
          // The same answer for any address, so it tells nothing about which are admins'.
          return json({ data: { ok: true } }, 200, { 'cache-control': 'no-store' });
        },
        { parse: 'none' },
      )
      .post(
        '/admin/api/reset-password',
        async ({ request, server, path }) => {
          await authLimiter.hit(clientAddress(request, peerOf(server, request), config.trustProxy), path);
          checkOrigin(request, config.trustProxy);
          const body = await objectBody(request, config.bodyLimit);
          const user = await accounts.resetWithToken(body.token, body.password);
          log.info(`admin password reset: ${user.email}`);
          return loggedIn(request, user, peerOf(server, request));
        },
        { parse: 'none' },
      )
      .post(
        '/admin/api/logout',
        async ({ request }) => {
          const { token } = await requireAdmin(accounts, request);
          checkCsrf(request, token, config.trustProxy);
          await accounts.endSession(token);
          return new Response(null, { status: 204, headers: { 'set-cookie': clearedCookie(overHttps(request, config.trustProxy)) } });
        },
        { parse: 'none' },
      )
      .use(adminContentRoutes(instance, accounts))
      .use(adminHistoryRoutes(instance, accounts))
      .use(adminAuditRoutes(instance, accounts))
      .use(adminReleaseRoutes(instance, accounts))
      .use(adminProfileRoutes(instance, accounts))
      .use(adminViewRoutes(instance, contentGate(accounts, config.trustProxy), schemaOf))
      .use(adminSettingsRoutes(instance, accounts))
      .use(adminFileRoutes(instance, accounts))
      .use(adminUploadRoutes(instance, accounts))
      .get('/admin/assets/:name', ({ params, request, set }) => {
        const response = assetResponse(params.name, request);
        if (!response) throw new NotFoundError();
        set.headers['content-security-policy'] = ADMIN_CSP;
        return response;
      })
      .get('/admin', page)
      .get('/admin/*', page)
      // Unknown API paths are 404 envelopes, never the app's page (a wildcard of its own loses to /admin/*).
      .all('/admin/api/*', () => {
        throw new NotFoundError();
      })
  );
}
