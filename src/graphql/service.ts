/**
 * GraphQL in Strapi 5's dialect: the schema `@strapi/plugin-graphql` generates for the same
 * content types (./schema-text.ts), executed by graphql-js with batched reads
 * (./resolvers.ts), Strapi's limits and its three error transports:
 *
 *  - resolver errors: HTTP 200, `{ errors: [{ message, path, extensions: { code, error } }], data }`;
 *  - parse, validation (depth limit included) and variable errors: HTTP 400, `{ errors }` without `data`;
 *  - a GET mutation: 405 (the HTTP mount answers bad credentials and bad JSON with the REST envelope).
 *
 * It knows no HTTP framework: the mount (http/routes/graphql.ts) hands it the request's
 * operation and the caller. Project code extends it through `extension` (./extension.ts).
 */
import { createHash } from 'node:crypto';
import {
  buildSchema,
  defaultFieldResolver,
  execute,
  GraphQLError,
  isObjectType,
  isScalarType,
  isUnionType,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  printSchema,
  specifiedRules,
  validate,
  type ASTNode,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { GraphqlExtension, type Resolver } from './extension';
import { formatError } from './errors';
import { buildResolvers, zoneItemType } from './resolvers';
import { pluginResolvers } from './plugin-resolvers';
import { mutationResolvers } from './mutations';
import { authResolvers } from './auth-resolvers';
import { BUILT_SCALARS, dynamicZoneInputScalar } from './scalars';
import { buildSchemaText } from './schema-text';
import { configuredResolver } from './resolver-config';
import { componentTypeName } from './names';
import type { GraphqlCaller, GraphqlContext, GraphqlDeps, GraphqlSettings } from './types';
import type { ContentType, Registry } from '../registry/types';
import { authState } from '../auth/access';

export interface GraphqlRequest {
  query: unknown;
  variables?: unknown;
  operationName?: unknown;
  /** GET requests may only run queries. */
  method: 'GET' | 'POST';
}

export interface GraphqlAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * Whether the answer depends on nothing but the data and the caller's grants (a query of
   * generated content fields, Strapi's plugin lists and introspection, answered without
   * errors, on a schema no extension resolves): the HTTP mount may keep it until the next
   * commit, as REST's reads are kept (query/answer-cache.ts).
   */
  cacheable?: boolean;
}

/** Parsed and validated documents kept per query text: at most this many… */
const DOCUMENT_ENTRIES = 500;
/** …and at most this many characters of query text in all. */
const DOCUMENT_CHARACTERS = 2_000_000;

/** A document longer than this is refused before parsing (a real front end's query is a few KB). */
const MAX_QUERY_LENGTH = 256 * 1024;
/** Tokens one document may hold: bounds the parser's work on hostile input. */
const MAX_TOKENS = 20_000;

/** graphql-depth-limit's rule, as Strapi applies it: fields nest at most `max` levels below the operation, counted from 0. */
function depthLimitRule(max: number): ValidationRule {
  return (context: ValidationContext) => {
    const definitions = context.getDocument().definitions;
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    const depth = (node: ASTNode | undefined, sofar: number, name: string): number => {
      if (!node) return 0;
      if (sofar > max) {
        context.reportError(new GraphQLError(`'${name}' exceeds maximum operation depth of ${max}`, { nodes: node }));
        return 0;
      }
      switch (node.kind) {
        case Kind.FIELD:
          if (node.name.value.startsWith('__') || !node.selectionSet) return 0;
          return 1 + Math.max(...node.selectionSet.selections.map((s) => depth(s, sofar + 1, name)));
        case Kind.FRAGMENT_SPREAD:
          return depth(fragments[node.name.value], sofar, name);
        case Kind.INLINE_FRAGMENT:
        case Kind.FRAGMENT_DEFINITION:
        case Kind.OPERATION_DEFINITION:
          return Math.max(...node.selectionSet.selections.map((s) => depth(s, sofar, name)));
        default:
          return 0;
      }
    };
    for (const d of definitions) if (d.kind === Kind.OPERATION_DEFINITION) depth(d, 0, d.name?.value ?? '');
    return {};
  };
}

const badRequest = (message: string, code = 'BAD_REQUEST'): GraphqlAnswer => ({ status: 400, body: { errors: [{ message, extensions: { code } }] } });

/**
 * The SDL of the schema the content types give (with `settings`' shadow CRUD), without a
 * database: what `folio graphql-schema` writes for front-end codegen.
 */
export function graphqlSdl(registry: Registry, settings: Pick<GraphqlSettings, 'shadowCRUD'>, extension = new GraphqlExtension()): string {
  return printSchema(buildSchema(buildSchemaText(registry, extension, settings.shadowCRUD).sdl));
}

export class GraphqlService {
  readonly extension = new GraphqlExtension();
  private built?: GraphQLSchema;
  /** Query texts that parsed and validated against the current schema, least recently used first. */
  private documents = new Map<string, DocumentNode>();
  private documentCharacters = 0;
  /** Root fields whose answers depend only on the data and the grants (see GraphqlAnswer.cacheable); none once an extension resolves anything. */
  private pureRoots = new Set<string>();
  /** The content type each generated root query reads: its answer is not kept while its reads are hooked. */
  private rootTypes = new Map<string, ContentType>();
  /** Moves at every change of the schema: kept answers (the HTTP mount's) name the schema they were built on. */
  generation = 0;

  constructor(
    private deps: GraphqlDeps,
    readonly settings: GraphqlSettings,
  ) {
    this.extension.onChange = () => {
      this.built = undefined;
      this.generation++;
      this.documents.clear();
      this.documentCharacters = 0;
    };
  }

  /** The executable schema, built on first use and again after an extension changes it. */
  get schema(): GraphQLSchema {
    return (this.built ??= this.build());
  }

  /** The SDL front ends generate their types from (`folio graphql-schema`). */
  sdl(): string {
    return printSchema(this.schema);
  }

  private build(): GraphQLSchema {
    const text = buildSchemaText(this.deps.registry, this.extension, this.settings.shadowCRUD);
    const schema = buildSchema(text.sdl);
    const { resolvers: extra, resolversConfig } = this.extension.generate();
    const extended = Object.keys(extra).length > 0 || Object.keys(resolversConfig).length > 0;
    // Rows are read for their selected scalars only while nothing but the generated resolvers reads them.
    const generated = buildResolvers(text, this.deps, this.settings, !extended);
    for (const more of [pluginResolvers(this.deps, this.settings), mutationResolvers(text, this.deps), authResolvers(this.deps)]) {
      for (const [type, fields] of Object.entries(more)) generated[type] = { ...generated[type], ...fields };
    }
    this.pureRoots = new Set(
      extended ? [] : [...text.roots.Query.keys(), 'i18NLocales', 'i18NLocales_connection', 'i18NLocale', '__typename', '__schema', '__type'],
    );
    this.rootTypes = new Map([...text.roots.Query].map(([name, root]) => [name, root.ct]));
    // The action of each generated root field: checked here when an extension replaces its resolver.
    const actions = new Map<string, string>();
    for (const [type, roots] of Object.entries(text.roots)) for (const [name, root] of roots) actions.set(`${type}.${name}`, root.action);
    // Strapi finds a zone item's component among every component, by its type name.
    const components = new Map(this.deps.registry.components.map((c) => [componentTypeName(c.uid), c.uid]));
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      if (isScalarType(type)) {
        const zone = text.zoneInputs.get(type.name);
        const impl = BUILT_SCALARS[type.name] ?? (zone ? dynamicZoneInputScalar(type.name, components, zone) : undefined);
        if (impl) Object.assign(type, { serialize: impl.serialize, parseValue: impl.parseValue, parseLiteral: impl.parseLiteral });
      } else if (isUnionType(type)) {
        type.resolveType = (value: any) => (type.name.endsWith('DynamicZone') ? zoneItemType(value) : value?.__typename);
      } else if (isObjectType(type)) {
        const fields = type.getFields();
        const root = type.name === 'Query' || type.name === 'Mutation';
        for (const [name, field] of Object.entries(fields)) {
          const custom = extra[type.name]?.[name];
          const own = generated[type.name]?.[name];
          const resolver = (custom ? (typeof custom === 'function' ? custom : custom.resolve) : own) as
            | GraphQLFieldResolver<unknown, GraphqlContext>
            | undefined;
          const path = `${type.name}.${name}`;
          // A generated root field checks its own action; one an extension resolves is checked around it.
          const auth = { action: actions.get(path), checksItself: !custom && !!own };
          const wrapped = configuredResolver(resolver ?? defaultFieldResolver, resolversConfig[path], auth, root, (n) => this.extension.findPolicy(n));
          if (resolver || wrapped !== defaultFieldResolver) field.resolve = wrapped as GraphQLFieldResolver<unknown, unknown>;
        }
      }
    }
    return schema;
  }

  /** Runs one operation for `caller`: the answer's status and body (Strapi's transports, see above). */
  async execute(request: GraphqlRequest, caller: GraphqlCaller): Promise<GraphqlAnswer> {
    const { query, variables, operationName } = request;
    if (typeof query !== 'string' || query.trim() === '') {
      return badRequest('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.');
    }
    if (query.length > MAX_QUERY_LENGTH) return badRequest(`The query is too long (at most ${MAX_QUERY_LENGTH} characters)`);
    if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
      return badRequest('`variables` in a POST body should be an object if provided.');
    }
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
      return badRequest('`operationName` in a POST body should be a string if provided.');
    }
    const schema = this.schema;
    let document = this.documents.get(query);
    if (document) {
      this.documents.delete(query);
      this.documents.set(query, document);
    } else {
      try {
        document = parse(query, { maxTokens: MAX_TOKENS });
      } catch (error) {
        const e = error as GraphQLError;
        return { status: 400, body: { errors: [{ ...e.toJSON(), extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] } };
      }
      const rules = [...specifiedRules];
      if (this.settings.depthLimit !== undefined) rules.push(depthLimitRule(this.settings.depthLimit));
      if (!this.settings.introspection) rules.push(NoSchemaIntrospectionCustomRule);
      const invalid = validate(schema, document, rules, { maxErrors: 100 });
      if (invalid.length) {
        return { status: 400, body: { errors: invalid.map((e) => ({ ...e.toJSON(), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })) } };
      }
      this.keepDocument(query, document);
    }
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const operation = operationName ? operations.find((d) => d.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
    if (!operation) {
      const message = operationName ? `Unknown operation named "${operationName}".` : 'Must provide operation name if query contains multiple operations.';
      return badRequest(message, 'OPERATION_RESOLUTION_FAILURE');
    }
    if (request.method === 'GET' && operation.operation !== 'query') {
      return {
        status: 405,
        headers: { allow: 'POST' },
        body: {
          errors: [{ message: `GET requests only support query operations, not ${operation.operation} operations`, extensions: { code: 'BAD_REQUEST' } }],
        },
      };
    }
    const operationKey = createHash('sha256')
      .update(`${this.generation}\n${operationName ?? ''}\n${query}`)
      .digest('hex');
    // `state` starts as Strapi's koa state: resolvers and policies read `context.state.user`.
    const context: GraphqlContext = { caller, keys: new Map(), state: authState(caller.principal), batches: new Map(), operationKey };
    const result = (await execute({
      schema,
      document,
      contextValue: context,
      variableValues: (variables ?? undefined) as Record<string, unknown> | undefined,
      operationName: (operationName ?? undefined) as string | undefined,
    })) as ExecutionResult;
    const report = (e: unknown) => this.deps.log?.error('graphql resolver failed', { error: e });
    const errors = result.errors?.map((e) => formatError(e, report));
    if (!('data' in result) || result.data === undefined) {
      // No data: the operation never ran (unknown operation name, bad variables).
      return { status: 400, body: { errors: errors?.map((e) => ({ ...e, extensions: { ...e.extensions, code: e.extensions?.code ?? 'BAD_USER_INPUT' } })) } };
    }
    if (errors?.length) return { status: 200, body: { errors, data: result.data } };
    // A root read through document middlewares or read lifecycles answers what they make of it, each time.
    const hooked = (name: string) => {
      const ct = this.rootTypes.get(name);
      return ct !== undefined && this.deps.documents.hooks.readsHooked(ct);
    };
    const cacheable =
      operation.operation === 'query' &&
      operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && this.pureRoots.has(s.name.value) && !hooked(s.name.value));
    return { status: 200, body: { data: result.data }, cacheable };
  }

  /** Keeps a document that parsed and validated, within the entry and character bounds (least recently used go first). */
  private keepDocument(query: string, document: DocumentNode) {
    if (query.length > DOCUMENT_CHARACTERS / 8) return;
    for (const [oldest] of this.documents) {
      if (this.documents.size < DOCUMENT_ENTRIES && this.documentCharacters + query.length <= DOCUMENT_CHARACTERS) break;
      this.documents.delete(oldest);
      this.documentCharacters -= oldest.length;
    }
    this.documents.set(query, document);
    this.documentCharacters += query.length;
  }
}

export type { Resolver };
