/**
 * Signing in through a provider, as Strapi 5.54's users-permissions does it (its
 * oauth-connect middleware, `auth.connect`, `auth.callback` and the providers service):
 *
 * 1. `GET /api/connect/:provider` (`start`): the provider must be enabled in the grant
 *    settings; the browser is sent to the provider's authorization page with the provider's
 *    key, scope, `<public url>/api/connect/:provider/callback` as redirect URI and a state;
 * 2. the provider sends the browser back there (`providerCallback`): the state is checked, the
 *    code traded for the provider's tokens (with the secret), kept on the server, and the
 *    browser sent on to the front end's callback URL with an empty query (or `?error=…`);
 * 3. the front end calls `GET /api/auth/:provider/callback` with the same cookie (`signIn`):
 *    the provider's profile gives the e-mail, the account is found or created (`provider`,
 *    `confirmed: true`, the default role), and the answer is a login's.
 *
 * The browser holds a random key only (a cookie the HTTP layer sets); everything else lives
 * in `folio_provider_sessions` for ten minutes. Where Strapi keeps the provider's access
 * token in its session cookie, Folio never sends it to the browser.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../db/database';
import { completeProviderSession, deleteProviderSession, findProviderSession, insertProviderSession } from '../../db/store/provider-sessions';
import { FolioError, ServiceUnavailableError, ValidationError } from '../../errors';
import { isEmail } from '../../text';
import type { AccountFlows, AuthAnswer, FlowContext } from '../account-flows';
import type { Roles } from '../roles';
import type { UsersPermissionsSettings } from '../settings';
import type { GrantProvider } from '../settings-values';
import type { User, Users } from '../users';
import { PROVIDER_ENDPOINTS } from './endpoints';
import { accessToken as oauth1AccessToken, requestToken } from './oauth1';
import { authorizeUrl, exchangeCode, keptTokens, newState, type ProviderConfig } from './oauth2';
import { PROFILES } from './profiles';

/** How long a sign-in may take, from the start and again from the provider's callback. */
export const PROVIDER_SESSION_MS = 10 * 60 * 1000;

const application = (message: string) => new FolioError(400, 'ApplicationError', message);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A URL with this query instead of its own (Strapi's redirectWithPayload: values that are null or undefined left out). */
function withQuery(url: string, payload: Record<string, string | undefined>): string {
  const target = new URL(url);
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(payload)) if (value !== undefined && value !== null) params.set(key, String(value));
  target.search = params.toString();
  return target.toString();
}

/** Strapi's `callback.validate`: a front end's own callback must share the configured one's origin and path. */
function allowedCallback(callback: unknown, configured: string | undefined): string {
  try {
    if (typeof callback !== 'string' || !configured) throw new Error();
    const wanted = new URL(callback);
    const allowed = new URL(configured);
    if (wanted.origin !== allowed.origin || wanted.pathname !== allowed.pathname) throw new Error();
    return callback;
  } catch {
    throw new ValidationError('Invalid callback URL provided', { callback: typeof callback === 'string' ? callback : null });
  }
}

export interface ProviderFlowsDeps {
  db: Database;
  settings: UsersPermissionsSettings;
  users: Users;
  roles: Roles;
  accounts: AccountFlows;
}

export class ProviderFlows {
  /** The clock, in ms since the epoch. */
  now: () => number = Date.now;

  constructor(private deps: ProviderFlowsDeps) {}

  /** `<public url>/api/connect/<provider>/callback`: where the provider sends the browser back. */
  redirectUri(provider: string): string {
    return `${this.deps.settings.publicUrl}/api/connect/${provider}/callback`;
  }

  /** The provider's grant settings, when it is enabled; "This provider is disabled" otherwise (unknown names too). */
  private async enabled(provider: string): Promise<{ grant: Record<string, GrantProvider>; stored: GrantProvider }> {
    const grant = await this.deps.settings.grant();
    const stored = Object.hasOwn(grant, provider) ? grant[provider] : undefined;
    if (!stored?.enabled) throw application('This provider is disabled');
    return { grant, stored };
  }

  private config(provider: string, stored: GrantProvider): ProviderConfig {
    const endpoints = PROVIDER_ENDPOINTS[provider];
    if (!endpoints) throw application('Unknown OAuth provider');
    return { ...endpoints, name: provider, key: stored.key ?? '', secret: stored.secret ?? '', scope: stored.scope, subdomain: stored.subdomain };
  }

  /**
   * Step 1: where to send the browser, and the key of the new sign-in (for its cookie).
   * `callback`: the front end's own callback (`?callback=`), allowed when it shares the
   * configured one's origin and path. `previousKey`: a sign-in this browser had, now replaced.
   */
  async start(provider: string, options: { callback?: unknown; previousKey?: string } = {}): Promise<{ location: string; key: string }> {
    const { stored } = await this.enabled(provider);
    const callback = options.callback === undefined ? null : allowedCallback(options.callback, stored.callback);
    const config = this.config(provider, stored);
    const key = randomBytes(32).toString('base64url');
    let state: string;
    let location: string;
    if (config.oauth === 1) {
      const token = await requestToken(config.request_url!, this.redirectUri(provider), config.key, config.secret).catch((error: Error) => {
        throw application(error.message);
      });
      state = JSON.stringify({ oauth_token: token.oauth_token ?? '', oauth_token_secret: token.oauth_token_secret ?? '' });
      location = `${config.authorize_url}?oauth_token=${encodeURIComponent(token.oauth_token ?? '')}`;
    } else {
      state = newState();
      location = authorizeUrl(config, this.redirectUri(provider), state);
    }
    const now = this.now();
    await this.deps.db.transaction(async (tx) => {
      if (options.previousKey) await deleteProviderSession(tx, sha256(options.previousKey));
      await insertProviderSession(tx, { keyHash: sha256(key), provider, state, callback, response: null, expiresAt: now + PROVIDER_SESSION_MS }, now);
    });
    return { location, key };
  }

  /**
   * Step 2, the provider's redirect back: where to send the browser (the front end's callback,
   * with `?error=…&error_description=…` when something failed, or an empty query).
   */
  async providerCallback(provider: string, key: string | undefined, query: Record<string, unknown>): Promise<{ location: string }> {
    const { stored } = await this.enabled(provider);
    const config = this.config(provider, stored);
    const keyHash = key ? sha256(key) : undefined;
    const session = keyHash ? await findProviderSession(this.deps.db, keyHash, this.now()) : undefined;
    const own = session?.provider === provider ? session : undefined;
    const callbackUrl = own?.callback ?? stored.callback;
    if (!callbackUrl) throw application('Provider callback URL is not configured');
    const finish = async (response: Record<string, unknown> | null) => {
      if (own && keyHash)
        await this.deps.db.transaction((tx) => completeProviderSession(tx, keyHash, response && JSON.stringify(response), this.now() + PROVIDER_SESSION_MS));
    };
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    try {
      let response: Record<string, unknown>;
      if (config.oauth === 1) {
        const request = own?.state ? (JSON.parse(own.state) as { oauth_token: string; oauth_token_secret: string }) : undefined;
        const token = text(query.oauth_token);
        if (!request?.oauth_token || token !== request.oauth_token) throw new Error('OAuth1 token mismatch');
        const answer = await oauth1AccessToken(
          config.access_url,
          config.key,
          config.secret,
          token,
          request.oauth_token_secret,
          text(query.oauth_verifier) ?? '',
        );
        response = keptTokens(provider, 1, answer);
      } else {
        if (query.error !== undefined) {
          await finish(null);
          return { location: withQuery(callbackUrl, { error: text(query.error) ?? String(query.error), error_description: text(query.error_description) }) };
        }
        const code = text(query.code);
        if (!code) throw new Error('OAuth2 missing code parameter');
        // A missing state fails too (not only a different one): no login from another site's link.
        if (!own?.state || text(query.state) !== own.state) throw new Error('OAuth2 state mismatch');
        response = keptTokens(provider, 2, await exchangeCode(config, this.redirectUri(provider), code));
      }
      await finish(response);
      return { location: withQuery(callbackUrl, {}) };
    } catch (error) {
      if (error instanceof ServiceUnavailableError) throw error;
      await finish(null);
      return { location: withQuery(callbackUrl, { error: 'oauth_error', error_description: (error as Error).message }) };
    }
  }

  /**
   * Step 3, `GET /api/auth/:provider/callback` with the sign-in's cookie: the account of the
   * provider's profile, found or created, signed in. Every failure is a 400 ApplicationError
   * with its message, as Strapi answers.
   */
  async signIn(provider: string, key: string | undefined, context: FlowContext = {}): Promise<AuthAnswer> {
    const { grant } = await this.enabled(provider);
    const session = key ? await findProviderSession(this.deps.db, sha256(key), this.now()) : undefined;
    if (!session?.response || session.provider !== provider) throw application('OAuth authentication requires a completed provider session');
    try {
      const user = await this.connect(provider, JSON.parse(session.response) as Record<string, unknown>, grant);
      if (user.blocked) throw new Error('Your account has been blocked by an administrator');
      return await this.deps.accounts.issue(user, context);
    } catch (error) {
      if (error instanceof ServiceUnavailableError) throw error;
      throw application((error as Error).message);
    }
  }

  /** Strapi's providers.connect: the profile's account of this provider, or a new one. */
  private async connect(provider: string, response: Record<string, unknown>, grant: Record<string, GrantProvider>): Promise<User> {
    const accessToken = (response.access_token || response.code || response.oauth_token) as string | undefined;
    if (!accessToken && !response.id_token) throw new Error('No access_token.');
    const lookup = PROFILES[provider];
    if (!lookup) throw new Error('Unknown auth provider');
    const profile = await lookup({ accessToken: accessToken ?? '', response: response as Record<string, any>, grant });
    const email = typeof profile.email === 'string' ? profile.email.toLowerCase() : '';
    if (!email || !isEmail(email)) throw new Error('Email was not available.');
    const advanced = await this.deps.settings.advanced();
    const existing = await this.deps.users.findByEmail(email);
    if (existing?.provider === provider) return existing;
    if (!advanced.allow_register) throw new Error('Register action is actually not available.');
    // Folio keeps e-mails unique whatever unique_email says (docs/configuration.md): another provider's address is taken either way.
    if (existing) throw new Error('Email is already taken.');
    const role = await this.deps.roles.find(advanced.default_role);
    if (!role) throw new Error('Impossible to find the default role');
    const base = (typeof profile.username === 'string' && profile.username.trim()) || email.split('@')[0]!;
    return this.deps.users.createFromProvider({ username: base, email, provider, role: role.type });
  }
}
