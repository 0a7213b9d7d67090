/**
 * `populate` (already nested by `qs`) → a PopulateMap, with Strapi's checks: unknown keys,
 * scalar or private attributes and limits are 400s. A relation to a type the caller may not
 * read is left out rather than refused, at any depth, as Strapi does (it validates populate
 * without the caller's permissions and strips such relations from the answer).
 */
import { ValidationError } from '../errors';
import type { AnyModel, Attribute, Registry } from '../registry/types';
import { FILE_MODEL } from '../registry/file-model';
import { isObject } from '../json';
import { isDangling } from '../registry/dangling-inverses';
import { BOOLEAN_WORDS, parseFields, parseSort, type Raw } from './fields-sort';
import { checkFilters, newFilterBudget, parseFilters, type FilterBudget } from './filters';
import { REQUEST_LIMITS as L, limitExceeded } from './limits';
import type { CanRead, PopulateMap, PopulateSpec } from './types';

const POPULATE_KEYS = new Set(['fields', 'sort', 'filters', 'populate', 'count', 'on']);

/** What one request's populate may still add, and what nested filters and sorts need. */
interface PopulateContext {
  registry: Registry;
  canRead?: CanRead;
  /** Entries added so far (each costs a query per level); capped at REQUEST_LIMITS.populateNodes. */
  nodes: number;
  filters: FilterBudget;
}

/**
 * `populate=*`, `populate=a,b`, `populate[0]=a`, `populate=a.b`, object form with nested options.
 * `path` is where `raw` sits in a larger populate (its attributes are one level below it).
 */
export function parsePopulate(
  registry: Registry,
  model: AnyModel,
  raw: unknown,
  path: string[] = [],
  canRead?: CanRead,
  filters: FilterBudget = newFilterBudget(),
): PopulateMap {
  return populateMap({ registry, canRead, nodes: 0, filters }, model, raw, path, path.length + 1, path);
}

/** Counts one populated entry at `depth` (1 = the requested type's own attributes). */
function countNode(ctx: PopulateContext, path: string[], depth: number) {
  if (depth > L.populateDepth) {
    throw limitExceeded('populate', `populate may nest at most ${L.populateDepth} levels deep`, L.populateDepth, { path: path.join('.') });
  }
  if (++ctx.nodes > L.populateNodes) {
    throw limitExceeded('populate', `at most ${L.populateNodes} relations, components and media may be populated in one request`, L.populateNodes);
  }
}

/**
 * `path` is where `raw` sits in the request (limits and the object form's errors name it);
 * `dotted` is where a string form's errors are reported from: Strapi names a key of
 * `populate[x][populate]=a.b` by its place in that string (`Invalid key b at a.b`), not in the request.
 */
function populateMap(ctx: PopulateContext, model: AnyModel, raw: unknown, path: string[], depth: number, dotted: string[]): PopulateMap {
  const map: PopulateMap = {};
  if (raw === undefined || raw === null || raw === '' || raw === false || raw === 'false') return map;
  const { registry, canRead } = ctx;
  const populatable = Object.values(model.attributes).filter((a) => a.kind !== 'scalar');
  const invalidAt = (base: string[], key: string) => ValidationError.invalidKey(key, 'query', { path: [...base, key].join('.'), param: 'populate' });
  const invalid = (key: string) => invalidAt(path, key);
  const add = (name: string, spec: PopulateSpec) => {
    if (!(name in map)) countNode(ctx, [...path, name], depth);
    map[name] = { ...map[name], ...spec };
    return map[name]!;
  };

  const addPath = (item: string) => {
    if (item === '*') {
      // `*` is never refused: it leaves out what the caller may not see.
      for (const a of populatable) {
        if (a.private || !readable(a.name)) continue;
        if (!map[a.name]) add(a.name, morphSpec(a.name));
      }
      if (model.modelType === 'contentType' && model.localized && !map.localizations) add('localizations', {});
      return;
    }
    const [head, ...rest] = item.split('.');
    entry(head!, () => {
      const spec = addAttribute(head!, {}, dotted);
      if (rest.length) {
        const target = targetModel(registry, model, head!);
        if (!target) throw invalidAt([...dotted, head!], rest[0]!);
        spec.populate = { ...spec.populate, ...populateMap(ctx, target, rest.join('.'), [...path, head!], depth + 1, [...dotted, head!]) };
      }
    });
  };
  const addAttribute = (name: string, spec: PopulateSpec, base = path): PopulateSpec => {
    const attribute = model.attributes[name];
    const isLocalizations = name === 'localizations' && model.modelType === 'contentType' && model.localized;
    if (!isLocalizations && (!attribute || attribute.kind === 'scalar' || attribute.private)) throw invalidAt(base, name);
    return add(name, { ...morphSpec(name), ...spec });
  };
  /** Whether the caller may read what an attribute leads to (a relation's or a morphOne/morphMany side's target). */
  const readable = (name: string) => {
    const target = singleTarget(model.attributes[name]);
    return !target || !canRead || canRead(target);
  };
  /** A morphTo side reaches every type: only those the caller may read are populated. */
  const morphSpec = (name: string): PopulateSpec => {
    const attribute = model.attributes[name];
    if (attribute?.kind !== 'morph' || !attribute.owner || !canRead) return {};
    return { types: readableTypes(registry, canRead).map((ct) => ct.uid) };
  };
  /**
   * Reads one attribute's entry. A relation to a type the caller may not read is still checked
   * (unknown keys, limits), without the caller's permissions as Strapi validates populate, and
   * then left out: its key is absent from the answer, at any depth, rather than a 400 for the page.
   */
  const entry = (name: string, read: () => void) => {
    // A dangling mappedBy side has no links: left out of the answer, as Strapi leaves it out.
    if (!(name in model.attributes) && isDangling(registry, model.uid, name)) return;
    if (readable(name)) return read();
    ctx.canRead = undefined;
    try {
      read();
    } finally {
      ctx.canRead = canRead;
    }
    delete map[name];
  };

  if (typeof raw === 'string')
    raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .forEach(addPath);
  else if (Array.isArray(raw))
    raw.forEach((item) => (typeof item === 'string' ? addPath(item) : Object.assign(map, populateMap(ctx, model, item, path, depth, dotted))));
  else if (isObject(raw)) {
    const keys = Object.keys(raw);
    if (keys.length && keys.every((k) => /^\d+$/.test(k))) return populateMap(ctx, model, Object.values(raw), path, depth, dotted);
    for (const [name, value] of Object.entries(raw)) {
      if (value === false || value === 'false' || value === 'f' || value === '0') continue;
      // A boolean word as a key (`populate[x][populate][true]=true`) is no attribute: Strapi skips it.
      if (BOOLEAN_WORDS[name] !== undefined && !(name in model.attributes)) continue;
      entry(name, () => {
        if (value === true || value === 'true' || value === 't' || value === '1') {
          addAttribute(name, {});
          return;
        }
        if (value === '*') {
          // `populate[x]=*` is `populate[x][populate]=*`: for a dynamic zone, each component's own
          // relations, media and components, as Strapi does.
          addAttribute(name, {});
          const kind = model.attributes[name]?.kind;
          if (kind === 'dynamiczone' || (kind === 'morph' && !targetModel(registry, model, name))) {
            add(name, populateSpec(ctx, model, name, { populate: '*' }, [...path, name], depth));
          } else add(name, { populate: populateMap(ctx, targetModel(registry, model, name) ?? model, '*', [...path, name], depth + 1, []) });
          return;
        }
        if (!isObject(value)) throw invalid(name);
        addAttribute(name, {});
        add(name, populateSpec(ctx, model, name, value, [...path, name], depth));
      });
    }
  } else throw invalidAt(dotted, String(raw));
  return map;
}

/** The options of one populated attribute at `depth`: its own fields, sort, filters, count, and what it populates. */
function populateSpec(ctx: PopulateContext, model: AnyModel, name: string, raw: Raw, path: string[], depth: number): PopulateSpec {
  const { registry } = ctx;
  const attribute = model.attributes[name];
  const target = targetModel(registry, model, name);
  const spec: PopulateSpec = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!POPULATE_KEYS.has(key)) throw ValidationError.invalidKey(key, 'query', { path: path.join('.'), param: 'populate' });
    if (attribute?.kind === 'morph' && attribute.owner) {
      morphOption(ctx, spec, attribute.name, key, value, path, depth);
      continue;
    }
    if (key === 'on') {
      if (attribute?.kind !== 'dynamiczone' || !isObject(value)) {
        throw new ValidationError(`Using fragments is not permitted to populate "${name}" in "${model.uid}"`);
      }
      spec.on = {};
      for (const [uid, sub] of Object.entries(value)) {
        const index = attribute.components.indexOf(uid);
        if (index < 0) {
          // Strapi takes a fragment of any type it knows (a shared loader asks every page's zone for
          // every block type) and populates nothing for it; only a name of nothing is a 400.
          if (registry.get(uid)) continue;
          throw ValidationError.invalidKey(uid, 'query', { path: [...path, 'on', uid].join('.'), param: 'populate' });
        }
        const options = fragmentOptions(ctx, attribute.componentModels[index]!, sub, [...path, uid], depth);
        if (options) spec.on[uid] = options;
      }
      continue;
    }
    if (key === 'populate' && attribute?.kind === 'dynamiczone') {
      // A dynamic zone takes `populate=*` only: every component's own relations, media and components.
      if (value !== '*') throw ValidationError.invalidKey('populate', 'query', { path: path.join('.'), param: 'populate' });
      spec.on = {};
      for (const component of attribute.componentModels) {
        countNode(ctx, [...path, component.uid], depth);
        spec.on[component.uid] = { populate: populateMap(ctx, component, '*', [...path, component.uid], depth + 1, []) };
      }
      continue;
    }
    if (key === 'count') {
      const word = BOOLEAN_WORDS[String(value)];
      if (word === undefined) throw new ValidationError(`Invalid populate count for "${name}": expected a boolean`);
      spec.count = word;
      continue;
    }
    if (!target) throw ValidationError.invalidKey(key, 'query', { path: path.join('.'), param: 'populate' });
    Object.assign(spec, nestedOptions(ctx, target, { [key]: value }, path, depth));
  }
  return spec;
}

/**
 * One fragment of a dynamic zone (`on[<component>]`): `true` (or 1, t) populates the
 * component's entries with their scalars, an object gives them options; a false word leaves
 * the component out (undefined). Any other value is an unknown key, as Strapi answers.
 */
function fragmentOptions(ctx: PopulateContext, component: AnyModel, sub: unknown, path: string[], depth: number): PopulateSpec | undefined {
  if (isObject(sub)) {
    countNode(ctx, path, depth);
    return nestedOptions(ctx, component, sub, path, depth);
  }
  const word = sub === true || sub === false ? sub : BOOLEAN_WORDS[String(sub)];
  if (word === undefined) throw ValidationError.invalidKey(String(sub), 'query', { path: path.slice(0, -1).join('.'), param: 'populate' });
  if (!word) return undefined;
  countNode(ctx, path, depth);
  return {};
}

/** Every content type a morphTo side may reach that the caller may read (all without a permission check). */
const readableTypes = (registry: Registry, canRead?: CanRead) =>
  [...registry.contentTypes, ...registry.systemTypes].filter((ct) => !canRead || canRead(ct.uid));

/**
 * One option of a populated morphTo side. As for dynamic zones, Strapi takes only fragments per
 * type (`on`), `populate=*` (each type's own relations, media and components) and `count`.
 */
function morphOption(ctx: PopulateContext, spec: PopulateSpec, name: string, key: string, value: unknown, path: string[], depth: number) {
  const { registry, canRead } = ctx;
  if (key === 'count') {
    const word = BOOLEAN_WORDS[String(value)];
    if (word === undefined) throw new ValidationError(`Invalid populate count for "${name}": expected a boolean`);
    spec.count = word;
  } else if (key === 'on' && isObject(value)) {
    spec.on = {};
    for (const [uid, sub] of Object.entries(value)) {
      const type = registry.contentType(uid);
      if (!type) throw ValidationError.invalidKey(uid, 'query', { path: path.join('.'), param: 'populate' });
      countNode(ctx, [...path, uid], depth);
      // A type the caller may not read is checked like the others, then left out.
      const options = sub === true || sub === 'true' ? {} : isObject(sub) ? nestedOptions(ctx, type, sub, [...path, uid], depth) : {};
      if (!canRead || canRead(uid)) spec.on[uid] = options;
    }
  } else if (key === 'populate' && value === '*') {
    spec.on = {};
    for (const type of readableTypes(registry, canRead)) {
      spec.on[type.uid] = { populate: populateMap(ctx, type, '*', [...path, type.uid], depth + 1, []) };
    }
  } else {
    throw new ValidationError(`Invalid nested populate for "${name}": expected a fragment ("on"), populate=* or "count"`);
  }
}

/**
 * A nested fields, sort or filters parameter, its unknown or private keys reported as Strapi
 * reports them: the key and path as in that parameter, under `param: 'populate'`.
 */
function inPopulate<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    const { key, param } = error instanceof ValidationError ? error.details : {};
    if (key !== undefined && ['fields', 'sort', 'filters'].includes(param as string)) (error as ValidationError).details.param = 'populate';
    throw error;
  }
}

/** fields, sort, filters, populate and count for the entries of `target` populated at `depth`. */
function nestedOptions(ctx: PopulateContext, target: AnyModel, raw: Raw, path: string[], depth: number): PopulateSpec {
  const spec: PopulateSpec = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'fields') spec.fields = inPopulate(() => parseFields(target, value));
    else if (key === 'sort') spec.sort = inPopulate(() => parseSort(target, value, ctx.canRead));
    else if (key === 'filters') {
      if (!isObject(value)) throw new ValidationError(`Invalid filters parameter at ${path.join('.')}: expected an object`);
      checkFilters(value, ctx.filters);
      spec.filters = inPopulate(() => parseFilters(ctx.registry, target, value, ctx.canRead));
    } else if (key === 'populate') spec.populate = populateMap(ctx, target, value, path, depth + 1, []);
    else if (key === 'count') spec.count = BOOLEAN_WORDS[String(value)] ?? false;
    else throw ValidationError.invalidKey(key, 'query', { path: path.join('.'), param: 'populate' });
  }
  return spec;
}

/** The one content type a relation or a morphOne / morphMany side leads to (a morphTo side leads to any). */
function singleTarget(attribute: Attribute | undefined): string | undefined {
  if (attribute?.kind === 'relation') return attribute.target;
  if (attribute?.kind === 'morph' && !attribute.owner) return attribute.target;
  return undefined;
}

/** The model an attribute leads to (relation target, component), if it is a single model. */
export function targetModel(_registry: Registry, model: AnyModel, name: string): AnyModel | undefined {
  const attribute = model.attributes[name];
  if (name === 'localizations' && model.modelType === 'contentType') return model;
  if (attribute?.kind === 'relation') return attribute.targetType;
  if (attribute?.kind === 'morph') return attribute.owner ? undefined : attribute.targetType;
  if (attribute?.kind === 'component') return attribute.componentModel;
  if (attribute?.kind === 'media') return FILE_MODEL;
  return undefined;
}
