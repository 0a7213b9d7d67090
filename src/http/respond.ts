/**
 * Responses as Strapi shapes them: JSON with `application/json; charset=utf-8`, the error
 * envelope `{ data: null, error: { status, name, message, details } }`, 204 without a body.
 */
import { FolioError, MethodNotAllowedError } from '../errors';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_TYPE, ...headers } });
}

export const noContent = () => new Response(null, { status: 204 });

export function errorResponse(status: number, name: string, message: string, details: unknown = {}, headers: Record<string, string> = {}) {
  return json({ data: null, error: { status, name, message, details } }, status, headers);
}

/** Any thrown value → an envelope; unknown errors become a bare 500 with no internals. */
export function fromError(error: unknown): Response {
  if (error instanceof MethodNotAllowedError) {
    return errorResponse(405, error.name, error.message, {}, { allow: error.allow.join(', ') });
  }
  if (error instanceof FolioError) return errorResponse(error.status, error.name, error.message, error.details, error.headers);
  console.error('[folio] unexpected error:', error);
  return errorResponse(500, 'InternalServerError', 'Internal Server Error');
}
