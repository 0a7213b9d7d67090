/**
 * "Configure the view" of a content type (Super Admins; /admin/configure/:uid): the entry title,
 * the list's default sort and page size, its columns (ordered), and for every field of the
 * edit view its label, description, placeholder, position and width. Saved with PUT
 * /admin/api/views/:uid (src/admin/views.ts), which checks it all; Reset goes back to the defaults.
 */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import type { AdminContentType, EffectiveView } from '../schema';
import { api, uidPath } from './api';
import { SortableList } from './fields/sortable';
import { columnLabel, LISTABLE } from './list';
import type { Schema } from './main';
import { Link } from './router';
import { errorText, NoticeLine, useAction, useLoad } from './settings/common';
import { words } from './words';

interface Texts {
  label?: string;
  description?: string;
  placeholder?: string;
}
interface Config {
  mainField: string | null;
  defaultSort: string;
  pageSize: number;
  list: string[];
  edit: { name: string; size: number }[];
  fields: Record<string, Texts>;
}

const SIZES: [number, string][] = [
  [3, 'Quarter'],
  [4, 'Third'],
  [6, 'Half'],
  [8, 'Two thirds'],
  [12, 'Full width'],
];
const NAMING = new Set(['string', 'uid', 'email', 'text', 'enumeration', 'integer', 'biginteger', 'float', 'decimal', 'date', 'datetime']);
const WITH_PLACEHOLDER = new Set([
  'string',
  'text',
  'email',
  'uid',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'richtext',
  'json',
  'enumeration',
  'password',
]);

export function ConfigureView(props: { schema: Schema; ct: AdminContentType; role: string; onSaved: () => Promise<void> }) {
  const { ct } = props;
  const path = `/views/${uidPath(ct.uid)}`;
  const { data, error, reload } = useLoad(() => api<{ data: { fields?: Record<string, Texts> }; meta: { view: EffectiveView } }>('GET', path));
  if (props.role !== 'super-admin')
    return h('div', null, [h('h1', null, `Configure the view: ${ct.displayName}`), h('p', null, 'Only a Super Admin may configure the views.')]);
  if (error) return h('p', { class: 'error', role: 'alert' }, error);
  if (!data) return h('p', { role: 'status' }, 'Loading…');
  return h(ConfigureForm, { key: JSON.stringify(data), ...props, initial: { ...data.meta.view, fields: data.data.fields ?? {} }, path, reload });
}

function ConfigureForm(props: { ct: AdminContentType; initial: Config; path: string; reload: () => void; onSaved: () => Promise<void> }) {
  const { ct } = props;
  const [config, setConfig] = useState<Config>(props.initial);
  const { notice, busy, run, setNotice } = useAction();
  const set = <K extends keyof Config>(key: K, value: Config[K]) => setConfig((old) => ({ ...old, [key]: value }));
  const byName = new Map(ct.attributes.map((a) => [a.name, a]));
  const nameOf = (name: string) => words(name);
  const sortable = [...ct.attributes.filter((a) => LISTABLE.has(a.type)).map((a) => a.name), 'createdAt', 'updatedAt'];
  const [sortField = 'updatedAt', sortOrder = 'desc'] = config.defaultSort.split(':');
  const [adding, setAdding] = useState('');
  const addable = sortable.filter((c) => !config.list.includes(c));
  const setText = (name: string, key: keyof Texts, value: string) =>
    setConfig((old) => ({ ...old, fields: { ...old.fields, [name]: { ...(old.fields[name] ?? {}), [key]: value } } }));

  async function save(event: Event) {
    event.preventDefault();
    const fields: Record<string, Texts> = {};
    for (const [name, texts] of Object.entries(config.fields)) {
      const kept = Object.fromEntries(Object.entries(texts).filter(([, v]) => typeof v === 'string' && v.trim() !== ''));
      if (Object.keys(kept).length) fields[name] = kept;
    }
    const body = { mainField: config.mainField, defaultSort: config.defaultSort, pageSize: config.pageSize, list: config.list, edit: config.edit, fields };
    if (await run('View saved: the list and the edit view use it now', () => api('PUT', props.path, { data: body }))) await props.onSaved();
  }
  async function reset() {
    if (await run('Back to the defaults', () => api('DELETE', props.path))) {
      await props.onSaved();
      props.reload();
    }
  }

  const select = (id: string, label: string, value: string, options: [string, string][], onChange: (v: string) => void) =>
    h('div', { class: 'field' }, [
      h('label', { for: id }, label),
      h(
        'select',
        { id, value, onChange: (e: any) => onChange(e.target.value) },
        options.map(([v, l]) => h('option', { value: v }, l)),
      ),
    ]);

  return h('div', null, [
    h('p', { class: 'back' }, h(Link, { href: `/admin/content/${encodeURIComponent(ct.uid)}` }, `← ${ct.displayName}`)),
    h('h1', null, `Configure the view: ${ct.displayName}`),
    h('form', { onSubmit: save, class: 'configure', 'aria-label': `Configure the view of ${ct.displayName}` }, [
      h('section', { class: 'box', 'aria-labelledby': 'configure-settings' }, [
        h('h2', { id: 'configure-settings' }, 'Settings'),
        h('div', { class: 'settings-grid' }, [
          select(
            'configure-main',
            'Entry title',
            config.mainField ?? '',
            [['', 'Its ID'], ...ct.attributes.filter((a) => NAMING.has(a.type)).map((a): [string, string] => [a.name, nameOf(a.name)])],
            (v) => set('mainField', v || null),
          ),
          select(
            'configure-sort',
            'Default sort',
            sortField,
            sortable.map((c): [string, string] => [c, columnLabel(c, ct)]),
            (v) => set('defaultSort', `${v}:${sortOrder}`),
          ),
          select(
            'configure-order',
            'Sort order',
            sortOrder,
            [
              ['asc', 'Ascending (A to Z, oldest first)'],
              ['desc', 'Descending (Z to A, newest first)'],
            ],
            (v) => set('defaultSort', `${sortField}:${v}`),
          ),
          select(
            'configure-page-size',
            'Entries per page',
            String(config.pageSize),
            [10, 20, 50, 100].map((n): [string, string] => [String(n), String(n)]),
            (v) => set('pageSize', Number(v)),
          ),
        ]),
      ]),
      h('section', { class: 'box', 'aria-labelledby': 'configure-list' }, [
        h('h2', { id: 'configure-list' }, 'List columns'),
        h('p', { class: 'muted hint' }, 'The columns the list shows by default, in order (each editor may still pick others in the list).'),
        h(SortableList<string>, {
          id: 'configure-columns',
          label: 'List columns',
          items: config.list,
          keyOf: (c) => c,
          nameOf: (c) => columnLabel(c, ct),
          render: () => null,
          onChange: (list) => list.length && set('list', list),
        }),
        addable.length && config.list.length < 8
          ? h('div', { class: 'field inline' }, [
              h('label', { for: 'configure-add-column' }, 'Column to add'),
              h('select', { id: 'configure-add-column', value: adding, onChange: (e: any) => setAdding(e.target.value) }, [
                h('option', { value: '' }, 'Choose a field'),
                ...addable.map((c) => h('option', { value: c }, columnLabel(c, ct))),
              ]),
              h('button', { type: 'button', disabled: !adding, onClick: () => (set('list', [...config.list, adding]), setAdding('')) }, 'Add column'),
            ])
          : null,
      ]),
      h('section', { class: 'box', 'aria-labelledby': 'configure-edit' }, [
        h('h2', { id: 'configure-edit' }, 'Edit view'),
        h(
          'p',
          { class: 'muted hint' },
          'Each field’s label, help text and width, in the order the form shows them. Left empty, a label is the field’s name as words.',
        ),
        h(SortableList<{ name: string; size: number }>, {
          id: 'configure-fields',
          label: 'Fields of the edit view',
          items: config.edit,
          keyOf: (e) => e.name,
          nameOf: (e) => nameOf(e.name),
          onChange: (edit) => set('edit', edit),
          removable: false,
          render: (e) => {
            const a = byName.get(e.name);
            const texts = config.fields[e.name] ?? {};
            const id = `configure-${e.name}`;
            return h('div', { class: 'configure-field' }, [
              h('div', { class: 'field' }, [
                h('label', { for: `${id}-label` }, `Label of ${nameOf(e.name)}`),
                h('input', {
                  id: `${id}-label`,
                  maxLength: 100,
                  placeholder: nameOf(e.name),
                  value: texts.label ?? '',
                  onInput: (ev: any) => setText(e.name, 'label', ev.target.value),
                }),
              ]),
              h('div', { class: 'field' }, [
                h('label', { for: `${id}-description` }, `Description of ${nameOf(e.name)}`),
                h('input', {
                  id: `${id}-description`,
                  maxLength: 300,
                  value: texts.description ?? '',
                  onInput: (ev: any) => setText(e.name, 'description', ev.target.value),
                }),
              ]),
              a && WITH_PLACEHOLDER.has(a.type)
                ? h('div', { class: 'field' }, [
                    h('label', { for: `${id}-placeholder` }, `Placeholder of ${nameOf(e.name)}`),
                    h('input', {
                      id: `${id}-placeholder`,
                      maxLength: 100,
                      value: texts.placeholder ?? '',
                      onInput: (ev: any) => setText(e.name, 'placeholder', ev.target.value),
                    }),
                  ])
                : null,
              h('div', { class: 'field' }, [
                h('label', { for: `${id}-size` }, `Width of ${nameOf(e.name)}`),
                h(
                  'select',
                  {
                    id: `${id}-size`,
                    value: String(e.size),
                    onChange: (ev: any) =>
                      set(
                        'edit',
                        config.edit.map((x) => (x.name === e.name ? { ...x, size: Number(ev.target.value) } : x)),
                      ),
                  },
                  SIZES.map(([n, l]) => h('option', { value: String(n) }, `${l} (${n}/12)`)),
                ),
              ]),
            ]);
          },
        }),
      ]),
      h(NoticeLine, { notice }),
      h('div', { class: 'actions' }, [
        h('button', { type: 'submit', class: 'primary', disabled: busy }, 'Save the view'),
        h(
          'button',
          { type: 'button', disabled: busy, onClick: () => void reset().catch((e) => setNotice({ text: errorText(e), error: true })) },
          'Reset to the defaults',
        ),
      ]),
    ]),
  ]);
}
