/**
 * The schema's SDL, generated from the registry as `@strapi/plugin-graphql` 5's shadow CRUD
 * generates it: for every content type its type, `…FiltersInput`, `…Input`, enumerations,
 * dynamic-zone unions, `…EntityResponseCollection` and `…RelationResponseCollection`, its
 * queries and mutations; for every component its type, filters and input; Strapi's own
 * plugin types beside them (./plugin-types.ts). Types nothing reaches are left out, as in
 * Strapi's schema. Also says which model each type and root field stands for (./resolvers.ts).
 */
import { Kind, parse, print, type DefinitionNode, type DocumentNode } from 'graphql';
import type { Attribute, AnyModel, Component, ContentType, Registry, RelationAttribute, ScalarType } from '../registry/types';
import { FILE_UID, ROLE_UID, USER_UID } from '../registry/system-models';
import type { GraphqlExtension } from './extension';
import {
  collectionName,
  connectionName,
  dynamicZoneInputName,
  dynamicZoneName,
  enumName,
  filtersName,
  findManyName,
  findOneName,
  inputName,
  mutationName,
  relationCollectionName,
  scalarFilterName,
  typeName,
} from './names';
import { LOCALE_ARG, pluginDefinitions, pluginMutations, pluginQueries } from './plugin-types';

/** Strapi's SCALARS_ASSOCIATIONS. */
export const GRAPHQL_SCALAR: Record<ScalarType, string> = {
  uid: 'String',
  email: 'String',
  password: 'String',
  text: 'String',
  boolean: 'Boolean',
  integer: 'Int',
  string: 'String',
  enumeration: 'String',
  richtext: 'String',
  blocks: 'JSON',
  biginteger: 'Long',
  float: 'Float',
  decimal: 'Float',
  json: 'JSON',
  date: 'Date',
  time: 'Time',
  datetime: 'DateTime',
  timestamp: 'DateTime',
};

export type RootKind = 'findOne' | 'findMany' | 'connection' | 'single' | 'create' | 'update' | 'delete' | 'updateSingle' | 'deleteSingle';

export interface RootField {
  kind: RootKind;
  ct: ContentType;
  /** The action the caller must hold (Strapi's name). */
  action: string;
}

/** The action behind a root field: `api::x.x.find`, or the plugin's own for Strapi's types. */
function actionOf(ct: ContentType, kind: RootKind): string {
  const verb =
    kind === 'findOne'
      ? 'findOne'
      : kind === 'findMany' || kind === 'connection' || kind === 'single'
        ? 'find'
        : kind === 'updateSingle'
          ? 'update'
          : kind === 'deleteSingle'
            ? 'delete'
            : kind;
  if (ct.uid === FILE_UID) return `plugin::upload.content-api.${verb}`;
  return `${ct.uid}.${verb}`;
}

export interface SchemaText {
  sdl: string;
  /** Query and Mutation fields generated for content types. */
  roots: { Query: Map<string, RootField>; Mutation: Map<string, RootField> };
  /** Object type name → the content type or component it shows. */
  models: Map<string, AnyModel>;
  /** Each dynamic zone's input scalar → its members' type names. */
  zoneInputs: Map<string, string[]>;
}

const GENERIC_MORPH = 'GenericMorph';
const PUBLICATION = 'status: PublicationStatus = PUBLISHED, hasPublishedVersion: Boolean, publicationFilter: PublicationFilter';
const NESTED = (filters: string) => `(filters: ${filters}, pagination: PaginationArg = {}, sort: [String] = [])`;
const VALID_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** The user type as Strapi shows it: username and email required, the role relation after `blocked`. */
function userView(user: ContentType, role: ContentType): ContentType {
  const attributes: Record<string, Attribute> = {};
  for (const [name, attribute] of Object.entries(user.attributes)) {
    attributes[name] = name === 'username' || name === 'email' ? { ...attribute, required: true } : attribute;
    if (name === 'blocked') {
      attributes.role = {
        name: 'role',
        kind: 'relation',
        relation: 'manyToOne',
        target: ROLE_UID,
        inversedBy: 'users',
        toMany: false,
        owner: true,
        linkTable: '',
        required: false,
        private: false,
        localized: false,
        writable: true,
        targetType: role,
      } satisfies RelationAttribute;
    }
  }
  return { ...user, attributes };
}

export function buildSchemaText(registry: Registry, extension: GraphqlExtension, shadowCRUD = true): SchemaText {
  const shadow = (uid: string) => extension.shadowCRUD(uid);
  const defs = pluginDefinitions();
  const models = new Map<string, AnyModel>();
  const roots = { Query: new Map<string, RootField>(), Mutation: new Map<string, RootField>() };
  const zoneInputs = new Map<string, string[]>();
  const user = registry.contentType(USER_UID);
  // `shadowCRUD: false`: nothing is generated for the project's types (extensions add what they want).
  const apiTypes = shadowCRUD ? registry.contentTypes.filter((ct) => !ct.system && shadow(ct.uid).isEnabled()) : [];
  const generated: ContentType[] = [
    ...apiTypes,
    ...(user && shadowCRUD && shadow(USER_UID).isEnabled() ? [userView(user, registry.contentType(ROLE_UID)!)] : []),
  ];
  /** Types a relation may show: generated ones and Strapi's own with fixed definitions. */
  const shown = new Set([...generated.map((ct) => ct.uid), ROLE_UID, FILE_UID].filter((uid) => shadow(uid).isEnabled()));
  const model = (uid: string) => registry.get(uid);
  const targetName = (uid: string) => {
    const target = model(uid);
    return target ? typeName(target) : undefined;
  };
  const isCollection = (uid: string) => {
    const target = registry.contentType(uid);
    return !target || target.kind === 'collectionType';
  };
  const visible = (m: AnyModel, a: Attribute) => !a.private && shadow(m.uid).field(a.name).hasOutputEnabled();

  function outputField(m: AnyModel, a: Attribute): string[] {
    const bang = a.required ? '!' : '';
    switch (a.kind) {
      case 'scalar': {
        const type = a.type === 'enumeration' && enumUsable(a.enum) ? enumName(m, a.name) : GRAPHQL_SCALAR[a.type];
        return [`  ${a.name}: ${type}${bang}`];
      }
      case 'component': {
        const component = a.componentModel;
        if (!a.repeatable) return [`  ${a.name}: ${typeName(component)}${bang}`];
        return [`  ${a.name}${NESTED(filtersName(component))}: [${typeName(component)}]${bang}`];
      }
      case 'dynamiczone':
        return [`  ${a.name}: [${dynamicZoneName(m, a.name)}]${bang}`];
      case 'media':
        if (!shown.has(FILE_UID)) return [];
        if (!a.multiple) return [`  ${a.name}: UploadFile${bang}`];
        return [
          `  ${a.name}_connection${NESTED('UploadFileFiltersInput')}: UploadFileRelationResponseCollection${bang}`,
          `  ${a.name}${NESTED('UploadFileFiltersInput')}: [UploadFile]!`,
        ];
      case 'morph':
        if (!a.owner) return [];
        return [`  ${a.name}: ${a.toMany ? `[${GENERIC_MORPH}]` : GENERIC_MORPH}${bang}`];
      case 'relation': {
        const target = targetName(a.target);
        if (!target || !shown.has(a.target)) return [];
        if (!a.toMany) return [`  ${a.name}: ${target}${bang}`];
        const args = isCollection(a.target) ? NESTED(`${target}FiltersInput`) : '';
        return [`  ${a.name}_connection${args}: ${target}RelationResponseCollection${bang}`, `  ${a.name}${args}: [${target}]!`];
      }
    }
  }

  function objectType(m: AnyModel): string {
    const name = typeName(m);
    models.set(name, m);
    const lines: string[] = [];
    const on = (field: string) => shadow(m.uid).field(field).hasOutputEnabled();
    if (m.modelType === 'component' && on('id')) lines.push('  id: ID!');
    if (m.modelType === 'contentType' && on('documentId')) lines.push('  documentId: ID!');
    for (const a of Object.values(m.attributes)) if (visible(m, a)) lines.push(...outputField(m, a));
    if (m.modelType === 'contentType') {
      for (const stamp of ['createdAt', 'updatedAt', 'publishedAt']) if (on(stamp)) lines.push(`  ${stamp}: DateTime`);
      if (m.localized) {
        if (on('locale')) lines.push('  locale: String');
        if (on('localizations')) {
          const args = m.kind === 'collectionType' ? NESTED(filtersName(m)) : '';
          lines.push(`  localizations_connection${args}: ${relationCollectionName(m)}`, `  localizations${args}: [${name}]!`);
        }
      }
    }
    return `type ${name} {\n${lines.join('\n')}\n}`;
  }

  function filtersType(m: AnyModel): string {
    const name = filtersName(m);
    const lines: string[] = [];
    const on = (field: string) => shadow(m.uid).field(field).hasFiltersEnabled();
    if (m.modelType === 'contentType' && m.kind === 'collectionType' && on('documentId')) lines.push(`  documentId: ${scalarFilterName('ID')}`);
    for (const a of Object.values(m.attributes)) {
      if (a.private || !on(a.name)) continue;
      if (a.kind === 'scalar') lines.push(`  ${a.name}: ${scalarFilterName(GRAPHQL_SCALAR[a.type])}`);
      else if (a.kind === 'relation' && shown.has(a.target) && model(a.target)) lines.push(`  ${a.name}: ${filtersName(model(a.target)!)}`);
      else if (a.kind === 'component' && shadow(a.component).isEnabled()) lines.push(`  ${a.name}: ${filtersName(a.componentModel)}`);
    }
    if (m.modelType === 'contentType') {
      for (const stamp of ['createdAt', 'updatedAt', 'publishedAt']) if (on(stamp)) lines.push(`  ${stamp}: DateTimeFilterInput`);
      if (m.localized) {
        if (on('locale')) lines.push('  locale: StringFilterInput');
        if (on('localizations')) lines.push(`  localizations: ${name}`);
      }
    }
    lines.push(`  and: [${name}]`, `  or: [${name}]`, `  not: ${name}`);
    return `input ${name} {\n${lines.join('\n')}\n}`;
  }

  function inputType(m: AnyModel): string {
    const name = inputName(m);
    const lines: string[] = [];
    const on = (field: string) => shadow(m.uid).field(field).hasInputEnabled();
    if (m.modelType === 'component' && on('id')) lines.push('  id: ID');
    for (const a of Object.values(m.attributes)) {
      if (!a.writable || !on(a.name)) continue;
      if (a.kind === 'scalar') {
        lines.push(`  ${a.name}: ${a.type === 'enumeration' && enumUsable(a.enum) ? enumName(m, a.name) : GRAPHQL_SCALAR[a.type]}`);
      } else if (a.kind === 'media') {
        if (shown.has(FILE_UID)) lines.push(`  ${a.name}: ${a.multiple ? '[ID]' : 'ID'}`);
      } else if (a.kind === 'relation') {
        if (shown.has(a.target)) lines.push(`  ${a.name}: ${a.toMany ? '[ID]' : 'ID'}`);
      } else if (a.kind === 'component') {
        const input = inputName(a.componentModel);
        lines.push(`  ${a.name}: ${a.repeatable ? `[${input}]` : input}`);
      } else if (a.kind === 'dynamiczone') {
        lines.push(`  ${a.name}: [${dynamicZoneInputName(m, a.name)}!]`);
      }
    }
    if (m.modelType === 'contentType') {
      if (on('publishedAt')) lines.push('  publishedAt: DateTime');
      if (!m.localized && on('locale')) lines.push('  locale: String');
    }
    return `input ${name} {\n${lines.join('\n')}\n}`;
  }

  function modelDefinitions(m: AnyModel) {
    defs.set(typeName(m), objectType(m));
    defs.set(filtersName(m), filtersType(m));
    defs.set(inputName(m), inputType(m));
    for (const a of Object.values(m.attributes)) {
      if (a.kind === 'scalar' && a.type === 'enumeration' && enumUsable(a.enum)) {
        defs.set(enumName(m, a.name), `enum ${enumName(m, a.name)} {\n${a.enum!.map((v) => `  ${v}`).join('\n')}\n}`);
      }
      if (a.kind === 'dynamiczone') {
        const members = a.componentModels.filter((c) => shadow(c.uid).isEnabled()).map((c) => typeName(c));
        defs.set(dynamicZoneName(m, a.name), `union ${dynamicZoneName(m, a.name)} = ${[...members, 'Error'].join(' | ')}`);
        zoneInputs.set(
          dynamicZoneInputName(m, a.name),
          a.componentModels.map((c) => typeName(c)),
        );
        defs.set(dynamicZoneInputName(m, a.name), `scalar ${dynamicZoneInputName(m, a.name)}`);
      }
    }
  }

  const components = registry.components.filter((c) => shadow(c.uid).isEnabled());
  for (const component of components) modelDefinitions(component);
  for (const ct of generated) {
    modelDefinitions(ct);
    defs.set(collectionName(ct), `type ${collectionName(ct)} {\n  nodes: [${typeName(ct)}!]!\n  pageInfo: Pagination!\n}`);
    defs.set(relationCollectionName(ct), `type ${relationCollectionName(ct)} {\n  nodes: [${typeName(ct)}!]!\n}`);
  }
  for (const fixed of [
    'UploadFile',
    'I18NLocale',
    'ReviewWorkflowsWorkflow',
    'ReviewWorkflowsWorkflowStage',
    'UsersPermissionsPermission',
    'UsersPermissionsRole',
  ]) {
    const system = fixed === 'UploadFile' ? registry.contentType(FILE_UID) : fixed === 'UsersPermissionsRole' ? registry.contentType(ROLE_UID) : undefined;
    if (system) models.set(fixed, system);
  }
  const morphMembers = [
    ...components.map(typeName),
    'UploadFile',
    'I18NLocale',
    'ReviewWorkflowsWorkflow',
    'ReviewWorkflowsWorkflowStage',
    'UsersPermissionsPermission',
    'UsersPermissionsRole',
    ...(user && shown.has(USER_UID) ? ['UsersPermissionsUser'] : []),
    ...apiTypes.map(typeName),
  ];
  defs.set(GENERIC_MORPH, `union ${GENERIC_MORPH} = ${morphMembers.join(' | ')}`);

  // Root fields: Strapi's plugins first, then the project's types, then `me`.
  const queries = [...pluginQueries(PUBLICATION)];
  const mutations = pluginMutations();
  const projectMutations: string[] = [];
  // Strapi's own types whose documents Folio holds are read like the project's.
  const system: [string, ContentType | undefined][] = [
    ['uploadFile', shown.has(FILE_UID) ? registry.contentType(FILE_UID) : undefined],
    ['usersPermissionsRole', shown.has(ROLE_UID) ? registry.contentType(ROLE_UID) : undefined],
    ['usersPermissionsUser', user && shown.has(USER_UID) ? user : undefined],
  ];
  for (const [singular, ct] of system) {
    if (!ct) continue;
    roots.Query.set(singular, { kind: 'findOne', ct, action: actionOf(ct, 'findOne') });
    roots.Query.set(`${singular}s_connection`, { kind: 'connection', ct, action: actionOf(ct, 'connection') });
    roots.Query.set(`${singular}s`, { kind: 'findMany', ct, action: actionOf(ct, 'findMany') });
  }
  for (const ct of apiTypes) {
    const s = shadow(ct.uid);
    const locale = ct.localized ? `,\n    ${LOCALE_ARG}` : '';
    const multiline = (args: string) => (ct.localized ? `(\n    ${args.split(', ').join('\n    ')}${locale}\n  )` : `(${args})`);
    const name = typeName(ct);
    if (s.areQueriesEnabled()) {
      if (ct.kind === 'collectionType') {
        if (s.isActionEnabled('findOne')) {
          queries.push(`  ${findOneName(ct)}${multiline(`documentId: ID!, ${PUBLICATION}`)}: ${name}`);
          roots.Query.set(findOneName(ct), { kind: 'findOne', ct, action: actionOf(ct, 'findOne') });
        }
        if (s.isActionEnabled('find')) {
          const args = multiline(`filters: ${filtersName(ct)}, pagination: PaginationArg = {}, sort: [String] = [], ${PUBLICATION}`);
          queries.push(`  ${connectionName(ct)}${args}: ${collectionName(ct)}`, `  ${findManyName(ct)}${args}: [${name}]!`);
          roots.Query.set(connectionName(ct), { kind: 'connection', ct, action: actionOf(ct, 'connection') });
          roots.Query.set(findManyName(ct), { kind: 'findMany', ct, action: actionOf(ct, 'findMany') });
        }
      } else if (s.isActionEnabled('find')) {
        queries.push(`  ${findOneName(ct)}${multiline(PUBLICATION)}: ${name}`);
        roots.Query.set(findOneName(ct), { kind: 'single', ct, action: actionOf(ct, 'single') });
      }
    }
    if (s.areMutationsEnabled()) {
      if (ct.kind === 'collectionType') {
        if (s.isActionEnabled('create')) {
          projectMutations.push(`  ${mutationName('create', ct)}${multiline(`status: PublicationStatus = PUBLISHED, data: ${inputName(ct)}!`)}: ${name}`);
          roots.Mutation.set(mutationName('create', ct), { kind: 'create', ct, action: actionOf(ct, 'create') });
        }
        if (s.isActionEnabled('update')) {
          projectMutations.push(
            `  ${mutationName('update', ct)}${multiline(`documentId: ID!, status: PublicationStatus = PUBLISHED, data: ${inputName(ct)}!`)}: ${name}`,
          );
          roots.Mutation.set(mutationName('update', ct), { kind: 'update', ct, action: actionOf(ct, 'update') });
        }
        if (s.isActionEnabled('delete')) {
          projectMutations.push(`  ${mutationName('delete', ct)}${multiline('documentId: ID!')}: DeleteMutationResponse`);
          roots.Mutation.set(mutationName('delete', ct), { kind: 'delete', ct, action: actionOf(ct, 'delete') });
        }
      } else {
        if (s.isActionEnabled('update')) {
          projectMutations.push(`  ${mutationName('update', ct)}${multiline(`status: PublicationStatus = PUBLISHED, data: ${inputName(ct)}!`)}: ${name}`);
          roots.Mutation.set(mutationName('update', ct), { kind: 'updateSingle', ct, action: actionOf(ct, 'updateSingle') });
        }
        if (s.isActionEnabled('delete')) {
          const args = ct.localized ? `(\n    ${LOCALE_ARG}\n  )` : '';
          projectMutations.push(`  ${mutationName('delete', ct)}${args}: DeleteMutationResponse`);
          roots.Mutation.set(mutationName('delete', ct), { kind: 'deleteSingle', ct, action: actionOf(ct, 'deleteSingle') });
        }
      }
    }
  }
  queries.push('  me: UsersPermissionsMe');
  defs.set('Query', `type Query {\n${queries.join('\n')}\n}`);
  defs.set('Mutation', `type Mutation {\n${[...mutations.before, ...projectMutations, ...mutations.after].join('\n')}\n}`);

  const extra = extension.generate().typeDefs;
  return { sdl: reachable(defs, extra), roots, models, zoneInputs };
}

/** An enumeration becomes a GraphQL enum when every value is a GraphQL name (else it stays a String). */
function enumUsable(values: string[] | undefined): boolean {
  return !!values && values.length > 0 && values.every((v) => VALID_NAME.test(v) && !['true', 'false', 'null'].includes(v));
}

/**
 * The definitions reachable from Query and Mutation (and every type the extensions' typeDefs
 * define or extend), in the order they were added, followed by the extensions' typeDefs.
 */
function reachable(defs: Map<string, string>, extra: string[]): string {
  const documents = new Map<string, DocumentNode>();
  const parsed = (name: string) => {
    let doc = documents.get(name);
    if (!doc) documents.set(name, (doc = parse(defs.get(name)!, { noLocation: true })));
    return doc;
  };
  // `type Query { … }` in an extension adds to the generated type, as Strapi's typeDefs merge does.
  const extraDocs = extra.map((text) => asExtensions(parse(text, { noLocation: true }), defs));
  const seen = new Set<string>();
  const queue = ['Query', 'Mutation'];
  for (const doc of extraDocs) {
    for (const def of doc.definitions) {
      if ('name' in def && def.name) queue.push(def.name.value);
      referencedNames(def, queue);
    }
  }
  while (queue.length) {
    const name = queue.pop()!;
    if (seen.has(name) || !defs.has(name)) continue;
    seen.add(name);
    for (const def of parsed(name).definitions) referencedNames(def, queue);
  }
  const kept = [...defs.keys()].filter((name) => seen.has(name)).map((name) => defs.get(name)!);
  return [...kept, ...extraDocs.map((doc) => print(doc))].join('\n\n');
}

/** An extension's definitions of types the schema already has (Query, Mutation, a generated type) become `extend type`. */
function asExtensions(doc: DocumentNode, defs: Map<string, string>): DocumentNode {
  const definitions = doc.definitions.map((def) =>
    def.kind === Kind.OBJECT_TYPE_DEFINITION && defs.has(def.name.value)
      ? ({ kind: Kind.OBJECT_TYPE_EXTENSION, name: def.name, interfaces: def.interfaces, directives: def.directives, fields: def.fields } as DefinitionNode)
      : def,
  );
  return { ...doc, definitions };
}

/** Every type name a definition mentions. */
function referencedNames(node: DefinitionNode, out: string[]) {
  const walk = (value: unknown) => {
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach(walk);
    const n = value as { kind?: string; name?: { value: string } };
    if (n.kind === Kind.NAMED_TYPE && n.name) out.push(n.name.value);
    for (const child of Object.values(value)) if (child && typeof child === 'object') walk(child);
  };
  walk(node);
}

export type { Component };
