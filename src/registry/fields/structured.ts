/**
 * Structured values stored as JSON text: `json` (anything JSON can say) and `blocks`
 * (Strapi's rich text, checked node by node in blocks.ts).
 */
import { Type } from '@sinclair/typebox';
import type { ScalarAttribute } from '../types';
import { checkBlocks } from './blocks';
import type { ScalarField } from './field';
import { scalarField, TEXT_COLUMN, type ScalarSpec } from './scalar';

const json: ScalarSpec = {
  columnType: TEXT_COLUMN,
  schema: () => Type.Unknown(),
  toColumn: (value) => JSON.stringify(value),
  fromColumn: (raw) => (typeof raw === 'string' ? JSON.parse(raw) : raw),
};

const blocks: ScalarSpec = {
  ...json,
  typeName: 'array',
  schema: () => Type.Array(Type.Object({ type: Type.String() }, { additionalProperties: true })),
  // Node by node, with a path into the value (Strapi's blocks rules).
  checkValue: (value, label, field) => (Array.isArray(value) ? checkBlocks(value, label) : { message: field.typeMessage(label, value), path: [], value }),
};

export function structuredField(attribute: ScalarAttribute): ScalarField | undefined {
  if (attribute.type === 'json') return scalarField(attribute, json);
  if (attribute.type === 'blocks') return scalarField(attribute, blocks);
  return undefined;
}
