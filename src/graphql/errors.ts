/**
 * Errors as `@strapi/plugin-graphql` reports them (its formatGraphqlError): a resolver's error
 * keeps graphql-js's message, locations and path, and gains `extensions.code` and
 * `extensions.error { name, message, details }`: FORBIDDEN (forbidden or unauthorized),
 * BAD_USER_INPUT (validation), STRAPI_<NAME> for other application errors (e.g.
 * STRAPI_PAGINATION_ERROR). Anything unexpected is logged and answered as a bare
 * "Internal Server Error" (INTERNAL_SERVER_ERROR) that leaks nothing.
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { FolioError } from '../errors';

/** Strapi's GraphQL message for a field the caller may not use. */
export class GraphqlForbiddenError extends FolioError {
  constructor(message = 'Forbidden access') {
    super(403, 'ForbiddenError', message);
  }
}

/** lodash's snakeCase upper-cased: `PaginationError` → `PAGINATION_ERROR`. */
const codeOf = (name: string) =>
  `STRAPI_${name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase()}`;

function codeFor(error: FolioError): string {
  if (error.status === 401 || error.status === 403) return 'FORBIDDEN';
  if (error.name === 'ValidationError') return 'BAD_USER_INPUT';
  return codeOf(error.name);
}

/** One error of an execution result, formatted for the answer. */
export function formatError(error: GraphQLError, report: (error: unknown) => void): GraphQLFormattedError {
  const original = error.originalError;
  if (!original || original instanceof GraphQLError) return error.toJSON();
  if (original instanceof FolioError) {
    // As Strapi's: message and path (no locations), then the code and the error as REST names it.
    return {
      message: original.message,
      ...(error.path ? { path: error.path } : {}),
      extensions: { code: codeFor(original), error: { name: original.name, message: original.message, details: original.details } },
    };
  }
  report(original);
  return { message: 'Internal Server Error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}
