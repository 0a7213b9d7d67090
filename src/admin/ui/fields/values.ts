/**
 * The edit view's form state for every kind, and its trip to and from the API's JSON. Scalar
 * kinds are the inputs' strings (fields.ts); media and relations are lists of what was read
 * (so the form can show names and previews); components and dynamic-zone items carry their
 * own form values; blocks are Strapi's blocks JSON, which the rich-text editor reads and writes. Nothing else in
 * the app converts values.
 */
import type { AdminAttribute, AdminComponent } from '../../schema';
import { editable as scalarEditable, fromInput, toInput } from '../fields';

export interface FileRef {
  id: number;
  name: string;
  url: string;
  mime: string;
  alternativeText?: string | null;
  formats?: Record<string, { url: string }> | null;
  [key: string]: unknown;
}
export interface DocRef {
  documentId: string;
  label: string;
}
export interface ComponentItem {
  key: string;
  component: string;
  values: Values;
}
/** Rich text: Strapi's blocks JSON itself (the editor reads and writes it, blocks-codec.ts). */
export type BlocksValue = Record<string, unknown>[];
export type FormValue = string | boolean | null | FileRef[] | DocRef[] | ComponentItem | ComponentItem[] | BlocksValue;
export type Values = Record<string, FormValue>;
export type Components = Record<string, AdminComponent>;
export type Converted = { value: unknown } | { error: string } | { skip: true };

/** Keys for list items, so Preact keeps each item's DOM (and focus) through a reorder. */
let nextKey = 0;
export const newKey = () => `k${++nextKey}`;

const COMPLEX = new Set(['media', 'relation', 'component', 'dynamiczone', 'blocks', 'password']);
/** Kinds the form edits (morph relations and unknown kinds stay read-only). */
export const editable = (a: AdminAttribute) => COMPLEX.has(a.type) || scalarEditable(a);

/** A related entry's name in a picker: its main field, else its documentId. */
export function docLabel(doc: Record<string, unknown>, mainField: string | null): string {
  const value = mainField ? doc[mainField] : undefined;
  return value === null || value === undefined || value === '' ? String(doc.documentId) : String(value);
}

export function blankItem(components: Components, uid: string): ComponentItem {
  const c = components[uid];
  return { key: newKey(), component: uid, values: c ? blankValues(c.attributes, components) : {} };
}

/** A new entry's (or component's) form: each attribute's schema default, else empty. */
export const blankValues = (attributes: AdminAttribute[], components: Components): Values =>
  Object.fromEntries(attributes.filter(editable).map((a) => [a.name, toForm(a, a.default ?? null, components, () => null)]));

/** The API's value → the form's. `mainFieldOf` names related entries. */
export function toForm(a: AdminAttribute, value: unknown, components: Components, mainFieldOf: (uid: string) => string | null): FormValue {
  const item = (v: Record<string, unknown>, uid: string): ComponentItem => {
    const c = components[uid];
    const values: Values = {};
    for (const sub of (c?.attributes ?? []).filter(editable)) values[sub.name] = toForm(sub, v[sub.name], components, mainFieldOf);
    return { key: newKey(), component: uid, values };
  };
  switch (a.type) {
    case 'password':
      return '';
    case 'media':
      return (Array.isArray(value) ? value : value ? [value] : []) as FileRef[];
    case 'relation': {
      const list = (Array.isArray(value) ? value : value ? [value] : []) as Record<string, unknown>[];
      return list.map((d) => ({ documentId: String(d.documentId), label: docLabel(d, mainFieldOf(a.target!)) }));
    }
    case 'component':
      if (a.multiple) return (Array.isArray(value) ? value : []).map((v) => item(v, a.target!));
      return value && typeof value === 'object' ? item(value as Record<string, unknown>, a.target!) : null;
    case 'dynamiczone':
      return (Array.isArray(value) ? value : []).filter((v) => components[v?.__component]).map((v) => item(v, v.__component));
    case 'blocks':
      return Array.isArray(value) ? (value as BlocksValue) : [];
    default:
      return toInput(a, value);
  }
}

const isEmpty = (v: unknown) => v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * The form's values → the API's `data`, collecting messages for values the form can tell are
 * wrong (JSON that does not parse…) under their dotted paths. On a new entry empty values are
 * left out, so the schema's defaults apply.
 */
export function toData(
  attributes: AdminAttribute[],
  values: Values,
  components: Components,
  isNew: boolean,
  errors: Record<string, string>,
  prefix = '',
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const a of attributes.filter(editable)) {
    const path = `${prefix}${a.name}`;
    const converted = fromForm(a, values[a.name] ?? null, components, errors, path, isNew);
    if ('error' in converted) errors[path] = converted.error;
    else if ('value' in converted && !(isNew && isEmpty(converted.value))) data[a.name] = converted.value;
  }
  return data;
}

function fromForm(a: AdminAttribute, value: FormValue, components: Components, errors: Record<string, string>, path: string, isNew: boolean): Converted {
  const item = (it: ComponentItem, at: string, zone: boolean) => {
    const fields = toData(components[it.component]?.attributes ?? [], it.values, components, isNew, errors, `${at}.`);
    return zone ? { __component: it.component, ...fields } : fields;
  };
  switch (a.type) {
    case 'password':
      // Write-only: an empty field keeps the stored password.
      return value ? { value } : { skip: true };
    case 'media': {
      const ids = (value as FileRef[]).map((f) => f.id);
      return { value: a.multiple ? ids : (ids[0] ?? null) };
    }
    case 'relation':
      // `set` in the list's order: the saved order is exactly the one on screen.
      return { value: { set: (value as DocRef[]).map((d) => d.documentId) } };
    case 'component':
      if (a.multiple) return { value: (value as ComponentItem[]).map((it, i) => item(it, `${path}.${i}`, false)) };
      return { value: value ? item(value as ComponentItem, path, false) : null };
    case 'dynamiczone':
      return { value: (value as ComponentItem[]).map((it, i) => item(it, `${path}.${i}`, true)) };
    case 'blocks': {
      const blocks = (value ?? []) as BlocksValue;
      return { value: blocks.length ? blocks : null };
    }
    default: {
      const converted = fromInput(a, value as string | boolean);
      if ('error' in converted) return converted;
      return { value: converted.value === '' ? null : converted.value };
    }
  }
}
