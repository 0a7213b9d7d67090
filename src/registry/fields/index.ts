/**
 * Compiles the fields of a model: one Field per attribute (see field.ts), plus the
 * system fields every content type has (id, documentId, timestamps, locale), which
 * filters and sort treat like attributes.
 */
import type { AnyModel, Attribute, ScalarAttribute, ScalarType } from '../types';
import { dateField } from './dates';
import type { Field, ScalarField } from './field';
import { numberField } from './numbers';
import { structuredField } from './structured';
import { textField } from './text';

export * from './field';

function scalar(attribute: ScalarAttribute): ScalarField {
  const field = numberField(attribute) ?? textField(attribute) ?? dateField(attribute) ?? structuredField(attribute);
  if (!field) throw new Error(`No field for attribute type ${attribute.type}`);
  return field;
}

/** The Field of one attribute. */
export function compileField(attribute: Attribute): Field {
  if (attribute.kind === 'scalar') return scalar(attribute);
  const reference = { name: attribute.name, columnType: () => undefined };
  switch (attribute.kind) {
    case 'relation':
      return { ...reference, kind: 'relation', attribute };
    case 'morph':
      return { ...reference, kind: 'morph', attribute };
    case 'media':
      return { ...reference, kind: 'media', attribute };
    case 'component':
      return { ...reference, kind: 'component', attribute };
    case 'dynamiczone':
      return { ...reference, kind: 'dynamiczone', attribute };
  }
}

/** Fields of every attribute, in declaration order. */
export function compileFields(attributes: Record<string, Attribute>): Record<string, Field> {
  const out: Record<string, Field> = {};
  for (const [name, attribute] of Object.entries(attributes)) out[name] = compileField(attribute);
  return out;
}

const systemAttribute = (name: string, type: ScalarType): ScalarAttribute => ({
  name,
  kind: 'scalar',
  type,
  unique: false,
  required: false,
  private: false,
  localized: false,
  writable: false,
});

/** Columns every row has, as fields: filters and sort coerce and compare them like attributes. */
export const ID_FIELD: ScalarField = scalar(systemAttribute('id', 'integer'));

const CONTENT_SYSTEM_FIELDS: Record<string, ScalarField> = {
  documentId: scalar(systemAttribute('documentId', 'string')),
  createdAt: scalar(systemAttribute('createdAt', 'datetime')),
  updatedAt: scalar(systemAttribute('updatedAt', 'datetime')),
  publishedAt: scalar(systemAttribute('publishedAt', 'datetime')),
  locale: scalar(systemAttribute('locale', 'string')),
};

/**
 * The scalar field a name refers to on a model — an attribute or a system column — or
 * undefined. System fields hold no caches, so sharing them between installations is safe.
 */
export function scalarFieldOf(model: AnyModel, name: string): ScalarField | undefined {
  if (name === 'id') return ID_FIELD;
  const field = model.fields[name];
  if (field) return field.kind === 'scalar' ? field : undefined;
  if (model.modelType !== 'contentType') return undefined;
  if (name === 'locale' && !model.localized) return undefined;
  return CONTENT_SYSTEM_FIELDS[name];
}

/** Scalar fields a response may show, in declaration order (not private, not passwords). */
export function visibleScalars(model: AnyModel): ScalarField[] {
  return Object.values(model.fields).filter((f): f is ScalarField => f.kind === 'scalar' && f.visible);
}

/** Whether `fields`, `sort` and `filters` may name it: a shown attribute, id, documentId, the timestamps, the locale of a localized type. */
export function isSelectable(model: AnyModel, name: string): boolean {
  return scalarFieldOf(model, name)?.visible === true;
}
