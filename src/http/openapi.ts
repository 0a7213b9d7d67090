/**
 * The OpenAPI 3.1 document of the content API, generated from the registry with the same
 * TypeBox schemas that check request bodies.
 */
import { visibleScalars, type ScalarField } from '../registry/fields';
import type { AnyModel, Attribute, ContentType, Registry } from '../registry/types';

type Schema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const schemaName = (model: AnyModel) =>
  (model.modelType === 'contentType' ? model.singularName : model.uid).replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string) => (c ?? '').toUpperCase()).replace(/^./, (c) => c.toUpperCase());

const relationInput: Schema = {
  description: 'documentId, list of documentIds, or { connect, disconnect } / { set } with optional positions',
  oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'object' }, { type: 'null' }],
};

function attributeInput(registry: Registry, model: AnyModel, attribute: Attribute): Schema {
  switch (attribute.kind) {
    case 'scalar':
      return { anyOf: [(model.fields[attribute.name] as ScalarField).schema('published'), { type: 'null' }] };
    case 'relation':
      return relationInput;
    case 'media':
      return attribute.multiple ? { type: 'array', items: { type: 'integer' } } : { type: ['integer', 'null'] };
    case 'component': {
      const item = ref(`${schemaName(registry.component(attribute.component)!)}Input`);
      return attribute.repeatable ? { type: 'array', items: item } : { anyOf: [item, { type: 'null' }] };
    }
    case 'dynamiczone':
      return {
        type: 'array',
        items: {
          oneOf: attribute.components.map((uid) => ({
            allOf: [ref(`${schemaName(registry.component(uid)!)}Input`), { type: 'object', properties: { __component: { const: uid } }, required: ['__component'] }],
          })),
        },
      };
  }
}

function inputSchema(registry: Registry, model: AnyModel): Schema {
  const properties: Schema = {};
  const required: string[] = [];
  for (const attribute of Object.values(model.attributes)) {
    properties[attribute.name] = attributeInput(registry, model, attribute);
    if (attribute.required) required.push(attribute.name);
  }
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
}

function outputSchema(model: AnyModel): Schema {
  const properties: Schema = { id: { type: 'integer' } };
  if (model.modelType === 'contentType') properties.documentId = { type: 'string' };
  for (const f of visibleScalars(model)) properties[f.name] = { anyOf: [f.schema('draft'), { type: 'null' }] };
  if (model.modelType === 'contentType') {
    for (const n of ['createdAt', 'updatedAt']) properties[n] = { type: 'string', format: 'date-time' };
    properties.publishedAt = { type: ['string', 'null'], format: 'date-time' };
    if (model.localized) properties.locale = { type: 'string' };
  }
  return { type: 'object', properties, description: 'Relations, media, components and dynamic zones appear when populated.' };
}

const errorSchema = {
  type: 'object',
  properties: {
    data: { type: 'null' },
    error: {
      type: 'object',
      properties: { status: { type: 'integer' }, name: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } },
    },
  },
};

const queryParams = ['fields', 'filters', 'sort', 'pagination', 'populate', 'status', 'locale'].map((name) => ({
  name,
  in: 'query',
  required: false,
  schema: {},
  description: `Strapi REST ${name} parameter (qs bracket syntax)`,
}));

/** POST …/actions/publish|unpublish|discard-draft, on types with draft & publish (src/http/routes/actions.ts). */
function actionPaths(ct: ContentType, base: string, one: Schema, errors: Schema, parameters: Schema[]): Schema {
  if (!ct.draftAndPublish) return {};
  const locale = { name: 'locale', in: 'query', required: false, schema: { type: 'string' }, description: 'A locale code, or * for every locale of the document' };
  const described = { publish: 'Publishes the draft (answers the published version)', unpublish: 'Removes the published version; the draft stays', 'discard-draft': 'Resets the draft to the published version' };
  return Object.fromEntries(
    Object.entries(described).map(([segment, summary]) => [
      `${base}/actions/${segment}`,
      { post: { tags: [ct.displayName], summary, parameters: [...parameters, locale], responses: { '200': one, '404': { description: 'NotFoundError' }, ...errors } } },
    ]),
  );
}

function paths(ct: ContentType): Schema {
  const name = schemaName(ct);
  const tags = [ct.displayName];
  const one = { content: { 'application/json': { schema: { type: 'object', properties: { data: ref(name), meta: { type: 'object' } } } } } };
  const many = {
    content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'array', items: ref(name) }, meta: { type: 'object' } } } } },
  };
  const body = { required: true, content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: ref(`${name}Input`) } } } } };
  const errors = { '400': { description: 'ValidationError', content: { 'application/json': { schema: ref('Error') } } }, '401': { description: 'UnauthorizedError' }, '403': { description: 'ForbiddenError' } };
  const documentId = { name: 'documentId', in: 'path', required: true, schema: { type: 'string' } };
  if (ct.kind === 'singleType') {
    return {
      [`/api/${ct.singularName}`]: {
        get: { tags, parameters: queryParams, responses: { '200': one, '404': { description: 'NotFoundError' }, ...errors } },
        put: { tags, parameters: queryParams, requestBody: body, responses: { '200': one, ...errors } },
        delete: { tags, responses: { '204': { description: 'Deleted' }, ...errors } },
      },
      ...actionPaths(ct, `/api/${ct.singularName}`, one, errors, []),
    };
  }
  return {
    [`/api/${ct.pluralName}`]: {
      get: { tags, parameters: queryParams, responses: { '200': many, ...errors } },
      post: { tags, parameters: queryParams, requestBody: body, responses: { '201': one, ...errors } },
    },
    [`/api/${ct.pluralName}/{documentId}`]: {
      get: { tags, parameters: [documentId, ...queryParams], responses: { '200': one, '404': { description: 'NotFoundError' }, ...errors } },
      put: { tags, parameters: [documentId, ...queryParams], requestBody: body, responses: { '200': one, '404': { description: 'NotFoundError' }, ...errors } },
      delete: { tags, parameters: [documentId], responses: { '204': { description: 'Deleted' }, ...errors } },
    },
    ...actionPaths(ct, `/api/${ct.pluralName}/{documentId}`, one, errors, [documentId]),
  };
}

export function buildOpenApi(registry: Registry): Schema {
  const schemas: Schema = { Error: errorSchema };
  for (const model of [...registry.contentTypes, ...registry.components]) {
    schemas[schemaName(model)] = outputSchema(model);
    schemas[`${schemaName(model)}Input`] = inputSchema(registry, model);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Folio content API', version: '1.0.0', description: 'Strapi v5 REST dialect' },
    components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{}, { bearer: [] }],
    paths: Object.assign({}, ...registry.contentTypes.map(paths)),
  };
}
