/**
 * The OpenAPI components every path shares: the error envelope and one response per error
 * status, the list meta, relation input, locales, the auth answers, and the model schemas
 * (codegen/json-schema.ts) with their request and response envelopes.
 */
import { modelSchemas, inputSchema, type Schema, type SchemaContext } from '../../codegen/json-schema';
import { modelNames, nameOf } from '../../codegen/names';
import { USER_UID } from '../../registry/system-models';
import type { Registry } from '../../registry/types';

export type { Schema };

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
export const json = (schema: Schema) => ({ 'application/json': { schema } });

/** The error statuses every operation may answer, with the names Folio gives them. */
export const ERROR_RESPONSES: Record<string, { name: string; description: string }> = {
  '400': { name: 'BadRequest', description: 'ValidationError (bad parameters or body: `details` says which), or ApplicationError' },
  '401': { name: 'Unauthorized', description: 'UnauthorizedError: a bearer token that is invalid, expired or revoked, or none where an account is needed' },
  '403': { name: 'Forbidden', description: 'ForbiddenError: the caller (public role, user role or API token) does not hold the action' },
  '404': { name: 'NotFound', description: 'NotFoundError' },
  '405': { name: 'MethodNotAllowed', description: 'MethodNotAllowedError: another method on a known path (the Allow header lists the right ones)' },
  '413': { name: 'PayloadTooLarge', description: 'PayloadTooLargeError: a JSON body over FOLIO_BODY_LIMIT, or a file over FOLIO_UPLOAD_LIMIT' },
  '429': { name: 'TooManyRequests', description: 'RateLimitError (on /api/auth/*): Retry-After says when to try again' },
  '500': { name: 'InternalServerError', description: 'ApplicationError: an unexpected error, logged with the X-Request-Id of the answer' },
};

/** `{ data: null, error: { status, name, message, details } }`, as every error is answered. */
const ERROR_ENVELOPE: Schema = {
  type: 'object',
  required: ['data', 'error'],
  properties: {
    data: { type: 'null' },
    error: {
      type: 'object',
      required: ['status', 'name', 'message', 'details'],
      properties: { status: { type: 'integer' }, name: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } },
    },
  },
};

function errorResponses(): Schema {
  const retryAfter = { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } };
  const out: Schema = {};
  for (const [status, { name, description }] of Object.entries(ERROR_RESPONSES)) {
    out[name] = { description, content: json(ref('Error')), ...(status === '429' ? { headers: retryAfter } : {}) };
  }
  out.ServiceUnavailable = { description: 'ServiceUnavailableError: the database does not answer', content: json(ref('Error')), headers: retryAfter };
  return out;
}

const PAGE: Schema = {
  type: 'object',
  required: ['page', 'pageSize'],
  properties: { page: { type: 'integer' }, pageSize: { type: 'integer' }, pageCount: { type: 'integer' }, total: { type: 'integer' } },
};
const OFFSET: Schema = {
  type: 'object',
  required: ['start', 'limit'],
  properties: { start: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' } },
};

const SHARED: Schema = {
  Error: ERROR_ENVELOPE,
  Pagination: PAGE,
  PaginationByOffset: OFFSET,
  ListMeta: {
    type: 'object',
    required: ['pagination'],
    properties: {
      pagination: {
        anyOf: [ref('Pagination'), ref('PaginationByOffset')],
        description: 'page/pageSize, or start/limit when the request paged that way; total unless withCount=false',
      },
    },
  },
  RelationInput: {
    description:
      'A documentId or row id, a list of them (replaces the relation), `{ connect, disconnect }` or `{ set }` (items may carry `locale` and a `position` of `before`, `after`, `start` or `end`), or null',
    anyOf: [
      { type: 'string' },
      { type: 'integer' },
      { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'object' }] } },
      {
        type: 'object',
        properties: { connect: { type: 'array', items: {} }, disconnect: { type: 'array', items: {} }, set: { type: 'array', items: {} } },
      },
      { type: 'null' },
    ],
  },
  MorphTarget: {
    type: 'object',
    description: 'A document of any content type (polymorphic relation), naming its type in `__type`',
    required: ['__type', 'id', 'documentId'],
    properties: { __type: { type: 'string', description: 'Content-type uid' }, id: { type: 'integer' }, documentId: { type: 'string' } },
    additionalProperties: true,
  },
  MorphInput: {
    description:
      'Items `{ __type, id }` or `{ __type, documentId }` (with optional `locale`, `status`): one or null (morphToOne), a list that replaces the links, or `{ connect, disconnect, set }` (morphToMany)',
    anyOf: [
      ref('MorphItem'),
      { type: 'array', items: ref('MorphItem') },
      {
        type: 'object',
        properties: {
          connect: { type: 'array', items: ref('MorphItem') },
          disconnect: { type: 'array', items: ref('MorphItem') },
          set: { type: 'array', items: ref('MorphItem') },
        },
      },
      { type: 'null' },
    ],
  },
  MorphItem: {
    type: 'object',
    required: ['__type'],
    properties: {
      __type: { type: 'string' },
      id: { type: 'integer' },
      documentId: { type: 'string' },
      locale: { type: 'string' },
      status: { type: 'string', enum: ['draft', 'published'] },
    },
    additionalProperties: false,
  },
  Locale: {
    type: 'object',
    required: ['id', 'code'],
    properties: {
      id: { type: 'integer' },
      documentId: { type: 'string' },
      name: { type: 'string' },
      code: { type: 'string' },
      isDefault: { type: 'boolean' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      publishedAt: { type: ['string', 'null'], format: 'date-time' },
    },
  },
  AuthResponse: { type: 'object', required: ['jwt', 'user'], properties: { jwt: { type: 'string' }, user: ref('User') } },
  Ok: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean', const: true } } },
  RoleInput: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      description: { type: 'string' },
      permissions: { type: 'object', description: 'The permission tree: { "api::article": { controllers: { article: { find: { enabled: true } } } } }' },
    },
  },
};

/** Every named schema: the shared ones, then each model's, then each content type's envelopes. */
export function componentSchemas(registry: Registry): { schemas: Schema; names: Map<string, string>; responses: Schema } {
  const names = modelNames(registry);
  const ctx: SchemaContext = { registry, names, ref };
  const schemas: Schema = { ...SHARED, ...modelSchemas(ctx) };
  // Users answer with their role when asked (`populate=role`); files answered by the upload route say whether their URL is signed.
  const user = schemas.User as { properties: Schema };
  user.properties.role = { anyOf: [ref('Role'), { type: 'null' }] };
  (schemas.UploadFile as { properties: Schema }).properties.isUrlSigned = { type: 'boolean' };
  const userInput = inputSchema(ctx, registry.contentType(USER_UID)!) as { properties: Schema };
  userInput.properties.password = { type: 'string' };
  userInput.properties.role = { type: 'integer', description: 'A role id' };
  schemas.UserInput = userInput;
  for (const ct of registry.contentTypes) {
    const name = nameOf(names, ct);
    schemas[`${name}Request`] = { type: 'object', required: ['data'], properties: { data: ref(`${name}Input`) } };
    schemas[`${name}Response`] = { type: 'object', required: ['data', 'meta'], properties: { data: ref(name), meta: { type: 'object' } } };
    if (ct.kind === 'collectionType') {
      schemas[`${name}ListResponse`] = {
        type: 'object',
        required: ['data', 'meta'],
        properties: { data: { type: 'array', items: ref(name) }, meta: ref('ListMeta') },
      };
    }
  }
  return { schemas, names, responses: errorResponses() };
}

/** An operation with the error envelope on every error status (merged under its own responses). */
export function operation(op: Schema & { responses: Schema }, errors: string[] = Object.keys(ERROR_RESPONSES)): Schema {
  const responses: Schema = { ...op.responses };
  for (const status of errors) responses[status] ??= responseRef(ERROR_RESPONSES[status]!.name);
  return { ...op, responses };
}
