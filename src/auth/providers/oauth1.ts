/**
 * OAuth 1.0a (RFC 5849) for the one built-in provider that still uses it (twitter), as Strapi
 * 5.54's oauth-connect/oauth1.js: HMAC-SHA1 signed requests for a request token, the access
 * token, and the profile. HMAC-SHA1 is the protocol's signature, not a password hash.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { fetchJson, providerFetch } from './http';

const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.codePointAt(0)!.toString(16).toUpperCase()}`);

interface SignedRequest {
  method: string;
  url: string;
  params?: Record<string, string>;
  consumerKey: string;
  consumerSecret: string;
  token?: string;
  tokenSecret?: string;
}

export function oauth1Header(request: SignedRequest): string {
  const parameters: Record<string, string> = {
    oauth_consumer_key: request.consumerKey,
    oauth_nonce: randomBytes(16).toString('hex'),
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: Math.floor(Date.now() / 1000).toString(),
    oauth_version: '1.0',
    ...(request.token ? { oauth_token: request.token } : {}),
    ...request.params,
  };
  const sorted = Object.keys(parameters).sort();
  const paramString = sorted.map((k) => `${encode(k)}=${encode(parameters[k]!)}`).join('&');
  const base = [request.method.toUpperCase(), encode(request.url), encode(paramString)].join('&');
  const signature = createHmac('sha1', `${encode(request.consumerSecret)}&${encode(request.tokenSecret ?? '')}`)
    .update(base)
    .digest('base64');
  const header = { ...parameters, oauth_signature: signature };
  return `OAuth ${Object.keys(header)
    .sort()
    .map((k) => `${encode(k)}="${encode(header[k as keyof typeof header]!)}"`)
    .join(', ')}`;
}

async function signedPost(request: SignedRequest): Promise<Record<string, string>> {
  const { response, text } = await providerFetch(request.url, { method: 'POST', headers: { authorization: oauth1Header(request) } });
  if (!response.ok) throw new Error(text.slice(0, 200) || `OAuth1 request failed (${response.status})`);
  return Object.fromEntries(new URLSearchParams(text));
}

export const requestToken = (url: string, callback: string, consumerKey: string, consumerSecret: string) =>
  signedPost({ method: 'POST', url, consumerKey, consumerSecret, params: { oauth_callback: callback } });

export const accessToken = (url: string, consumerKey: string, consumerSecret: string, token: string, tokenSecret: string, verifier: string) =>
  signedPost({ method: 'POST', url, consumerKey, consumerSecret, token, tokenSecret, params: { oauth_verifier: verifier } });

/** A signed GET of a JSON resource (query parameters signed apart from the base URL, as RFC 5849 §3.4.1 says). */
export async function signedGet(url: string, qs: Record<string, string>, credentials: Omit<SignedRequest, 'method' | 'url' | 'params'>) {
  const target = new URL(url);
  for (const [k, v] of Object.entries(qs)) target.searchParams.set(k, v);
  const authorization = oauth1Header({ ...credentials, method: 'GET', url: target.origin + target.pathname, params: qs });
  return fetchJson(target, { headers: { authorization } });
}
