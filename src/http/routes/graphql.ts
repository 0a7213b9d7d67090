/**
 * The GraphQL endpoint (`/graphql`, or the configured `endpoint`): a thin mount over
 * src/graphql/service.ts. It authenticates through the one guard (a bad bearer token is the
 * REST envelope's 401; each field then checks its own action), reads the operation from a
 * JSON body (malformed JSON: the REST envelope's 400) or a GET's query string, applies Apollo's
 * CSRF rule, and sends the service's answer as it is. GET with a browser's Accept and no
 * operation shows the IDE when the landing page is on.
 */
import { Elysia } from 'elysia';
import type { Instance } from '../../instance';
import type { GraphqlCaller } from '../../graphql/types';
import type { GraphqlAnswer, GraphqlRequest } from '../../graphql/service';
import { grantsKey } from '../../auth/access';
import { readJsonBody } from '../body';
import type { Identify } from '../guard';
import { bytesOf, json, jsonBytes } from '../respond';
import { MethodNotAllowedError } from '../../errors';
import { graphqlIde } from '../graphql-ide';
import { clientAddress } from '../rate-limit';

const SIMPLE_TYPES = new Set(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']);

const CSRF_MESSAGE =
  "This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a 'content-type' header (with a type that is not one of application/x-www-form-urlencoded, multipart/form-data, text/plain) or provide a non-empty value for one of the following headers: x-apollo-operation-name, apollo-require-preflight\n";

/** Apollo's CSRF prevention: a request a browser would send without a preflight is refused. */
function preflighted(request: Request): boolean {
  const type = request.headers.get('content-type');
  if (type !== null && !SIMPLE_TYPES.has(type.split(';')[0]!.trim().toLowerCase())) return true;
  return !!(request.headers.get('x-apollo-operation-name') || request.headers.get('apollo-require-preflight'));
}

const badRequest = (message: string) => json({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] }, 400);

export function graphqlRoutes(instance: Instance, who: Identify) {
  const { endpoint, landingPage } = instance.config.graphql;

  async function callerOf(request: Request, peer: string | undefined): Promise<GraphqlCaller> {
    const caller = await who(request);
    return {
      principal: caller.principal,
      can: caller.can,
      readable: (uid) => caller.readableTypes().has(uid),
      grants: grantsKey(caller.principal),
      client: clientAddress(request, peer, instance.config.trustProxy),
    };
  }

  /**
   * Runs an operation, or answers the one kept since the last commit for the same grants and
   * operation when the service said it may be kept (query/answer-cache.ts, as REST's reads).
   */
  async function run(operation: GraphqlRequest, caller: GraphqlCaller) {
    const { answers } = instance.caches;
    if (!answers.enabled || typeof operation.query !== 'string') return send(await instance.graphql.execute(operation, caller));
    const key = `graphql\n${instance.graphql.generation}\n${grantsKey(caller.principal)}\n${operation.method}\n${JSON.stringify([operation.query, operation.variables ?? null, operation.operationName ?? null])}`;
    const kept = await answers.lookup(key);
    if (kept.bytes) return jsonBytes(kept.bytes);
    const answer = await instance.graphql.execute(operation, caller);
    const response = send(answer);
    const bytes = bytesOf(response);
    if (answer.cacheable && kept.marker !== undefined && bytes) await answers.remember(key, kept.marker, bytes);
    return response;
  }

  const send = (answer: GraphqlAnswer) => json(answer.body, answer.status, answer.headers);

  return new Elysia({ name: 'graphql' })
    .get(endpoint, async ({ request, server }) => {
      const url = new URL(request.url);
      const query = url.searchParams.get('query');
      if (query === null && landingPage && (request.headers.get('accept') ?? '').includes('text/html')) return graphqlIde(endpoint);
      const caller = await callerOf(request, server?.requestIP(request)?.address);
      if (!preflighted(request)) return badRequest(CSRF_MESSAGE);
      let variables: unknown;
      const rawVariables = url.searchParams.get('variables');
      if (rawVariables) {
        try {
          variables = JSON.parse(rawVariables);
        } catch {
          return badRequest('`variables` in a GET query string should be valid JSON.');
        }
      }
      return run({ query: query ?? undefined, variables, operationName: url.searchParams.get('operationName') ?? undefined, method: 'GET' }, caller);
    })
    .post(
      endpoint,
      async ({ request, server }) => {
        const caller = await callerOf(request, server?.requestIP(request)?.address);
        const body = await readJsonBody(request, instance.config.bodyLimit);
        if (!preflighted(request)) return badRequest(CSRF_MESSAGE);
        // Apollo Server's default, which Strapi keeps: a list of operations is refused.
        if (Array.isArray(body)) return badRequest('Operation batching disabled.');
        if (!body || typeof body !== 'object' || Object.keys(body).length === 0) {
          return badRequest('POST body missing, invalid Content-Type, or JSON object has no keys.');
        }
        const { query, variables, operationName } = body as Record<string, unknown>;
        return run({ query, variables, operationName, method: 'POST' }, caller);
      },
      { parse: 'none' },
    )
    .all(endpoint, () => {
      throw new MethodNotAllowedError(['GET', 'POST']);
    });
}
