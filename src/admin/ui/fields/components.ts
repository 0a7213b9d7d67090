/**
 * Components and dynamic zones: each item is a collapsible group of its own fields (any kind,
 * components nest); repeatable components and dynamic zones are ordered lists (drag, keyboard,
 * Move up/down) with Add and Remove; a dynamic zone adds from its allowed components.
 */
import { h } from 'preact';
import { labelOf } from '../words';
import { useState } from 'preact/hooks';
import { Field, FieldGroup, fieldId, useEditor, type FieldProps } from './field';
import { SortableList } from './sortable';
import { blankItem, editable, type ComponentItem, type FormValue } from './values';

function ItemFields(props: { item: ComponentItem; path: string; errors: Record<string, string>; onChange: (item: ComponentItem) => void }) {
  const { components } = useEditor();
  const c = components[props.item.component];
  if (!c) return h('p', { class: 'muted' }, `Unknown component ${props.item.component}`);
  return h(
    'div',
    { class: 'component-fields' },
    c.attributes.filter(editable).map((sub) =>
      h(Field, {
        key: sub.name,
        attribute: sub,
        value: props.item.values[sub.name] ?? null,
        path: `${props.path}.${sub.name}`,
        errors: props.errors,
        siblings: props.item.values,
        onChange: (v: FormValue) => props.onChange({ ...props.item, values: { ...props.item.values, [sub.name]: v } }),
      }),
    ),
  );
}

/** Collapsed items, by key: a long list stays readable, and its values stay in the form. */
function useCollapsed() {
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const toggle = (key: string) =>
    setCollapsed((old) => {
      const next = new Set(old);
      next.has(key) ? next.delete(key) : next.add(key);
      return next;
    });
  return { isOpen: (key: string) => !collapsed.has(key), toggle };
}

function Collapsible(props: { open: boolean; name: string; onToggle: () => void; children?: any }) {
  return h('div', { class: 'collapsible' }, [
    h(
      'button',
      {
        type: 'button',
        class: 'small',
        'aria-expanded': props.open ? 'true' : 'false',
        'aria-label': `${props.open ? 'Collapse' : 'Expand'} ${props.name}`,
        onClick: props.onToggle,
      },
      props.open ? 'Collapse' : 'Expand',
    ),
    props.open ? props.children : null,
  ]);
}

/** The entries of a repeatable component or a dynamic zone: reorderable, each collapsible, or a note when empty. */
function EntryList(props: FieldProps & { label: string; empty: string; nameOf: (item: ComponentItem, i: number) => string }) {
  const { isOpen, toggle } = useCollapsed();
  const items = props.value as ComponentItem[];
  if (!items.length) return h('p', { class: 'muted' }, props.empty);
  return h(SortableList<ComponentItem>, {
    id: fieldId(props.path),
    label: props.label,
    items,
    keyOf: (it) => it.key,
    nameOf: props.nameOf,
    onChange: props.onChange,
    render: (it, i) =>
      h(
        Collapsible,
        { open: isOpen(it.key), name: props.nameOf(it, i), onToggle: () => toggle(it.key) },
        h(ItemFields, {
          item: it,
          path: `${props.path}.${i}`,
          errors: props.errors,
          onChange: (next) => props.onChange(items.map((x, j) => (j === i ? next : x))),
        }),
      ),
  });
}

export function ComponentField(props: FieldProps) {
  const a = props.attribute;
  const { components } = useEditor();
  const { isOpen, toggle } = useCollapsed();
  const displayName = components[a.target!]?.displayName ?? a.target!;
  if (!a.multiple) {
    const item = props.value as ComponentItem | null;
    return h(FieldGroup, { ...props }, [
      item
        ? h('div', { class: 'component' }, [
            h('div', { class: 'sortable-bar' }, [
              h('span', { class: 'sortable-name' }, displayName),
              h('button', { type: 'button', class: 'small', 'aria-label': `Remove ${labelOf(a)}`, onClick: () => props.onChange(null) }, 'Remove'),
            ]),
            h(
              Collapsible,
              { open: isOpen(item.key), name: labelOf(a), onToggle: () => toggle(item.key) },
              h(ItemFields, { item, path: props.path, errors: props.errors, onChange: props.onChange }),
            ),
          ])
        : h('button', { type: 'button', onClick: () => props.onChange(blankItem(components, a.target!)) }, `Add ${labelOf(a)}`),
    ]);
  }
  const items = props.value as ComponentItem[];
  return h(FieldGroup, { ...props }, [
    h(EntryList, { ...props, label: `${labelOf(a)}: ${displayName} entries`, empty: 'No entries.', nameOf: (_, i) => `${labelOf(a)} ${i + 1}` }),
    h('button', { type: 'button', onClick: () => props.onChange([...items, blankItem(components, a.target!)]) }, `Add an entry to ${labelOf(a)}`),
  ]);
}

export function DynamicZoneField(props: FieldProps) {
  const a = props.attribute;
  const { components } = useEditor();
  const allowed = (a.target ?? '').split(',').filter((uid) => components[uid]);
  const [choice, setChoice] = useState(allowed[0] ?? '');
  const items = props.value as ComponentItem[];
  const nameOf = (it: ComponentItem, i: number) => `${components[it.component]?.displayName ?? it.component} (${labelOf(a)} ${i + 1})`;
  const selectId = `${fieldId(props.path)}-add`;
  return h(FieldGroup, { ...props }, [
    h(EntryList, { ...props, label: `${labelOf(a)}: components`, empty: 'No components.', nameOf }),
    h('div', { class: 'field inline' }, [
      h('label', { for: selectId }, `Component to add to ${labelOf(a)}`),
      h(
        'select',
        { id: selectId, value: choice, onChange: (e: any) => setChoice(e.target.value) },
        allowed.map((uid) => h('option', { value: uid }, components[uid]!.displayName)),
      ),
      h('button', { type: 'button', disabled: !choice, onClick: () => props.onChange([...items, blankItem(components, choice)]) }, `Add to ${labelOf(a)}`),
    ]),
  ]);
}
