/**
 * A fake OAuth 2 provider over HTTPS on 127.0.0.1, shaped like Keycloak (one of Strapi's
 * built-in providers, reached at `https://<subdomain>/protocol/openid-connect/…`): the
 * authorization page approves at once and redirects back with a code, the token endpoint
 * trades a code (with the right client id, secret and redirect URI) for an access token, and
 * userinfo answers the signed-in user's profile for that token. Its certificate is
 * self-signed (test/auth/tls/provider.pem): a client trusts it through NODE_EXTRA_CA_CERTS.
 *
 * Every request is recorded, so a test can check what the client sent (never the user's
 * password: there is none here; the client secret goes to the token endpoint only).
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

export const PROVIDER_CA = resolve(import.meta.dir, '../auth/tls/provider.pem');
const PROVIDER_KEY = resolve(import.meta.dir, '../auth/tls/provider-key.pem');

export interface FakeProfile {
  preferred_username: string;
  email: string;
  email_verified: boolean;
}

export interface FakeProviderOptions {
  clientId: string;
  clientSecret: string;
  /** The realm path under the host: `realms/<realm>` (Keycloak's). */
  realm?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  form?: Record<string, string>;
  authorization?: string;
}

export interface FakeProvider {
  port: number;
  /** Keycloak's `subdomain` setting for this provider: `127.0.0.1:<port>/realms/<realm>`. */
  subdomain: string;
  /** Whom the next authorization signs in. */
  user: FakeProfile;
  /** The next authorization answers `?error=<this>` instead of a code (once). */
  denyNext?: string;
  requests: RecordedRequest[];
  /** Access tokens issued so far. */
  accessTokens: string[];
  close(): void;
}

export function startFakeProvider(options: FakeProviderOptions): FakeProvider {
  const realm = options.realm ?? 'realms/test';
  const codes = new Map<string, { redirectUri: string; user: FakeProfile }>();
  const tokens = new Map<string, FakeProfile>();
  const base = `/${realm}/protocol/openid-connect`;
  const provider: FakeProvider = {
    port: 0,
    subdomain: '',
    user: { preferred_username: 'kc-user', email: 'kc-user@example.com', email_verified: true },
    requests: [],
    accessTokens: [],
    close: () => server.stop(true),
  };
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    tls: { cert: Bun.file(PROVIDER_CA), key: Bun.file(PROVIDER_KEY) },
    async fetch(request) {
      const url = new URL(request.url);
      const query = Object.fromEntries(url.searchParams);
      const recorded: RecordedRequest = { method: request.method, path: url.pathname, query, authorization: request.headers.get('authorization') ?? undefined };
      if (request.method === 'POST') recorded.form = Object.fromEntries(new URLSearchParams(await request.text()));
      provider.requests.push(recorded);

      if (url.pathname === `${base}/auth` && request.method === 'GET') {
        if (query.client_id !== options.clientId || query.response_type !== 'code' || !query.redirect_uri) return json({ error: 'invalid_request' }, 400);
        const back = new URL(query.redirect_uri);
        if (provider.denyNext) {
          back.searchParams.set('error', provider.denyNext);
          back.searchParams.set('error_description', 'The user said no');
          provider.denyNext = undefined;
        } else {
          const code = randomBytes(16).toString('hex');
          codes.set(code, { redirectUri: query.redirect_uri, user: { ...provider.user } });
          back.searchParams.set('code', code);
        }
        if (query.state !== undefined) back.searchParams.set('state', query.state);
        return new Response(null, { status: 302, headers: { location: back.toString() } });
      }

      if (url.pathname === `${base}/token` && request.method === 'POST') {
        const form = recorded.form!;
        const grant = codes.get(form.code ?? '');
        if (form.grant_type !== 'authorization_code' || form.client_id !== options.clientId || form.client_secret !== options.clientSecret) {
          return json({ error: 'invalid_client', error_description: 'Invalid client credentials' }, 401);
        }
        if (!grant || grant.redirectUri !== form.redirect_uri) return json({ error: 'invalid_grant', error_description: 'Code not valid' }, 400);
        codes.delete(form.code!);
        const accessToken = `kc-access-${randomBytes(16).toString('hex')}`;
        tokens.set(accessToken, grant.user);
        provider.accessTokens.push(accessToken);
        return json({
          access_token: accessToken,
          token_type: 'Bearer',
          expires_in: 300,
          refresh_token: `kc-refresh-${randomBytes(8).toString('hex')}`,
          scope: 'openid email profile',
        });
      }

      if (url.pathname === `${base}/userinfo` && request.method === 'GET') {
        const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
        const user = token ? tokens.get(token) : undefined;
        if (!user) return json({ error: 'invalid_token', error_description: 'Token verification failed' }, 401);
        return json({ sub: randomBytes(4).toString('hex'), ...user });
      }
      return json({ error: 'not_found' }, 404);
    },
  });
  provider.port = server.port!;
  provider.subdomain = `127.0.0.1:${server.port}/${realm}`;
  return provider;
}
