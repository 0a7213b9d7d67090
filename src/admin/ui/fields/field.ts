/**
 * One attribute's control, by kind: the scalar inputs of fields.ts, or the editors under
 * fields/ for media, relations, components, dynamic zones, blocks, uid and password. Nested
 * fields (inside components) take dotted paths, which are also where the API's validation
 * errors land (`links.0.label`).
 */
import { createContext, h } from 'preact';
import { useContext } from 'preact/hooks';
import type { AdminAttribute, AdminContentType } from '../../schema';
import { FieldControl } from '../fields';
import type { Schema } from '../main';
import { BlocksField } from './blocks';
import { ComponentField, DynamicZoneField } from './components';
import { MediaField } from './media';
import { RelationField } from './relations';
import { UidField } from './uid';
import { labelOf } from '../words';

export { labelOf };
import type { Components, FormValue, Values } from './values';

export interface Editor {
  schema: Schema;
  ct: AdminContentType;
  locale?: string;
  documentId: string | null;
  components: Components;
  mainFieldOf: (uid: string) => string | null;
}

export const EditorContext = createContext<Editor>(null as never);
export const useEditor = () => useContext(EditorContext);

export interface FieldProps {
  attribute: AdminAttribute;
  value: FormValue;
  onChange: (value: FormValue) => void;
  /** Dotted path from the entry's root: the control's id and where its errors are found. */
  path: string;
  errors: Record<string, string>;
  /** The values beside this one (a uid reads its target field there). */
  siblings: Values;
}

export const fieldId = (path: string) => `field-${path}`;

/**
 * A field's width on the edit form's 12-column grid, as Strapi lays it out by default: short
 * values side by side, long text, rich text, JSON, components and dynamic zones full width.
 * The view configuration's width wins.
 */
export function widthOf(a: AdminAttribute): number {
  if (a.size) return a.size;
  switch (a.type) {
    case 'boolean':
    case 'integer':
    case 'biginteger':
    case 'float':
    case 'decimal':
    case 'date':
    case 'time':
    case 'datetime':
    case 'timestamp':
      return 4;
    case 'blocks':
    case 'richtext':
    case 'json':
    case 'component':
    case 'dynamiczone':
      return 12;
    default:
      return 6;
  }
}

/** The label row, the error under the control, and the group that names a composite field. */
export function FieldGroup(props: { path: string; attribute: AdminAttribute; errors: Record<string, string>; children?: any }) {
  const id = fieldId(props.path);
  const error = props.errors[props.path];
  return h('div', { class: 'field composite', role: 'group', 'aria-labelledby': `${id}-label`, 'aria-describedby': error ? `${id}-error` : undefined }, [
    h('div', { class: 'label-row' }, [
      h('span', { id: `${id}-label`, class: 'label' }, labelOf(props.attribute)),
      props.attribute.required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null,
    ]),
    props.children,
    error ? h('p', { id: `${id}-error`, class: 'field-error' }, error) : null,
  ]);
}

export function Field(props: FieldProps) {
  const a = props.attribute;
  switch (a.type) {
    case 'media':
      return h(MediaField, props);
    case 'relation':
      return h(RelationField, props);
    case 'component':
      return h(ComponentField, props);
    case 'dynamiczone':
      return h(DynamicZoneField, props);
    case 'blocks':
      return h(BlocksField, props);
    case 'uid':
      return h(UidField, props);
    case 'password':
      return h(FieldControl, {
        attribute: { ...a, type: 'string' },
        id: fieldId(props.path),
        password: true,
        value: props.value as string,
        error: props.errors[props.path],
        onChange: props.onChange,
      });
    default:
      return h(FieldControl, {
        attribute: a,
        id: fieldId(props.path),
        value: props.value as string | boolean,
        error: props.errors[props.path],
        onChange: props.onChange,
      });
  }
}
