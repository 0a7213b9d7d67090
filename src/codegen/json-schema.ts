/**
 * JSON Schemas of documents and components, read from the compiled field model: what a
 * response holds (scalars as their fields check them, relations, media, components and
 * dynamic zones in their populated shapes) and what a write's `data` may hold. No HTTP here:
 * the caller says how a reference to a named schema is written (`#/components/schemas/…` in
 * OpenAPI) and must define the shared names used below (`RelationInput`, `MorphTarget`,
 * `MorphInput`, and the system
 * types' names from codegen/names.ts, `UploadFile` among them).
 */
import type { ScalarField } from '../registry/fields';
import { shownByContentApi } from '../registry/system-models';
import type { AnyModel, Attribute, Component, ContentType, Registry } from '../registry/types';
import { nameOf } from './names';

export type Schema = Record<string, unknown>;

export interface SchemaContext {
  registry: Registry;
  names: Map<string, string>;
  ref(name: string): Schema;
}

/** A field's own check schema as plain JSON (TypeBox marks its schemas with symbol keys). */
const plain = (schema: unknown): Schema => JSON.parse(JSON.stringify(schema)) as Schema;

/** Allows null beside a schema, in the shortest form a reader (and a code generator) understands. */
export function nullable(schema: Schema): Schema {
  if (Object.keys(schema).length === 0) return schema; // anything, null included (json)
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  const options = schema.anyOf as Schema[] | undefined;
  // An enumeration: TypeBox writes a union of string literals.
  if (options?.every((o) => 'const' in o)) return { type: ['string', 'null'], enum: [...options.map((o) => o.const), null] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** What a stored value of a scalar field looks like in a response (or a write, `mode` 'draft' checks the least). */
function scalarSchema(field: ScalarField): Schema {
  const schema = plain(field.schema('draft'));
  // The field checks a datetime by parsing it; answers always carry the ISO form.
  if (field.type === 'datetime') schema.format = 'date-time';
  if (field.type === 'date') schema.format = 'date';
  if (field.type === 'timestamp') schema.description = 'Unix time in milliseconds, as a string';
  if (field.type === 'biginteger') schema.description = '64-bit integer, as a string of digits';
  if (field.attribute.customField) schema.description = `Custom field ${field.attribute.customField}`;
  return nullable(schema);
}

/** Attributes a response or a write may carry: not private (private scalars are never shown nor written by clients). */
const publicAttributes = (model: AnyModel) => Object.values(model.attributes).filter((a) => !a.private && !(a.kind === 'scalar' && a.type === 'password'));

/** Attributes a write may name: the read-back side of a polymorphic relation (morphOne / morphMany) takes no value. */
const writable = (model: AnyModel) => publicAttributes(model).filter((a) => a.kind !== 'morph' || a.owner);

/** A populated relation, media, component or dynamic zone, as responses carry it. */
function populatedSchema(ctx: SchemaContext, attribute: Attribute): Schema | undefined {
  const named = (uid: string) => (ctx.names.has(uid) ? ctx.ref(nameOf(ctx.names, uid)) : { type: 'object' });
  const oneOrMany = (item: Schema, many: boolean) => (many ? { type: 'array', items: item } : { anyOf: [item, { type: 'null' }] });
  switch (attribute.kind) {
    case 'scalar':
      return undefined;
    case 'relation':
      // A relation to admin users is stored but never populated through the content API.
      return shownByContentApi(attribute.target) ? oneOrMany(named(attribute.target), attribute.toMany) : undefined;
    case 'morph':
      // The morphTo side holds documents of any type, each naming it in `__type`; the other side, its target's.
      return oneOrMany(attribute.target ? named(attribute.target) : ctx.ref('MorphTarget'), attribute.toMany);
    case 'media':
      return oneOrMany(named('plugin::upload.file'), attribute.multiple);
    case 'component':
      return oneOrMany(named(attribute.component), attribute.repeatable);
    case 'dynamiczone':
      return {
        type: 'array',
        items: {
          oneOf: attribute.components.map((uid) => ctx.ref(`${nameOf(ctx.names, uid)}Entry`)),
          discriminator: {
            propertyName: '__component',
            mapping: Object.fromEntries(attribute.components.map((uid) => [uid, ctx.ref(`${nameOf(ctx.names, uid)}Entry`).$ref])),
          },
        },
      };
  }
}

const DESCRIBE_POPULATED = 'Relations, media, components and dynamic zones appear only when populated (`populate`).';

/**
 * A document of a content type (system types included) or a component's value, as a response
 * holds it. Only `id` (and `documentId`) are always there: `fields` may leave out any other.
 * `zoneUid`: the component as a dynamic-zone entry, which also names itself in `__component`.
 */
export function outputSchema(ctx: SchemaContext, model: AnyModel, zoneUid?: string): Schema {
  const properties: Schema = { id: { type: 'integer' } };
  const required = ['id'];
  if (model.modelType === 'contentType') {
    properties.documentId = { type: 'string' };
    required.push('documentId');
  }
  if (zoneUid) {
    properties.__component = { type: 'string', const: zoneUid };
    required.push('__component');
  }
  for (const attribute of publicAttributes(model)) {
    if (attribute.kind === 'scalar') properties[attribute.name] = scalarSchema(model.fields[attribute.name] as ScalarField);
  }
  if (model.modelType === 'contentType') {
    properties.createdAt = { type: 'string', format: 'date-time' };
    properties.updatedAt = { type: 'string', format: 'date-time' };
    properties.publishedAt = { type: ['string', 'null'], format: 'date-time' };
    if (model.localized) properties.locale = { type: 'string' };
  }
  for (const attribute of publicAttributes(model)) {
    const populated = populatedSchema(ctx, attribute);
    if (populated) properties[attribute.name] = populated;
  }
  // `populate=*` (or populate[localizations]) on a localized type lists its other locales.
  if (model.modelType === 'contentType' && model.localized) properties.localizations = { type: 'array', items: ctx.ref(nameOf(ctx.names, model)) };
  const described = model.modelType === 'contentType' || zoneUid;
  return { type: 'object', ...(described ? { description: DESCRIBE_POPULATED } : {}), properties, required };
}

/** What a write may give one attribute. */
function inputAttribute(ctx: SchemaContext, model: AnyModel, attribute: Attribute): Schema {
  if (attribute.kind === 'scalar') return scalarSchema(model.fields[attribute.name] as ScalarField);
  switch (attribute.kind) {
    case 'relation':
      return ctx.ref('RelationInput');
    case 'morph':
      return ctx.ref('MorphInput');
    case 'media':
      return attribute.multiple
        ? { type: 'array', items: { type: 'integer' }, description: 'Ids of uploaded files' }
        : { type: ['integer', 'null'], description: 'Id of an uploaded file' };
    case 'component': {
      const item = ctx.ref(`${nameOf(ctx.names, attribute.component)}Input`);
      return attribute.repeatable ? { type: 'array', items: item } : { anyOf: [item, { type: 'null' }] };
    }
    case 'dynamiczone':
      return {
        type: 'array',
        items: {
          oneOf: attribute.components.map((uid) => ctx.ref(`${nameOf(ctx.names, uid)}EntryInput`)),
          discriminator: {
            propertyName: '__component',
            mapping: Object.fromEntries(attribute.components.map((uid) => [uid, ctx.ref(`${nameOf(ctx.names, uid)}EntryInput`).$ref])),
          },
        },
      };
  }
  throw new Error(`Unknown attribute kind of ${(attribute as Attribute).name}`);
}

/**
 * The `data` of a write. Nothing is listed as required: a PUT changes only what it names,
 * and drafts skip required checks (publishing checks them, answering 400 with every problem).
 */
export function inputSchema(ctx: SchemaContext, model: AnyModel, zoneUid?: string): Schema {
  const properties: Schema = {};
  // A component value may name the row it updates (the `id` a read gave).
  if (model.modelType === 'component') properties.id = { type: 'integer', description: 'The id of an existing entry, to update it in place' };
  if (zoneUid) properties.__component = { type: 'string', const: zoneUid };
  for (const attribute of writable(model)) properties[attribute.name] = inputAttribute(ctx, model, attribute);
  return { type: 'object', additionalProperties: false, properties, ...(zoneUid ? { required: ['__component'] } : {}) };
}

/** Every named schema of the registry's models: documents, inputs, and the dynamic-zone entries of components. */
export function modelSchemas(ctx: SchemaContext): Schema {
  const out: Schema = {};
  const documents: ContentType[] = [...ctx.registry.systemTypes.filter((t) => shownByContentApi(t.uid)), ...ctx.registry.contentTypes];
  for (const ct of documents) out[nameOf(ctx.names, ct)] = outputSchema(ctx, ct);
  for (const ct of ctx.registry.contentTypes) out[`${nameOf(ctx.names, ct)}Input`] = inputSchema(ctx, ct);
  for (const component of ctx.registry.components as Component[]) {
    const name = nameOf(ctx.names, component);
    out[name] = outputSchema(ctx, component);
    out[`${name}Input`] = inputSchema(ctx, component);
    out[`${name}Entry`] = outputSchema(ctx, component, component.uid);
    out[`${name}EntryInput`] = inputSchema(ctx, component, component.uid);
  }
  return out;
}
