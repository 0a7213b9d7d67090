/**
 * Where Strapi 5.54's built-in providers authorize and trade codes (its oauth-connect
 * providers.js, derived from grant's oauth.json): OAuth 2 unless `oauth: 1` (twitter).
 * `[subdomain]` is replaced by the provider's `subdomain` setting (keycloak, cognito, auth0, cas).
 */
export interface ProviderEndpoints {
  oauth: 1 | 2;
  authorize_url: string;
  access_url: string;
  /** OAuth 1's request-token URL. */
  request_url?: string;
  /** How scopes are joined in the authorize URL (`,` unless said). */
  scope_delimiter?: string;
  /** `client_secret_basic`: the client authenticates with HTTP Basic instead of form fields. */
  token_endpoint_auth_method?: 'client_secret_basic';
}

export const PROVIDER_ENDPOINTS: Record<string, ProviderEndpoints> = {
  discord: { oauth: 2, authorize_url: 'https://discord.com/api/oauth2/authorize', access_url: 'https://discord.com/api/oauth2/token', scope_delimiter: ' ' },
  facebook: { oauth: 2, authorize_url: 'https://www.facebook.com/dialog/oauth', access_url: 'https://graph.facebook.com/oauth/access_token' },
  google: { oauth: 2, authorize_url: 'https://accounts.google.com/o/oauth2/v2/auth', access_url: 'https://oauth2.googleapis.com/token', scope_delimiter: ' ' },
  github: { oauth: 2, authorize_url: 'https://github.com/login/oauth/authorize', access_url: 'https://github.com/login/oauth/access_token' },
  microsoft: {
    oauth: 2,
    authorize_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    access_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    scope_delimiter: ' ',
  },
  twitter: {
    oauth: 1,
    request_url: 'https://api.twitter.com/oauth/request_token',
    authorize_url: 'https://api.twitter.com/oauth/authenticate',
    access_url: 'https://api.twitter.com/oauth/access_token',
  },
  instagram: {
    oauth: 2,
    authorize_url: 'https://api.instagram.com/oauth/authorize',
    access_url: 'https://api.instagram.com/oauth/access_token',
    scope_delimiter: ' ',
  },
  vk: { oauth: 2, authorize_url: 'https://oauth.vk.com/authorize', access_url: 'https://oauth.vk.com/access_token' },
  twitch: { oauth: 2, authorize_url: 'https://id.twitch.tv/oauth2/authorize', access_url: 'https://id.twitch.tv/oauth2/token', scope_delimiter: ' ' },
  linkedin: {
    oauth: 2,
    authorize_url: 'https://www.linkedin.com/oauth/v2/authorization',
    access_url: 'https://www.linkedin.com/oauth/v2/accessToken',
    scope_delimiter: ' ',
  },
  cognito: { oauth: 2, authorize_url: 'https://[subdomain]/oauth2/authorize', access_url: 'https://[subdomain]/oauth2/token', scope_delimiter: ' ' },
  reddit: {
    oauth: 2,
    authorize_url: 'https://ssl.reddit.com/api/v1/authorize',
    access_url: 'https://ssl.reddit.com/api/v1/access_token',
    token_endpoint_auth_method: 'client_secret_basic',
  },
  auth0: { oauth: 2, authorize_url: 'https://[subdomain].auth0.com/authorize', access_url: 'https://[subdomain].auth0.com/oauth/token', scope_delimiter: ' ' },
  cas: { oauth: 2, authorize_url: 'https://[subdomain]/oidc/authorize', access_url: 'https://[subdomain]/oidc/token' },
  patreon: {
    oauth: 2,
    authorize_url: 'https://www.patreon.com/oauth2/authorize',
    access_url: 'https://www.patreon.com/api/oauth2/token',
    scope_delimiter: ' ',
  },
  keycloak: {
    oauth: 2,
    authorize_url: 'https://[subdomain]/protocol/openid-connect/auth',
    access_url: 'https://[subdomain]/protocol/openid-connect/token',
    scope_delimiter: ' ',
  },
};

export const withSubdomain = (url: string, subdomain?: string) => (subdomain ? url.replace('[subdomain]', subdomain) : url);
