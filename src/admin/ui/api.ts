/**
 * The admin app's one door to Folio: /admin/api on the same origin, the session cookie
 * sent by the browser, the session's CSRF token in a header on every write.
 */
let csrf: string | null = null;

export const setCsrfToken = (token: string | null) => {
  csrf = token;
};

/** The session's CSRF token, for writes that are not JSON (multipart uploads). */
export const currentCsrfToken = () => csrf;

export interface FieldError {
  path: (string | number)[];
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: { errors?: FieldError[] } & Record<string, unknown>,
  ) {
    super(message);
  }
}

export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrf) headers['x-folio-csrf'] = csrf;
  const response = await fetch(`/admin/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (response.status === 204) return null as T;
  const json = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, json?.error?.message ?? response.statusText, json?.error?.details ?? {});
  return json as T;
}

/** The path segment of a content type (its uid holds colons). */
export const uidPath = (uid: string) => encodeURIComponent(uid);
