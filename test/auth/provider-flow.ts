/**
 * A provider sign-in as a browser and a front end make it, against a Folio serving from a
 * child process (source or compiled binary: NODE_EXTRA_CA_CERTS is read when a process
 * starts) and the fake Keycloak of test/helpers/oauth-provider.ts. Shared by
 * test/auth/providers.test.ts and the binary's test.
 */
import { expect } from 'bun:test';
import net from 'node:net';
import type { FakeProvider } from '../helpers/oauth-provider';
import { PROVIDER_CA } from '../helpers/oauth-provider';
import { runCli, serve, tempDir, type CliOptions, type SpawnedServer } from '../helpers/spawn';

export const CLIENT = { clientId: 'folio-client', clientSecret: 'provider-secret-2f7a' };
export const FRONT_CALLBACK = 'http://front.example/connect/keycloak/redirect';

/** A port nothing listens on right now (bound, then released), for a server whose public URL must be known before it starts. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface FolioWithProvider {
  folio: SpawnedServer;
  /** A full-access API token's key. */
  token: string;
}

/**
 * `folio serve` (or `exe serve`) with keycloak enabled against `provider`, its certificate
 * trusted through NODE_EXTRA_CA_CERTS unless `trust` is false, FOLIO_PUBLIC_URL its own URL.
 */
export async function serveWithProvider(
  provider: FakeProvider,
  options: CliOptions & { trust?: boolean; extraConfig?: Record<string, unknown> } = {},
): Promise<FolioWithProvider> {
  const port = await freePort();
  const data = options.data ?? tempDir();
  const grant = { keycloak: { enabled: true, key: CLIENT.clientId, secret: CLIENT.clientSecret, subdomain: provider.subdomain, callback: FRONT_CALLBACK } };
  const env: Record<string, string> = {
    FOLIO_PUBLIC_URL: `http://127.0.0.1:${port}`,
    FOLIO_USERS_PERMISSIONS_CONFIG: JSON.stringify({ grant, ...options.extraConfig }),
    FOLIO_AUTH_RATE_LIMIT: '10000',
    ...(options.trust === false ? {} : { NODE_EXTRA_CA_CERTS: PROVIDER_CA }),
    ...options.env,
  };
  const common = { ...options, data, env };
  const created = runCli(['token', 'create', '--name', 'provider-test', '--type', 'full-access'], common);
  if (created.code !== 0) throw new Error(`token create: ${created.stderr}`);
  const token = created.stdout.trim().split('\n').at(-1)!;
  const folio = await serve({ ...common, port });
  return { folio, token };
}

/** GET without following redirects, with the cookie jar given (updated from Set-Cookie). */
export async function get(url: string, jar: Map<string, string>, headers: Record<string, string> = {}) {
  const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const response = await fetch(url, {
    redirect: 'manual',
    headers: { ...(cookie ? { cookie } : {}), ...headers },
    tls: { rejectUnauthorized: false },
  } as RequestInit);
  const set = response.headers.get('set-cookie');
  if (set) {
    const [pair] = set.split(';');
    const eq = pair!.indexOf('=');
    jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
  }
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, location: response.headers.get('location'), setCookie: set, body, text };
}

/**
 * The browser's part: `/api/connect/keycloak` → the provider → Folio's callback → the front
 * end's callback URL. Answers the cookie jar and every hop, for the front end's last call.
 */
export async function browserSignIn(folio: SpawnedServer, query = '') {
  const jar = new Map<string, string>();
  const start = await get(`${folio.url}/api/connect/keycloak${query}`, jar);
  expect(start.status).toBe(302);
  const atProvider = await get(start.location!, new Map());
  expect(atProvider.status).toBe(302);
  // The provider sends the browser to FOLIO_PUBLIC_URL, which is this server.
  const back = await get(atProvider.location!, jar);
  expect(back.status).toBe(302);
  return { jar, start, atProvider, back };
}

/** The front end's call after the redirect: `GET /api/auth/keycloak/callback` with the browser's cookie. */
export const frontEndCallback = (folio: SpawnedServer, jar: Map<string, string>, query = '') => get(`${folio.url}/api/auth/keycloak/callback${query}`, jar);
