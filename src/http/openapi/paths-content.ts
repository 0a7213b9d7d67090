/**
 * The paths of one content type: list/get/create/update/delete (collection types) or
 * get/put/delete (single types), with the query parameters Folio reads on each, and the
 * document actions (src/http/routes/actions.ts) of types with draft & publish.
 */
import { scalarFieldOf } from '../../registry/fields';
import type { ContentType } from '../../registry/types';
import { json, operation, ref, type Schema } from './schemas';

const queryParameter = (name: string, schema: Schema, description: string, extra: Schema = {}) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
  ...extra,
});

/** What `fields`, `sort` and `filters` may name on a type: shown attributes and system columns. */
function selectable(ct: ContentType): string[] {
  const names = ['id', 'documentId', ...Object.keys(ct.attributes), 'createdAt', 'updatedAt', 'publishedAt', 'locale'];
  return names.filter((n) => scalarFieldOf(ct, n)?.visible === true);
}

function readParameters(ct: ContentType) {
  const out: Schema[] = [
    queryParameter(
      'fields',
      { type: 'array', items: { type: 'string', enum: selectable(ct) } },
      'Attributes to answer (`fields[0]=title&fields[1]=slug`, or `fields=title,slug`); id and documentId always come',
    ),
    queryParameter(
      'populate',
      { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'object' }] },
      'Relations, media, components and dynamic zones to include: `*`, a name, a list, or the object form (`populate[author][fields][0]=name`, `populate[blocks][on][shared.quote]=true`)',
      { style: 'deepObject', explode: true },
    ),
  ];
  if (ct.draftAndPublish) out.push(queryParameter('status', { type: 'string', enum: ['draft', 'published'] }, 'Which version: published (default) or draft'));
  if (ct.localized) out.push(queryParameter('locale', { type: 'string' }, 'A locale code (default: the default locale)'));
  return out;
}

function listParameters(ct: ContentType) {
  const integer = (minimum: number) => ({ type: 'integer', minimum });
  return [
    ...readParameters(ct),
    queryParameter(
      'filters',
      { type: 'object', additionalProperties: true },
      'Conditions in qs bracket syntax: `filters[title][$contains]=x`, `filters[$or][0][views][$gt]=10`, through relations `filters[author][name][$eq]=Ann`',
      { style: 'deepObject', explode: true },
    ),
    queryParameter(
      'sort',
      { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      '`title`, `title:desc`, a list (`sort[0]=views:desc&sort[1]=title`) or `title:asc,views:desc`',
    ),
    queryParameter('pagination[page]', integer(1), 'Page number (with pageSize)'),
    queryParameter('pagination[pageSize]', integer(1), 'Page size (default FOLIO_DEFAULT_LIMIT, at most FOLIO_MAX_LIMIT)'),
    queryParameter('pagination[start]', integer(0), 'Offset (with limit)'),
    queryParameter('pagination[limit]', { type: 'integer' }, 'Number of documents from start'),
    queryParameter('pagination[withCount]', { type: 'boolean' }, 'false leaves total out of meta.pagination'),
    queryParameter('_q', { type: 'string' }, 'Full-text search over the searchable attributes'),
  ];
}

const ACTIONS: Record<string, { summary: string; action: string }> = {
  publish: { summary: 'Publish the draft; answers the published version', action: 'publish' },
  unpublish: { summary: 'Remove the published version; the draft stays and is the answer', action: 'unpublish' },
  'discard-draft': { summary: 'Reset the draft to the published content; answers the draft', action: 'discardDraft' },
};

/**
 * Only on types with draft & publish: elsewhere the routes exist only to answer 400 (the action
 * does not exist there), which would give generated clients methods that can never succeed.
 */
function actionPaths(ct: ContentType, name: string, base: string, pathParameters: Schema[], tags: string[]): Schema {
  if (!ct.draftAndPublish) return {};
  const locale = queryParameter('locale', { type: 'string' }, 'A locale code, or * for every locale of the document');
  const paths: Schema = {};
  for (const [segment, { summary, action }] of Object.entries(ACTIONS)) {
    paths[`${base}/actions/${segment}`] = {
      post: operation({
        tags,
        operationId: `${ct.singularName}.${action}`,
        summary,
        description: `Action ${ct.uid}.${action}.`,
        parameters: [...pathParameters, locale],
        responses: { '200': { description: summary, content: json(ref(`${name}Response`)) } },
      }),
    };
  }
  return paths;
}

export function contentPaths(ct: ContentType, name: string): Schema {
  const tags = [ct.displayName];
  const id = ct.singularName;
  const one = (description: string) => ({ description, content: json(ref(`${name}Response`)) });
  const body = { required: true, content: json(ref(`${name}Request`)) };
  const deleted = { '204': { description: 'Deleted (no body)' } };
  const writeParameters = readParameters(ct);
  if (ct.kind === 'singleType') {
    const base = `/api/${ct.singularName}`;
    return {
      [base]: {
        get: operation({
          tags,
          operationId: `${id}.find`,
          summary: `Get the ${ct.displayName}`,
          parameters: readParameters(ct),
          responses: { '200': one('The document') },
        }),
        put: operation({
          tags,
          operationId: `${id}.update`,
          summary: `Create or update the ${ct.displayName}`,
          parameters: writeParameters,
          requestBody: body,
          responses: { '200': one('The document as saved') },
        }),
        delete: operation({
          tags,
          operationId: `${id}.delete`,
          summary: `Delete the ${ct.displayName}`,
          parameters: writeParameters.filter((p) => p.name === 'locale'),
          responses: deleted,
        }),
      },
      ...actionPaths(ct, name, base, [], tags),
    };
  }
  const base = `/api/${ct.pluralName}`;
  const documentId = { name: 'documentId', in: 'path', required: true, schema: { type: 'string' } };
  return {
    [base]: {
      get: operation({
        tags,
        operationId: `${id}.find`,
        summary: `List ${ct.displayName} documents`,
        parameters: listParameters(ct),
        responses: { '200': { description: 'A page of documents', content: json(ref(`${name}ListResponse`)) } },
      }),
      post: operation({
        tags,
        operationId: `${id}.create`,
        summary: `Create a ${ct.displayName}`,
        parameters: writeParameters,
        requestBody: body,
        responses: { '201': one('The created document') },
      }),
    },
    [`${base}/{documentId}`]: {
      get: operation({
        tags,
        operationId: `${id}.findOne`,
        summary: `Get a ${ct.displayName}`,
        parameters: [documentId, ...readParameters(ct)],
        responses: { '200': one('The document') },
      }),
      put: operation({
        tags,
        operationId: `${id}.update`,
        summary: `Update a ${ct.displayName}`,
        parameters: [documentId, ...writeParameters],
        requestBody: body,
        responses: { '200': one('The document as saved') },
      }),
      delete: operation({
        tags,
        operationId: `${id}.delete`,
        summary: `Delete a ${ct.displayName}`,
        parameters: [documentId, ...writeParameters.filter((p) => p.name === 'locale')],
        responses: deleted,
      }),
    },
    ...actionPaths(ct, name, `${base}/{documentId}`, [documentId], tags),
  };
}
