/**
 * Who a provider's tokens belong to: each built-in provider's profile lookup, as Strapi 5.54's
 * providers-registry.js does it (the same URLs, the same checks that the address is verified,
 * the same messages). Answers `{ username, email }`; throws an Error whose message the sign-in
 * answers as a 400 ApplicationError.
 */
import { createPublicKey } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import type { GrantProvider } from '../settings-values';
import { bearerGet, fetchJson } from './http';
import { signedGet } from './oauth1';

export interface ProviderProfile {
  username?: string;
  email?: string;
}

export interface ProfileInput {
  accessToken: string;
  /** The tokens the flow kept (id_token, access_secret, raw). */
  response: Record<string, any>;
  /** The grant settings of every provider (some lookups need the key or the subdomain). */
  grant: Record<string, GrantProvider>;
}

/** Cognito's ID token, checked against the pool's JWKS (`jwksurl`). */
async function verifiedIdToken(idToken: string, jwksUrl: string): Promise<Record<string, any>> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(idToken).kid;
  } catch {
    kid = undefined;
  }
  if (!kid) throw new Error('The provided token is not valid');
  const { body } = await fetchJson(jwksUrl).catch(() => {
    throw new Error('There was an error verifying the token');
  });
  const jwk = Array.isArray(body?.keys) ? body.keys.find((k: { kid?: string }) => k.kid === kid) : undefined;
  if (!jwk) throw new Error('There was an error verifying the token');
  try {
    const { payload } = await jwtVerify(idToken, createPublicKey({ key: jwk, format: 'jwk' }), { algorithms: ['RS256'] });
    return payload as Record<string, any>;
  } catch {
    throw new Error('There was an error verifying the token');
  }
}

type Lookup = (input: ProfileInput) => Promise<ProviderProfile>;

export const PROFILES: Record<string, Lookup> = {
  async discord({ accessToken }) {
    const { body } = await bearerGet('https://discord.com/api/users/@me', accessToken);
    if (body.verified !== true) throw new Error('Email not verified by Discord');
    return { username: body.discriminator && body.discriminator !== '0' ? `${body.username}#${body.discriminator}` : body.username, email: body.email };
  },
  async facebook({ accessToken }) {
    const { body } = await bearerGet('https://graph.facebook.com/me', accessToken, { qs: { fields: 'name,email' } });
    if (!body.email) throw new Error('Email not verified by Facebook');
    return { username: body.name, email: body.email };
  },
  async google({ accessToken }) {
    const { body } = await fetchJson(`https://oauth2.googleapis.com/tokeninfo?access_token=${encodeURIComponent(accessToken)}`);
    const verified = body.verified_email ?? body.email_verified;
    if (verified !== true && verified !== 'true') throw new Error('Email not verified by Google');
    return { username: String(body.email).split('@')[0], email: body.email };
  },
  async github({ accessToken }) {
    const headers = { 'user-agent': 'strapi' };
    const { body: user } = await bearerGet('https://api.github.com/user', accessToken, { headers });
    const { body: emails } = await bearerGet('https://api.github.com/user/emails', accessToken, { headers });
    if (user.email) {
      const verified = Array.isArray(emails) && emails.find((e: any) => e.email === user.email && e.verified === true);
      if (!verified) throw new Error('Email not verified by GitHub');
      return { username: user.login, email: user.email };
    }
    const primary = Array.isArray(emails) ? emails.find((e: any) => e.primary === true) : null;
    if (primary?.verified !== true) throw new Error('Email not verified by GitHub');
    return { username: user.login, email: primary.email };
  },
  async microsoft({ accessToken }) {
    const { body } = await bearerGet('https://graph.microsoft.com/v1.0/me', accessToken);
    return { username: body.userPrincipalName, email: body.userPrincipalName };
  },
  async twitter({ accessToken, response, grant }) {
    if (!response.access_secret) throw new Error('Twitter authentication requires a completed OAuth session');
    const { body } = await signedGet(
      'https://api.twitter.com/1.1/account/verify_credentials.json',
      { include_email: 'true', ...(response.raw?.screen_name ? { screen_name: response.raw.screen_name } : {}) },
      {
        consumerKey: grant.twitter?.key ?? '',
        consumerSecret: grant.twitter?.secret ?? '',
        token: accessToken,
        tokenSecret: response.access_secret,
      },
    );
    if (!body.email) throw new Error('Email not verified by Twitter');
    return { username: body.screen_name, email: body.email };
  },
  async instagram({ accessToken }) {
    const { body } = await bearerGet('https://graph.instagram.com/me', accessToken, { qs: { fields: 'id,username' } });
    return { username: body.username, email: `${body.username}@strapi.io` };
  },
  async vk({ accessToken, response }) {
    const email = response.raw?.email;
    const userId = response.raw?.user_id;
    if (!email || !userId) throw new Error('VK authentication requires a completed OAuth session');
    const { body } = await bearerGet('https://api.vk.com/method/users.get', accessToken, { qs: { user_ids: String(userId), v: '5.122' } });
    if (!body.response?.[0]) throw new Error('Invalid VK access token');
    return { username: `${body.response[0].last_name} ${body.response[0].first_name}`, email };
  },
  async twitch({ accessToken, grant }) {
    const { body } = await bearerGet('https://api.twitch.tv/helix/users', accessToken, { headers: { 'Client-Id': grant.twitch?.key ?? '' } });
    const email = body.data?.[0]?.email;
    if (!email) throw new Error('Email not verified by Twitch');
    return { username: body.data[0].login, email };
  },
  async linkedin({ accessToken }) {
    const { body: profile } = await bearerGet('https://api.linkedin.com/v2/me', accessToken);
    const { body: emails } = await bearerGet('https://api.linkedin.com/v2/emailAddress?q=members&projection=(elements*(handle~))', accessToken);
    const email = emails.elements?.[0]?.['handle~'];
    if (!email?.emailAddress) throw new Error('Email not verified by LinkedIn');
    return { username: profile.localizedFirstName, email: email.emailAddress };
  },
  async cognito({ response, grant }) {
    if (!response.id_token) throw new Error('Cognito authentication requires a completed OAuth session');
    const jwks = grant.cognito?.jwksurl;
    if (!jwks) throw new Error('There was an error verifying the token');
    const payload = await verifiedIdToken(response.id_token, jwks);
    if (payload.email_verified !== true) throw new Error('Email not verified by Cognito');
    return { username: payload['cognito:username'], email: payload.email };
  },
  async reddit({ accessToken }) {
    const { body } = await bearerGet('https://oauth.reddit.com/api/v1/me', accessToken, { headers: { 'user-agent': 'strapi' } });
    return { username: body.name, email: `${body.name}@strapi.io` };
  },
  async auth0({ accessToken, grant }) {
    const { body } = await bearerGet(`https://${grant.auth0?.subdomain}.auth0.com/userinfo`, accessToken);
    if (body.email && body.email_verified !== true) throw new Error('Email not verified by Auth0');
    const username = body.username || body.nickname || body.name || String(body.email ?? '').split('@')[0];
    return { username, email: body.email || `${String(username).replace(/\s+/g, '.')}@strapi.io` };
  },
  async cas({ accessToken, grant }) {
    const { body } = await bearerGet(`https://${grant.cas?.subdomain}/oidc/profile`, accessToken);
    const a = body.attributes;
    const username = a ? a.strapiusername || body.id || body.sub : body.strapiusername || body.id || body.sub;
    const email = a ? a.strapiemail || a.email : body.strapiemail || body.email;
    const verified = body.email_verified ?? a?.email_verified;
    if (email && verified !== true) throw new Error('Email not verified by CAS');
    return { username, email };
  },
  async patreon({ accessToken }) {
    const { body } = await bearerGet('https://www.patreon.com/api/oauth2/v2/identity?fields[user]=full_name,email,is_email_verified', accessToken);
    const data = body.data?.attributes ?? {};
    if (data.is_email_verified !== true) throw new Error('Email not verified by Patreon');
    return { username: data.full_name, email: data.email };
  },
  async keycloak({ accessToken, grant }) {
    const { body } = await bearerGet(`https://${grant.keycloak?.subdomain}/protocol/openid-connect/userinfo`, accessToken);
    if (body.email_verified !== true) throw new Error('Email not verified by Keycloak');
    return { username: body.preferred_username, email: body.email };
  },
};
