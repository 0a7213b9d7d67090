/**
 * One webhook request: the JSON body, `X-Folio-Event`, with a secret `X-Folio-Signature`
 * (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, the Stripe scheme: the
 * timestamp inside the signed text lets receivers refuse replays), the webhook's own headers,
 * and a timeout. It never throws: the outcome is a status or an error message.
 *
 * Redirects are not followed: a 3xx is the attempt's answer (a failed one, like any answer
 * but a 2xx), so the signed body and the webhook's headers only ever go to the URL given.
 * With `refuseAddress` (FOLIO_WEBHOOK_DENY_PRIVATE) the host is resolved here, every address
 * it resolves to is checked, and the request goes to the checked address itself (the URL's
 * name stays in `Host` and, over https, in SNI and the certificate check), so a second,
 * different answer from DNS cannot send it elsewhere (DNS rebinding).
 */
import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { checkServerIdentity } from 'node:tls';
import { literalAddress } from './private-address';

export interface SendTarget {
  url: string;
  secret: string | null;
  headers: Record<string, string>;
}

export interface SendResult {
  /** The HTTP status, or null when no response came (then `error` says why). */
  status: number | null;
  /** Why no response came; with a 3xx status, that the redirect was not followed. */
  error: string | null;
  durationMs: number;
  ok: boolean;
}

export interface SendOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  now?: () => number;
  /** Why an address must not be sent to (undefined: it may); given, the host is resolved and pinned as above. */
  refuseAddress?: (address: string) => string | undefined;
}

/** How much of a redirect's Location the attempt log keeps. */
const LOCATION_SHOWN = 200;

export function signature(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export async function sendWebhook(target: SendTarget, event: string, body: string, options: SendOptions): Promise<SendResult> {
  const now = options.now ?? Date.now;
  // The webhook's own headers first: the event and signature headers cannot be overridden.
  const headers: Record<string, string> = { ...target.headers, 'content-type': 'application/json', 'x-folio-event': event };
  if (target.secret) headers['x-folio-signature'] = signature(target.secret, body, Math.floor(now() / 1000));
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    let url = target.url;
    let tls: { serverName: string; checkServerIdentity: typeof checkServerIdentity } | undefined;
    if (options.refuseAddress) {
      const pinned = await pin(new URL(target.url), options.refuseAddress, signal);
      if ('refused' in pinned) return { status: null, error: pinned.refused, durationMs: elapsed(), ok: false };
      ({ url, tls } = pinned);
      if (pinned.host) headers.host = pinned.host;
    }
    const response = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual', ...(tls ? { tls } : {}) });
    // The answer's body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    const status = response.status;
    const error =
      status >= 300 && status < 400 ? `redirect not followed (Location: ${(response.headers.get('location') ?? 'none').slice(0, LOCATION_SHOWN)})` : null;
    return { status, error, durationMs: elapsed(), ok: status >= 200 && status < 300 };
  } catch (error) {
    const message = timeout.aborted ? `timed out after ${options.timeoutMs} ms` : error instanceof Error ? error.message : String(error);
    return { status: null, error: message, durationMs: elapsed(), ok: false };
  }
}

type Pinned = { url: string; host?: string; tls?: { serverName: string; checkServerIdentity: typeof checkServerIdentity } } | { refused: string };

/** The URL rewritten to the address its host resolves to, once every address was checked; or why not. */
async function pin(url: URL, refuse: (address: string) => string | undefined, signal: AbortSignal): Promise<Pinned> {
  const literal = literalAddress(url.hostname);
  const addresses = literal ? [literal] : (await abortable(lookup(url.hostname, { all: true, verbatim: true }), signal)).map((a) => a.address);
  if (addresses.length === 0) return { refused: `not sent: ${url.hostname} resolves to no address` };
  for (const address of addresses) {
    const why = refuse(address);
    if (why) return { refused: literal ? `not sent: ${address} is ${why}` : `not sent: ${url.hostname} resolves to ${address}, ${why}` };
  }
  if (literal) return { url: url.toString() };
  const name = url.hostname;
  const host = url.host;
  const address = addresses[0]!;
  url.hostname = address.includes(':') ? `[${address}]` : address;
  if (url.protocol !== 'https:') return { url: url.toString(), host };
  // The certificate is checked against the name, not the address; a check of its own also
  // gives the request a connection of its own (none shared with another name at that address).
  return { url: url.toString(), host, tls: { serverName: name, checkServerIdentity: (_hostname, cert) => checkServerIdentity(name, cert) } };
}

/** `promise`, or the signal's abort if that comes first (a lookup takes no signal of its own). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
