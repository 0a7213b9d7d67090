/**
 * Errors the domain throws, named and numbered as Strapi's. The HTTP layer turns any of
 * them into `{ data: null, error: { status, name, message, details } }`; the CLI prints
 * the message. Nothing here knows about HTTP frameworks.
 */

export class FolioError extends Error {
  constructor(
    public status: number,
    name: string,
    message: string,
    public details: Record<string, unknown> = {},
    /** Extra response headers the HTTP layer sends with the envelope (e.g. `Retry-After`). */
    public headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = name;
  }
}

/** One failed check inside a body, as Strapi lists them in `details.errors`. */
export interface FieldError {
  path: (string | number)[];
  message: string;
  name: 'ValidationError';
  value: unknown;
}

export class ValidationError extends FolioError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(400, 'ValidationError', message, details);
  }

  /** Several field errors at once; the message is the only one or "N errors occurred". */
  static fromFieldErrors(errors: FieldError[]): ValidationError {
    const message = errors.length === 1 ? errors[0]!.message : `${errors.length} errors occurred`;
    return new ValidationError(message, { errors });
  }

  /** `Invalid key x` for a key the caller may not use (unknown, private, not writable). */
  static invalidKey(key: string, source: 'body' | 'query', extra: Record<string, unknown> = {}): ValidationError {
    const path = (extra.path as string | null | undefined) ?? null;
    const message = path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`;
    return new ValidationError(message, { key, path, source, ...extra });
  }
}

export class PaginationError extends FolioError {
  constructor(message: string) {
    super(400, 'PaginationError', message);
  }
}

export class NotFoundError extends FolioError {
  constructor(message = 'Not Found') {
    super(404, 'NotFoundError', message);
  }
}

export class ForbiddenError extends FolioError {
  constructor(message = 'Forbidden') {
    super(403, 'ForbiddenError', message);
  }
}

export class UnauthorizedError extends FolioError {
  constructor(message = 'Missing or invalid credentials') {
    super(401, 'UnauthorizedError', message);
  }
}

export class PayloadTooLargeError extends FolioError {
  constructor(message = 'Entity too large') {
    super(413, 'PayloadTooLargeError', message);
  }
}

export class MethodNotAllowedError extends FolioError {
  constructor(public allow: string[]) {
    super(405, 'MethodNotAllowedError', 'Method Not Allowed', {});
  }
}

/** Too many requests from one client; `Retry-After` says when to try again. */
export class RateLimitError extends FolioError {
  constructor(retryAfterSeconds: number, message = 'Too many requests, please try again later.') {
    super(429, 'RateLimitError', message, {}, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** A write that could not complete right now (e.g. contention that outlasted every retry); safe to retry. */
export class ServiceUnavailableError extends FolioError {
  constructor(message = 'Service temporarily unavailable, please retry', retryAfterSeconds = 1) {
    super(503, 'ServiceUnavailableError', message, {}, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
