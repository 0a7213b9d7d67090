/**
 * Batching: the selection set of a root field → ONE populate tree for the plan builder, so the
 * whole answer is read in one go by the query core (one statement per attribute and level, as
 * REST populate reads) and nested resolvers only read from their parent object. Relations,
 * components, dynamic zones (per member type, from fragments), media and `localizations` are
 * populated; nested `filters` and `sort` go into the populate spec (pagination is a slice of
 * the populated list, ./arguments.ts sliceOf).
 *
 * Relations the caller may not read are not populated: their resolver answers FORBIDDEN per
 * row, as Strapi does. A field with `filters` or `sort` is read under a key of its own
 * (fieldKey: the attribute and those arguments), so one attribute asked several times at a
 * level with different arguments (aliases) is read once per distinct pair, batched like the rest.
 */
import {
  getArgumentValues,
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type { AnyModel, Registry } from '../registry/types';
import { isSelectable } from '../registry/fields';
import type { PopulateOptions } from '../query/plan-builder';
import { filtersOf, sortOf } from './arguments';
import { componentTypeName, typeName } from './names';

export interface SelectionContext {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  registry: Registry;
  canRead(uid: string): boolean;
  /**
   * Whether each read selects only the scalars its selection asks for (see scalarsOf): only
   * when nothing but the generated resolvers and graphql-js's default one reads the rows.
   */
  narrow?: boolean;
}

type PopulateTree = Record<string, true | PopulateOptions>;

const included = (ctx: SelectionContext, node: FieldNode | { directives?: FieldNode['directives'] }) => {
  const skip = getDirectiveValues(GraphQLSkipDirective, node as FieldNode, ctx.variables);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node as FieldNode, ctx.variables);
  return include?.if !== false;
};

/** The field nodes a selection set asks of an object type, through fragments whose type condition matches it. */
export function collectFields(ctx: SelectionContext, type: string, sets: readonly SelectionSetNode[], out: FieldNode[] = []): FieldNode[] {
  const applies = (condition: string | undefined) => {
    if (!condition || condition === type) return true;
    const abstract = ctx.schema.getType(condition);
    const concrete = ctx.schema.getType(type);
    return !!abstract && isObjectType(concrete) && !isObjectType(abstract) && ctx.schema.isSubType(abstract as never, concrete);
  };
  for (const set of sets) {
    for (const selection of set.selections) {
      if (!included(ctx, selection)) continue;
      if (selection.kind === Kind.FIELD) out.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (applies(selection.typeCondition?.name.value)) collectFields(ctx, type, [selection.selectionSet], out);
      } else {
        const fragment = ctx.fragments[selection.name.value];
        if (fragment && applies(fragment.typeCondition.name.value)) collectFields(ctx, type, [fragment.selectionSet], out);
      }
    }
  }
  return out;
}

/** The selection sets under `nodes` of a `…_connection` field. */
function nodesOf(ctx: SelectionContext, collectionType: string, node: FieldNode): SelectionSetNode[] {
  if (!node.selectionSet) return [];
  return collectFields(ctx, collectionType, [node.selectionSet])
    .filter((f) => f.name.value === 'nodes' && f.selectionSet)
    .map((f) => f.selectionSet!);
}

function mergeInto(tree: PopulateTree, name: string, spec: true | PopulateOptions) {
  const existing = tree[name];
  // `true` reads every field (a narrowed entry is an object with `fields`): the merge keeps the wider.
  if (existing === undefined || existing === true) {
    if (existing === true && spec !== true) delete spec.fields;
    tree[name] = spec;
    return;
  }
  if (spec === true) {
    delete existing.fields;
    return;
  }
  if (existing.fields) {
    if (spec.fields) existing.fields = [...new Set([...existing.fields, ...spec.fields])];
    else delete existing.fields;
  }
  if (spec.populate && typeof spec.populate === 'object' && !Array.isArray(spec.populate)) {
    const merged = { ...(existing.populate as PopulateTree | undefined) };
    for (const [k, v] of Object.entries(spec.populate as PopulateTree)) mergeInto(merged, k, v);
    existing.populate = merged;
  }
  if (spec.on) {
    const on = { ...existing.on } as Record<string, true | PopulateOptions>;
    for (const [uid, v] of Object.entries(spec.on)) {
      const holder: PopulateTree = on[uid] === undefined ? {} : { x: on[uid] as true | PopulateOptions };
      mergeInto(holder, 'x', v as true | PopulateOptions);
      on[uid] = holder.x!;
    }
    existing.on = on;
  }
}

/** The model a field's `filters` and `sort` are over: a relation's target, a component, files, the type itself for `localizations`. */
function argumentModel(registry: Registry, model: AnyModel, attributeName: string): AnyModel | undefined {
  const attribute = model.attributes[attributeName];
  if (!attribute) return attributeName === 'localizations' && model.modelType === 'contentType' ? model : undefined;
  if (attribute.kind === 'relation') return attribute.targetType;
  if (attribute.kind === 'component') return attribute.componentModel;
  if (attribute.kind === 'media') return registry.contentType('plugin::upload.file');
  return undefined;
}

/** The `filters` and `sort` a field's arguments give its read of `attributeName`. */
function readArguments(registry: Registry, model: AnyModel, attributeName: string, args: Record<string, unknown>): Pick<PopulateOptions, 'filters' | 'sort'> {
  const over = argumentModel(registry, model, attributeName);
  const out: Pick<PopulateOptions, 'filters' | 'sort'> = {};
  if (args.filters && over) out.filters = filtersOf(registry, over, args.filters);
  const sort = sortOf(args.sort);
  if (sort) out.sort = sort;
  return out;
}

const keyFor = (attributeName: string, read: Pick<PopulateOptions, 'filters' | 'sort'>) =>
  read.filters || read.sort ? `${attributeName}|${JSON.stringify([read.filters ?? null, read.sort ?? null])}` : attributeName;

/**
 * Where the parent rows hold what a field reads: the attribute's name, or for a field with
 * `filters` or `sort` a key naming them too, so that fields reading one attribute differently
 * (aliases) each get their own read. The same for populateOf and the resolvers.
 */
export function fieldKey(registry: Registry, model: AnyModel, attributeName: string, args: Record<string, unknown>): string {
  return keyFor(attributeName, readArguments(registry, model, attributeName, args));
}

/**
 * The scalar attributes a selection of `model` (shown as GraphQL type `type`) shows, as a
 * read's `fields`, when `ctx.narrow`: graphql-js's default resolver reads nothing else of a
 * row, so the other columns need not be selected nor made into values. `publishedAt` and
 * `locale` are always kept (what a row's own reads go by); undefined (every field) when not
 * narrowing or when a field is neither such a scalar nor an attribute populateOf reads.
 */
export function scalarsOf(ctx: SelectionContext, model: AnyModel, type: string, sets: readonly SelectionSetNode[]): string[] | undefined {
  if (!ctx.narrow) return undefined;
  const names = new Set<string>();
  for (const keep of ['publishedAt', 'locale']) if (isSelectable(model, keep)) names.add(keep);
  for (const node of collectFields(ctx, type, sets)) {
    const name = node.name.value;
    if (name === '__typename' || name === 'id' || name === 'documentId') continue;
    if (isSelectable(model, name)) names.add(name);
    else {
      const attributeName = name.endsWith('_connection') ? name.slice(0, -'_connection'.length) : name;
      const kind = model.attributes[attributeName]?.kind;
      if (kind === undefined ? attributeName !== 'localizations' : kind === 'scalar') return undefined;
    }
  }
  return [...names];
}

/**
 * The populate tree of `model` (shown as GraphQL type `type`) for the selection sets asked of
 * it: what its nested resolvers will read from the parent rows, each under its fieldKey.
 */
export function populateOf(ctx: SelectionContext, model: AnyModel, type: string, sets: readonly SelectionSetNode[]): PopulateTree {
  const tree: PopulateTree = {};
  const objectType = ctx.schema.getType(type) as GraphQLObjectType | undefined;
  if (!objectType || !isObjectType(objectType)) return tree;
  const fields = objectType.getFields();
  for (const node of collectFields(ctx, type, sets)) {
    const name = node.name.value;
    const definition = fields[name];
    if (!definition || name === '__typename') continue;
    const connection = name.endsWith('_connection');
    const attributeName = connection ? name.slice(0, -'_connection'.length) : name;
    const isLocalizations = attributeName === 'localizations' && model.modelType === 'contentType' && model.localized;
    const attribute = model.attributes[attributeName];
    if (!isLocalizations && (!attribute || attribute.kind === 'scalar' || attribute.kind === 'morph')) continue;
    const args = getArgumentValues(definition, node, ctx.variables);
    const target: AnyModel | undefined = isLocalizations
      ? model
      : attribute!.kind === 'relation'
        ? attribute!.targetType
        : attribute!.kind === 'component'
          ? attribute!.componentModel
          : undefined;
    if (attribute?.kind === 'relation' && (!target || !ctx.canRead(attribute.target))) continue;
    const sub: readonly SelectionSetNode[] = connection
      ? nodesOf(ctx, String(definition.type).replace(/!$/, ''), node)
      : node.selectionSet
        ? [node.selectionSet]
        : [];
    const read = readArguments(ctx.registry, model, attributeName, args);
    const key = keyFor(attributeName, read);
    const options: PopulateOptions = { ...(key === attributeName ? {} : { attribute: attributeName }), ...read };
    if (attribute?.kind === 'dynamiczone') {
      const on: Record<string, true | PopulateOptions> = {};
      for (const component of attribute.componentModels) {
        const populate = populateOf(ctx, component, componentTypeName(component.uid), sub);
        const fields = scalarsOf(ctx, component, componentTypeName(component.uid), sub);
        on[component.uid] =
          Object.keys(populate).length || fields ? { ...(fields ? { fields } : {}), ...(Object.keys(populate).length ? { populate } : {}) } : true;
      }
      options.on = on;
    } else if (target && attribute?.kind !== 'media') {
      const populate = populateOf(ctx, target, typeName(target), sub);
      if (Object.keys(populate).length) options.populate = populate;
      const fields = scalarsOf(ctx, target, typeName(target), sub);
      if (fields) options.fields = fields;
    }
    mergeInto(tree, key, Object.keys(options).length ? options : true);
  }
  return tree;
}
