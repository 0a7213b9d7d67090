/**
 * One form control per attribute, labelled by the attribute's name, for the kinds this
 * version edits; the others are shown read-only with a note. Values travel between the
 * API's JSON and the inputs' strings here, and nowhere else.
 */
import { checkedOf, valueOf } from './dom';
import { h, type ComponentChildren } from 'preact';
import type { AdminAttribute } from '../schema';
import { labelOf } from './words';

const EDITABLE = new Set([
  'string',
  'text',
  'richtext',
  'email',
  'uid',
  'enumeration',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'date',
  'time',
  'datetime',
  'timestamp',
  'json',
]);
export const editable = (a: AdminAttribute) => EDITABLE.has(a.type);

const pad = (n: number) => String(n).padStart(2, '0');

/** The API's value → the input's value. */
export function toInput(a: AdminAttribute, value: unknown): string | boolean {
  if (a.type === 'boolean') return value === true;
  if (value === null || value === undefined) return '';
  if (a.type === 'json') return JSON.stringify(value, null, 2);
  if (a.type === 'datetime' || a.type === 'timestamp') {
    // A timestamp is answered as unix milliseconds in a string (Strapi's).
    const d = new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : String(value));
    return Number.isNaN(d.getTime()) ? '' : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }
  if (a.type === 'time') return String(value).slice(0, 8);
  return String(value);
}

/** The input's value → the API's value; a string result is a message for the field. */
export function fromInput(a: AdminAttribute, input: string | boolean): { value: unknown } | { error: string } {
  if (a.type === 'boolean') return { value: input === true };
  const text = String(input);
  if (text.trim() === '' && a.type !== 'string' && a.type !== 'text' && a.type !== 'richtext') return { value: null };
  switch (a.type) {
    case 'integer':
    case 'float':
    case 'decimal': {
      const n = Number(text);
      return Number.isFinite(n) ? { value: n } : { error: `${labelOf(a)} must be a number` };
    }
    case 'json':
      try {
        return { value: JSON.parse(text) };
      } catch {
        return { error: `${labelOf(a)} must be valid JSON` };
      }
    case 'datetime':
    case 'timestamp': {
      const d = new Date(text);
      return Number.isNaN(d.getTime()) ? { error: `${labelOf(a)} must be a date and time` } : { value: d.toISOString() };
    }
    case 'time':
      return { value: text.length === 5 ? `${text}:00` : text };
    default:
      return { value: text === '' ? null : text };
  }
}

const INPUT_TYPES: Record<string, string> = {
  string: 'text',
  email: 'email',
  uid: 'text',
  integer: 'number',
  biginteger: 'text',
  float: 'number',
  decimal: 'number',
  date: 'date',
  time: 'time',
  datetime: 'datetime-local',
  timestamp: 'datetime-local',
};

export function FieldControl(props: {
  attribute: AdminAttribute;
  id?: string;
  password?: boolean;
  value: string | boolean;
  error?: string;
  onChange: (v: string | boolean) => void;
  /** Beside the control, on its row (the uid's Regenerate). */
  beside?: ComponentChildren;
}) {
  const a = props.attribute;
  const id = props.id ?? `field-${a.name}`;
  const errorId = `${id}-error`;
  const descriptionId = `${id}-description`;
  const describedBy = [a.description ? descriptionId : '', props.error ? errorId : ''].filter(Boolean).join(' ');
  const described = { ...(props.error ? { 'aria-invalid': 'true' } : {}), ...(describedBy ? { 'aria-describedby': describedBy } : {}) };
  // The label is the attribute's name as words (or the view configuration's label); "required"
  // reaches assistive technology through aria-required, the eye through the mark.
  const label = h('label', { for: id }, labelOf(a));
  const mark = a.required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null;
  const description = a.description ? h('p', { id: descriptionId, class: 'description' }, a.description) : null;
  const error = props.error ? h('p', { id: errorId, class: 'field-error' }, props.error) : null;
  // No native constraints (required, min, maxLength…): they would stop the form before the
  // server's validation, the one source of truth, whose errors are shown at each field.
  const common = { id, name: a.name, 'aria-required': a.required ? 'true' : undefined, ...described };
  const onInput = (e: Event) => props.onChange(valueOf(e));

  if (!editable(a)) {
    return h('div', { class: 'field readonly', role: 'group', 'aria-labelledby': `${id}-label` }, [
      h('span', { id: `${id}-label`, class: 'label' }, labelOf(a)),
      h('p', { class: 'muted' }, `${a.type}${a.target ? ` (${a.target})` : ''}: not editable in the admin yet; use the REST API.`),
    ]);
  }
  // biome-ignore lint/suspicious/noImplicitAnyLet: each branch below builds a different element type
  let control;
  if (a.type === 'boolean') {
    return h('div', { class: 'field checkbox' }, [
      h('input', { ...common, type: 'checkbox', checked: props.value === true, onChange: (e: Event) => props.onChange(checkedOf(e)) }),
      label,
      mark,
      description,
      error,
    ]);
  } else if (a.type === 'enumeration') {
    control = h('select', { ...common, value: props.value, onChange: onInput }, [
      h('option', { value: '' }, a.placeholder || 'Choose here'),
      ...(a.enum ?? []).map((v) => h('option', { value: v }, v)),
    ]);
  } else if (a.type === 'text' || a.type === 'richtext' || a.type === 'json') {
    control = h('textarea', {
      ...common,
      rows: a.type === 'text' ? 4 : 8,
      class: a.type === 'json' ? 'code' : undefined,
      placeholder: a.placeholder,
      value: props.value,
      onInput,
    });
  } else {
    const numeric = a.type === 'integer' || a.type === 'float' || a.type === 'decimal';
    control = h('input', {
      ...common,
      type: props.password ? 'password' : (INPUT_TYPES[a.type] ?? 'text'),
      ...(props.password
        ? { autocomplete: 'new-password', placeholder: 'Unchanged unless you type a new one' }
        : a.placeholder
          ? { placeholder: a.placeholder }
          : {}),
      value: props.value,
      onInput,
      ...(numeric || a.type === 'time' ? { step: 'any' } : {}),
    });
  }
  return h('div', { class: 'field' }, [
    h('div', { class: 'label-row' }, [label, mark]),
    props.beside ? h('div', { class: 'uid-row' }, [control, props.beside]) : control,
    description,
    error,
  ]);
}
