/**
 * Responses as Strapi shapes them: JSON with `application/json; charset=utf-8`, the error
 * envelope `{ data: null, error: { status, name, message, details } }`, 204 without a body.
 */
import { FolioError, MethodNotAllowedError } from '../errors';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const utf8 = new TextEncoder();

/**
 * The exact bytes of each JSON answer: a 200's ETag is hashed from what is sent (app.ts),
 * and the request log counts them, without reading the body back. Encoding here costs
 * nothing extra, as Bun would encode the string when sending it anyway.
 */
const sentBytes = new WeakMap<Response, Uint8Array>();
export const bytesOf = (response: Response) => sentBytes.get(response);

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return jsonBytes(utf8.encode(JSON.stringify(body)), status, headers);
}

/** A JSON answer from bytes already encoded (a kept answer: http/answer-cache.ts). */
export function jsonBytes(bytes: Uint8Array, status = 200, headers: Record<string, string> = {}): Response {
  // Content-Length written out: Elysia rebuilds error answers into new Responses, and the request log reads it there.
  const response = new Response(bytes, { status, headers: { ...JSON_TYPE, 'content-length': String(bytes.length), ...headers } });
  sentBytes.set(response, bytes);
  return response;
}

export const noContent = () => new Response(null, { status: 204 });

/**
 * A body known whole (a page, an icon, a script) with its Content-Length written out, so
 * the request log can say how many bytes it sent (a Response from bytes does not say).
 */
export function sized(body: Uint8Array | string, init: { status?: number; headers: Record<string, string> }): Response {
  const bytes = typeof body === 'string' ? utf8.encode(body) : body;
  const response = new Response(bytes, { status: init.status ?? 200, headers: { ...init.headers, 'content-length': String(bytes.length) } });
  sentBytes.set(response, bytes);
  return response;
}

export function errorResponse(status: number, name: string, message: string, details: unknown = {}, headers: Record<string, string> = {}) {
  return json({ data: null, error: { status, name, message, details } }, status, headers);
}

/**
 * Any thrown value → an envelope; unknown errors become a bare 500 with no internals, and
 * `report` logs them (app.ts passes one that names the request id).
 */
export function fromError(error: unknown, report: (error: unknown) => void): Response {
  if (error instanceof MethodNotAllowedError) {
    return errorResponse(405, error.name, error.message, {}, { allow: error.allow.join(', ') });
  }
  if (error instanceof FolioError) return errorResponse(error.status, error.name, error.message, error.details, error.headers);
  report(error);
  return errorResponse(500, 'InternalServerError', 'Internal Server Error');
}
