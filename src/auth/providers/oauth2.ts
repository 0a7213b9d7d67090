/**
 * OAuth 2's authorization-code flow as Strapi 5.54 runs it for its built-in providers
 * (oauth-connect/oauth2.js): the authorize URL, the code traded for tokens, and which of the
 * provider's tokens the flow keeps.
 */
import { randomBytes } from 'node:crypto';
import { withSubdomain, type ProviderEndpoints } from './endpoints';
import { providerFetch } from './http';

export interface ProviderConfig extends ProviderEndpoints {
  name: string;
  key: string;
  secret: string;
  scope?: string[] | string;
  subdomain?: string;
}

const formatScope = (scope: string[] | string | undefined, delimiter = ',') =>
  Array.isArray(scope) ? scope.filter(Boolean).join(delimiter) || undefined : scope || undefined;

/** The provider's authorization page for this flow, `state` last (as Strapi appends it). */
export function authorizeUrl(provider: ProviderConfig, redirectUri: string, state: string): string {
  const params = new URLSearchParams({ client_id: provider.key, response_type: 'code', redirect_uri: redirectUri });
  const scope = formatScope(provider.scope, provider.scope_delimiter);
  if (scope) params.set('scope', scope);
  // Instagram's Basic Display takes a numeric app id under another name.
  if (provider.name === 'instagram' && /^\d+$/.test(provider.key)) {
    params.delete('client_id');
    params.set('app_id', provider.key);
    if (scope) params.set('scope', scope.replaceAll(' ', ','));
  }
  return `${withSubdomain(provider.authorize_url, provider.subdomain)}?${params.toString()}&state=${encodeURIComponent(state)}`;
}

export const newState = () => randomBytes(20).toString('hex');

/** Trades the code for the provider's tokens; a refusal is an Error with the provider's message. */
export async function exchangeCode(provider: ProviderConfig, redirectUri: string, code: string): Promise<Record<string, unknown>> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: provider.key,
    client_secret: provider.secret,
  });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (provider.token_endpoint_auth_method === 'client_secret_basic') {
    headers.authorization = `Basic ${Buffer.from(`${provider.key}:${provider.secret}`).toString('base64')}`;
    body.delete('client_id');
    body.delete('client_secret');
  }
  if (provider.name === 'instagram' && /^\d+$/.test(provider.key)) {
    body.delete('client_id');
    body.delete('client_secret');
    body.set('app_id', provider.key);
    body.set('app_secret', provider.secret);
  }
  const { response, text } = await providerFetch(withSubdomain(provider.access_url, provider.subdomain), { method: 'POST', headers, body });
  let output: Record<string, unknown>;
  try {
    output = (response.headers.get('content-type') ?? '').includes('application/json') ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
  } catch {
    output = {};
  }
  if (!response.ok || typeof output !== 'object' || output === null) {
    const message = (output?.error_description || output?.error) as string | undefined;
    throw new Error(typeof message === 'string' && message ? message.slice(0, 200) : `Token exchange failed (${response.status})`);
  }
  return output;
}

/**
 * What the flow keeps of the provider's answer (Strapi's tokensToQueryPayload, then
 * trimGrantSessionResponse): the tokens the profile lookup needs, nothing else.
 */
export function keptTokens(provider: string, oauth: 1 | 2, answer: Record<string, unknown>): Record<string, unknown> {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const raw = (answer ?? {}) as Record<string, unknown>;
  const compact = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  if (oauth === 1) {
    return compact({
      access_token: str(raw.oauth_token),
      access_secret: str(raw.oauth_token_secret),
      raw: str(raw.screen_name) ? { screen_name: raw.screen_name } : undefined,
    });
  }
  switch (provider) {
    case 'cognito':
      return compact({ id_token: str(raw.id_token) });
    case 'vk':
      return compact({
        access_token: str(raw.access_token),
        raw: raw.email != null && raw.user_id != null ? { email: raw.email, user_id: raw.user_id } : undefined,
      });
    default:
      return compact({ access_token: str(raw.access_token), oauth_token: str(raw.oauth_token), id_token: str(raw.id_token) });
  }
}
