/**
 * Around every request: a request id (answered in `X-Request-Id`, and named in the log line
 * of an unexpected error) and one log line per request: method, path, status, duration, bytes.
 *
 * The path is logged without its query string. Query strings are where secrets travel in
 * URLs (tokens, confirmation codes, e-mail addresses in filters) and masking known names
 * would miss the next one; the path alone says which route answered. The Authorization
 * header and bodies are never read here.
 */
import type { Logger } from '../log';
import { bytesOf } from './respond';
import { targetStart } from './url';

/** An incoming X-Request-Id is kept only when it is a short token of safe characters (it is echoed and logged). */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Longest path written to a log line (URLs may be 16 KiB). */
const MAX_LOGGED_PATH = 1024;

const ids = new WeakMap<Request, string>();

/** The id given to a request (empty for one that did not pass through `requestLog`). */
export const requestIdOf = (request: Request) => ids.get(request) ?? '';

/** The request id a client sent, when safe, or a new random one. */
export function chooseRequestId(incoming: string | null): string {
  return incoming !== null && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/** The path part of a request URL, without the query string, capped in length. */
function pathOf(url: string): string {
  const start = targetStart(url);
  if (start < 0) return '/';
  const query = url.indexOf('?', start);
  const path = url.slice(start, query < 0 ? undefined : query);
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
}

/** Bytes of the body sent: known for JSON answers and served files; `undefined` for a stream of unknown length. */
function bodyLength(request: Request, response: Response): number | undefined {
  if (request.method === 'HEAD') return 0;
  const bytes = bytesOf(response);
  if (bytes) return bytes.length;
  if (response.body === null || response.status === 304 || response.status === 204) return 0;
  const declared = response.headers.get('content-length');
  return declared === null ? undefined : Number(declared);
}

/** Sets a header even on a Response whose headers are immutable (then a copy is answered). */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}

type Handler = (request: Request) => Response | Promise<Response>;

/**
 * Wraps the app's whole fetch handler (routes, 404s, errors and answers given before routing
 * alike). Duration is until the answer is ready to send; a served file streams after that.
 */
export function requestLog(log: Logger) {
  // Elysia types the wrapped handler loosely (`Function`); it is the app's fetch handler.
  return (next: (...args: unknown[]) => unknown) => {
    const handle = next as Handler;
    return async (request: Request): Promise<Response> => {
      const start = performance.now();
      const id = chooseRequestId(request.headers.get('x-request-id'));
      ids.set(request, id);
      const response = withHeader(await handle(request), 'x-request-id', id);
      const level = response.status >= 500 ? 'error' : 'info';
      if (log.enabled(level)) {
        const ms = Math.round((performance.now() - start) * 100) / 100;
        const bytes = bodyLength(request, response);
        const path = pathOf(request.url);
        if (log.format === 'json') {
          log.log(level, 'request', { requestId: id, method: request.method, path, status: response.status, durationMs: ms, bytes });
        } else {
          log.log(level, `${request.method} ${path} ${response.status} ${ms}ms ${bytes ?? '-'}B${level === 'error' ? ` id=${id}` : ''}`);
        }
      }
      return response;
    };
  };
}
