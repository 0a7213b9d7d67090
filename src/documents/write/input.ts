/**
 * Turns a request's `data` object into a checked, normalised write for one model:
 * unknown keys are refused, scalars are checked against their TypeBox schema,
 * components and dynamic zones are checked recursively with full paths, relation and
 * media values are parsed into operations. Nothing touches the database here.
 */
import { ValidationError, type FieldError } from '../../errors';
import type { AnyModel, Component, Attribute, Registry } from '../../registry/types';
import type { CheckMode, ScalarField } from '../../registry/fields';
import { label, readRelation, type RelationWrite } from '../relations/input';
import { readMorph, type MorphWrite } from '../relations/morph-input';
import { isObject } from '../../json';
import { isDangling } from '../../registry/dangling-inverses';
import { isVisible } from '../../registry/conditions';
import { unstorableText } from '../../text';

export interface ComponentWrite {
  uid: string;
  /** The component itself (the attribute's linked model). */
  component: Component;
  input: ModelWrite;
}

export interface ModelWrite {
  /** Attribute name → normalised JSON value (null clears). */
  scalars: Record<string, unknown>;
  /** Single component → one write or null; repeatable component or dynamic zone → a list. */
  components: Record<string, ComponentWrite | ComponentWrite[] | null>;
  relations: Record<string, RelationWrite>;
  /** Polymorphic (morphTo) attribute → link operations (../relations/morph-input.ts). */
  morphs: Record<string, MorphWrite>;
  /** Media attribute → file ids in order (empty clears). */
  media: Record<string, number[]>;
}

export interface InputOptions {
  mode: CheckMode;
  /** Creating: required attributes must be present and defaults apply. */
  creating: boolean;
  /** Current stored values, so publishing an update still checks required attributes. */
  existing?: Record<string, unknown>;
  /**
   * Whether the stored version passed the published checks when it was written (by default:
   * on a type without draft & publish, every version did). Then an attribute the update leaves
   * out is not checked against `existing`; a draft being published for the first time is.
   * Per attribute when it depends on one (documents/service.ts: what the published version lacks too).
   */
  storedWasValid?: boolean | ((attribute: string) => boolean);
}

/** Keys a body may carry that are not attributes and are ignored, as Strapi does. */
const IGNORED_KEYS = new Set(['locale', 'publishedAt']);

/** Checks `data` against `model`; throws ValidationError listing every problem found. */
export function readModelInput(registry: Registry, model: AnyModel, data: Record<string, unknown>, options: InputOptions): ModelWrite {
  for (const key of Object.keys(data)) {
    const attribute = model.attributes[key];
    if (!attribute && IGNORED_KEYS.has(key) && model.modelType === 'contentType') continue;
    // A dangling mappedBy side (registry/dangling-inverses.ts): accepted and ignored, as Strapi does.
    if (!attribute && isDangling(registry, model.uid, key)) continue;
    if (!attribute?.writable) throw ValidationError.invalidKey(key, 'body');
  }
  const errors: FieldError[] = [];
  const write = readAttributes(registry, model, data, options, [], errors);
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  return write;
}

function readAttributes(
  registry: Registry,
  model: AnyModel,
  data: Record<string, unknown>,
  options: InputOptions,
  path: (string | number)[],
  errors: FieldError[],
): ModelWrite {
  const write: ModelWrite = { scalars: {}, components: {}, relations: {}, morphs: {}, media: {} };
  const strict = options.mode === 'published';
  const fail = (at: (string | number)[], message: string, value: unknown) => errors.push({ path: at, message, name: 'ValidationError', value });

  let scope: Record<string, unknown> | undefined;
  for (const attribute of Object.values(model.attributes)) {
    const at = [...path, attribute.name];
    const present = Object.hasOwn(data, attribute.name);
    let value = present ? data[attribute.name] : undefined;

    if (!present && options.creating) {
      if (attribute.kind === 'scalar' && attribute.default !== undefined) value = attribute.default;
      else if ((attribute.kind === 'component' && attribute.repeatable) || attribute.kind === 'dynamiczone') value = [];
    }
    // Hidden by its condition (Strapi 5's conditional fields): not required and not checked, as
    // Strapi's validator skips it; a value sent is kept as sent (registry/conditions.ts).
    if (attribute.conditions && !isVisible(attribute.conditions.visible, (scope ??= conditionScope(model, data, options)))) {
      if (value !== undefined) readValue(registry, model, attribute, value, { ...options, mode: 'draft' }, at, errors, write, true);
      continue;
    }
    const stored = options.existing?.[attribute.name];
    // A stored version that was valid when written (see `storedWasValid`) lacks a required value
    // only because the attribute became required later (docs/configuration.md "Schema changes"): an update that does
    // not send it must not start failing. Sending null still fails, as in Strapi.
    const valid = options.storedWasValid ?? (model.modelType === 'contentType' && !model.draftAndPublish);
    // A conditional attribute's published version may have lacked it only because it was hidden then.
    const keep = !options.creating && (typeof valid === 'function' ? !attribute.conditions && valid(attribute.name) : valid);
    const missing = value === null || (value === undefined && !keep && (options.creating || stored === null || stored === undefined));
    if (attribute.required && strict && missing && attribute.kind === 'scalar') {
      fail(at, (model.fields[attribute.name] as ScalarField).typeMessage(label(at), null), null);
      continue;
    }
    // A repeatable component or a dynamic zone is a list (`[]` clears it); Strapi's validator
    // marks both notNil on create and notNull on update, whatever the mode, hence yup's words.
    if (value === null && ((attribute.kind === 'component' && attribute.repeatable) || attribute.kind === 'dynamiczone')) {
      fail(at, `${label(at)} ${options.creating ? 'must be defined.' : 'cannot be null'}`, null);
      continue;
    }
    // A required single component must be there to publish (drafts may lack it), as Strapi's:
    // on create when absent or null, on update when set to null (stored rows are not in `existing`).
    if (attribute.kind === 'component' && !attribute.repeatable && attribute.required && strict && (options.creating ? missing : value === null)) {
      fail(at, `${label(at)} ${options.creating ? 'must be defined.' : 'cannot be null'}`, value ?? null);
      continue;
    }
    if (value === undefined) continue;
    readValue(registry, model, attribute, value, options, at, errors, write, false);
  }
  return write;
}

/**
 * What a condition is evaluated on: the values sent beside the attribute, with the defaults a
 * create applies; when a draft & publish entry is published, its whole stored draft under them
 * (Strapi validates the draft it publishes), as Strapi 5.54.0 answers.
 */
function conditionScope(model: AnyModel, data: Record<string, unknown>, options: InputOptions): Record<string, unknown> {
  const publishing = model.modelType === 'contentType' && model.draftAndPublish && options.mode === 'published';
  const scope: Record<string, unknown> = { ...(publishing ? options.existing : undefined), ...data };
  if (options.creating) {
    for (const a of Object.values(model.attributes)) if (a.kind === 'scalar' && a.default !== undefined && !(a.name in data)) scope[a.name] = a.default;
  }
  return scope;
}

/** Text-typed values: a hidden one is stored as any string, a number or a boolean as its text (Strapi's column takes them). */
const TEXT_TYPES = new Set(['string', 'text', 'richtext', 'email', 'password', 'uid', 'enumeration']);

/** Reads one present value into `write`; `hidden`: its attribute's condition hides it (only storability is checked). */
function readValue(
  registry: Registry,
  model: AnyModel,
  attribute: Attribute,
  value: unknown,
  options: InputOptions,
  at: (string | number)[],
  errors: FieldError[],
  write: ModelWrite,
  hidden: boolean,
) {
  const fail = (path: (string | number)[], message: string, shown: unknown) => errors.push({ path, message, name: 'ValidationError', value: shown });
  switch (attribute.kind) {
    case 'scalar': {
      if (value === null) {
        write.scalars[attribute.name] = null;
        break;
      }
      const field = model.fields[attribute.name] as ScalarField;
      const text = hidden && TEXT_TYPES.has(attribute.type);
      if (text && (typeof value === 'number' || typeof value === 'boolean')) value = String(value);
      const normalised = field.normalise(value);
      const why = text && typeof normalised === 'string' ? unstorableText(normalised) : undefined;
      const problem =
        text && typeof normalised === 'string'
          ? why
            ? { message: `${label(at)} ${why}`, path: [], value: normalised }
            : undefined
          : field.check(normalised, options.mode, label(at));
      // A problem inside the value (a blocks node) carries its own path and value.
      if (problem) fail([...at, ...problem.path], problem.message, problem.path.length ? problem.value : value);
      else write.scalars[attribute.name] = normalised;
      break;
    }
    case 'component':
      readComponent(registry, attribute, value, options, at, errors, write);
      break;
    case 'dynamiczone':
      readDynamicZone(registry, attribute, value, options, at, errors, write);
      break;
    case 'relation':
      write.relations[attribute.name] = readRelation(value, at);
      break;
    case 'morph':
      write.morphs[attribute.name] = readMorph(registry, attribute, value, at);
      break;
    case 'media':
      write.media[attribute.name] = readMedia(attribute, value, at);
      break;
  }
}

function readComponent(
  registry: Registry,
  attribute: Extract<Attribute, { kind: 'component' }>,
  value: unknown,
  options: InputOptions,
  at: (string | number)[],
  errors: FieldError[],
  write: ModelWrite,
) {
  const component = attribute.componentModel;
  const childOptions: InputOptions = { mode: options.mode, creating: true };
  const one = (item: unknown, itemPath: (string | number)[]): ComponentWrite | undefined => {
    if (!isObject(item)) {
      errors.push({ path: itemPath, message: `${label(itemPath)} must be an object`, name: 'ValidationError', value: item });
      return undefined;
    }
    for (const key of Object.keys(item)) {
      if (!component.attributes[key]) throw ValidationError.invalidKey(key, 'body', { path: label(itemPath) });
    }
    return { uid: component.uid, component, input: readAttributes(registry, component, item, childOptions, itemPath, errors) };
  };
  if (value === null) {
    write.components[attribute.name] = null;
    return;
  }
  if (!attribute.repeatable) {
    const item = one(value, at);
    if (item) write.components[attribute.name] = item;
    return;
  }
  if (!Array.isArray(value)) {
    errors.push({ path: at, message: `${label(at)} must be an array`, name: 'ValidationError', value });
    return;
  }
  checkCount(attribute, value.length, options, at, errors);
  write.components[attribute.name] = value.map((item, i) => one(item, [...at, i])).filter((x): x is ComponentWrite => !!x);
}

function readDynamicZone(
  registry: Registry,
  attribute: Extract<Attribute, { kind: 'dynamiczone' }>,
  value: unknown,
  options: InputOptions,
  at: (string | number)[],
  errors: FieldError[],
  write: ModelWrite,
) {
  if (!Array.isArray(value)) {
    errors.push({ path: at, message: `${label(at)} must be an array`, name: 'ValidationError', value });
    return;
  }
  checkCount(attribute, value.length, options, at, errors);
  const items: ComponentWrite[] = [];
  value.forEach((item, i) => {
    const itemPath = [...at, i];
    if (!isObject(item)) {
      errors.push({ path: itemPath, message: `${label(itemPath)} must be an object`, name: 'ValidationError', value: item });
      return;
    }
    const uid = item.__component;
    if (typeof uid !== 'string' || !attribute.components.includes(uid)) {
      const where = [...itemPath, '__component'];
      errors.push({
        path: where,
        message: `${label(where)} must be one of the following values: ${attribute.components.join(', ')}`,
        name: 'ValidationError',
        value: uid ?? null,
      });
      return;
    }
    const component = attribute.componentModels[attribute.components.indexOf(uid)]!;
    const { __component: _, ...rest } = item;
    for (const key of Object.keys(rest)) {
      if (!component.attributes[key]) throw ValidationError.invalidKey(key, 'body', { path: label(itemPath) });
    }
    items.push({ uid, component, input: readAttributes(registry, component, rest, { mode: options.mode, creating: true }, itemPath, errors) });
  });
  write.components[attribute.name] = items;
}

function checkCount(
  attribute: { min?: number; max?: number; required: boolean },
  count: number,
  options: InputOptions,
  at: (string | number)[],
  errors: FieldError[],
) {
  const fail = (message: string) => errors.push({ path: at, message, name: 'ValidationError', value: count });
  if (attribute.max !== undefined && count > attribute.max) fail(`${label(at)} field must have less than or equal to ${attribute.max} items`);
  if (options.mode === 'published') {
    if (attribute.min !== undefined && count < attribute.min) fail(`${label(at)} field must have at least ${attribute.min} items`);
    if (attribute.required && count === 0) fail(`${label(at)} field must have at least 1 items`);
  }
}

/** Media take file ids (numbers or `{ id }`), never connect/disconnect. */
function readMedia(attribute: Extract<Attribute, { kind: 'media' }>, value: unknown, at: (string | number)[]): number[] {
  const bad = (why: string) => new ValidationError(`Invalid media at ${label(at)}: ${why}`, { path: at });
  if (value === null) return [];
  if (isObject(value) && ('connect' in value || 'disconnect' in value || 'set' in value)) {
    throw bad('connect, disconnect and set cannot be used for media; give file ids');
  }
  const one = (v: unknown): number => {
    const id = isObject(v) ? v.id : v;
    const n = typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw bad('expected a file id');
    return n;
  };
  const ids = Array.isArray(value) ? value.map(one) : [one(value)];
  if (!attribute.multiple && ids.length > 1) throw bad('this media attribute holds one file');
  return ids;
}

/** Whether a model or a component it may hold has a password attribute (most have none: a bulk import skips the walk). */
const passwordModels = new WeakMap<AnyModel, boolean>();
function holdsPasswords(registry: Registry, model: AnyModel): boolean {
  let holds = passwordModels.get(model);
  if (holds === undefined) {
    passwordModels.set(model, false);
    holds = Object.values(model.attributes).some(
      (a) =>
        (a.kind === 'scalar' && a.type === 'password') ||
        (a.kind === 'component' && holdsPasswords(registry, a.componentModel)) ||
        (a.kind === 'dynamiczone' && a.componentModels.some((c) => holdsPasswords(registry, c))),
    );
    passwordModels.set(model, holds);
  }
  return holds;
}

/** Password attributes are stored as Bun.password hashes, never in clear (components included). */
export async function hashPasswords(registry: Registry, model: AnyModel, input: ModelWrite): Promise<void> {
  if (!holdsPasswords(registry, model)) return;
  for (const [name, value] of Object.entries(input.scalars)) {
    const attribute = model.attributes[name];
    if (attribute?.kind === 'scalar' && attribute.type === 'password' && typeof value === 'string') {
      input.scalars[name] = await Bun.password.hash(value);
    }
  }
  for (const value of Object.values(input.components)) {
    const items = value === null ? [] : Array.isArray(value) ? value : [value];
    for (const item of items) await hashPasswords(registry, item.component, item.input);
  }
}
