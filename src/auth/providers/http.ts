/**
 * What the provider flows ask providers over HTTPS, bounded: every call gives up after 10
 * seconds and reads at most 1 MiB of answer. Certificates are checked against the system's
 * CAs and NODE_EXTRA_CA_CERTS (a provider behind a private CA is trusted that way, as in
 * Node). Error messages are the provider's own (`error_description`, `error`, `message`) or
 * the status: never a token or the client secret, which travel only in requests.
 */
import { readAtMost } from '../../streams';

export const PROVIDER_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 1024 * 1024;

/** The body's text, refused past the limit. */
async function boundedText(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > MAX_ANSWER_BYTES) throw new Error('The provider answered too much');
  if (!response.body) return '';
  const bytes = await readAtMost(response.body, MAX_ANSWER_BYTES);
  if (!bytes) throw new Error('The provider answered too much');
  return new TextDecoder().decode(bytes);
}

/** A fetch that gives up after the timeout, with a message that names neither URL nor token. */
export async function providerFetch(url: string | URL, init: RequestInit = {}): Promise<{ response: Response; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new Error('The provider did not answer in time');
    throw new Error(`The provider could not be reached (${(error as Error).message})`);
  }
  return { response, text: await boundedText(response) };
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** A JSON answer (or its text); a failure status is an Error with the provider's message. */
export async function fetchJson(url: string | URL, init: RequestInit = {}): Promise<{ body: any }> {
  const { response, text } = await providerFetch(url, init);
  const body = parsed(text);
  if (!response.ok) {
    const message = typeof body === 'object' && body !== null ? (body as any).error_description || (body as any).error || (body as any).message : body;
    throw new Error(typeof message === 'string' && message ? message.slice(0, 200) : `HTTP ${response.status}`);
  }
  return { body };
}

/** GET with `Authorization: Bearer <token>` and optional query parameters. */
export function bearerGet(url: string, accessToken: string, options: { headers?: Record<string, string>; qs?: Record<string, string> } = {}) {
  const target = new URL(url);
  for (const [key, value] of Object.entries(options.qs ?? {})) target.searchParams.set(key, value);
  return fetchJson(target, { headers: { authorization: `Bearer ${accessToken}`, ...options.headers } });
}
