/**
 * `@strapi/utils` `errors`: Strapi's application errors with their statuses (the errors
 * middleware's table), as FolioErrors so the envelope is Strapi's, and the HTTP errors of
 * `ctx.throw(status, message)` and the ctx helpers (koa's http-errors: name from the status
 * text, `ImATeapotError` for 418).
 */
import { FolioError } from '../errors';

export class ApplicationError extends FolioError {
  constructor(message = 'An application error occured', details: Record<string, unknown> = {}) {
    super(400, 'ApplicationError', message, details ?? {});
  }
}
const define = (name: string, status: number, defaultMessage: string, base: typeof ApplicationError = ApplicationError) => {
  const Class = class extends base {
    constructor(message = defaultMessage, details: Record<string, unknown> = {}) {
      super(message, details);
      this.name = name;
      this.status = status;
    }
  };
  Object.defineProperty(Class, 'name', { value: name });
  return Class;
};
export const ValidationError = define('ValidationError', 400, 'Validation error');
export const YupValidationError = define('ValidationError', 400, 'Validation error', ValidationError);
export const PaginationError = define('PaginationError', 400, 'Invalid pagination');
export const NotFoundError = define('NotFoundError', 404, 'Entity not found');
export const ForbiddenError = define('ForbiddenError', 403, 'Forbidden access');
export const UnauthorizedError = define('UnauthorizedError', 401, 'Unauthorized');
export const RateLimitError = define('RateLimitError', 429, 'Too many requests, please try again later.');
export const PayloadTooLargeError = define('PayloadTooLargeError', 413, 'Entity too large');
export const PolicyError = define('PolicyError', 403, 'Policy Failed', ForbiddenError);
export const NotImplementedError = define('NotImplementedError', 501, 'This feature is not implemented yet');

/** koa's `ctx.throw` / http-errors: a status, its name and whether it exposes its message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message?: string,
    readonly details?: unknown,
  ) {
    super(message ?? statusText(status));
    this.name = httpErrorName(status);
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a Teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
};

export const statusText = (status: number) => STATUS_TEXT[status] ?? String(status);

/** http-errors' names: the status text as an identifier, `Error` appended (`Not Found` → `NotFoundError`). */
export function httpErrorName(status: number): string {
  const text = STATUS_TEXT[status];
  if (!text) return 'Error';
  const id = text
    .split(' ')
    .map((w) => w.slice(0, 1).toUpperCase() + w.slice(1))
    .join('')
    .replace(/[^ _0-9a-z]/gi, '');
  return id.endsWith('Error') ? id : `${id}Error`;
}

/** The `errors` export of @strapi/utils. */
export const STRAPI_ERRORS = {
  ApplicationError,
  ValidationError,
  YupValidationError,
  PaginationError,
  NotFoundError,
  ForbiddenError,
  UnauthorizedError,
  RateLimitError,
  PayloadTooLargeError,
  PolicyError,
  NotImplementedError,
  HttpError,
};
