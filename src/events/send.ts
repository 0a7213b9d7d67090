/**
 * One webhook request: the JSON body, `X-Folio-Event`, with a secret `X-Folio-Signature`
 * (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, the Stripe scheme: the
 * timestamp inside the signed text lets receivers refuse replays), the webhook's own headers,
 * and a timeout. It never throws: the outcome is a status or an error message.
 *
 * Redirects are not followed: a 3xx is the attempt's answer (a failed one, like any answer
 * but a 2xx), so the signed body and the webhook's headers only ever go to the URL given.
 */
import { createHmac } from 'node:crypto';

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

/** How much of a redirect's Location the attempt log keeps. */
const LOCATION_SHOWN = 200;

export function signature(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export async function sendWebhook(target: SendTarget, event: string, body: string, options: { timeoutMs: number; signal?: AbortSignal; now?: () => number }): Promise<SendResult> {
  const now = options.now ?? Date.now;
  // The webhook's own headers first: the event and signature headers cannot be overridden.
  const headers: Record<string, string> = { ...target.headers, 'content-type': 'application/json', 'x-folio-event': event };
  if (target.secret) headers['x-folio-signature'] = signature(target.secret, body, Math.floor(now() / 1000));
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(target.url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    // The answer's body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    const status = response.status;
    const error = status >= 300 && status < 400 ? `redirect not followed (Location: ${(response.headers.get('location') ?? 'none').slice(0, LOCATION_SHOWN)})` : null;
    return { status, error, durationMs: elapsed(), ok: status >= 200 && status < 300 };
  } catch (error) {
    const message = timeout.aborted ? `timed out after ${options.timeoutMs} ms` : error instanceof Error ? error.message : String(error);
    return { status: null, error: message, durationMs: elapsed(), ok: false };
  }
}
