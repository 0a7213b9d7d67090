/**
 * Settings → Roles: the list (create and delete custom roles) and a page per role with a
 * section per content type (its displayName) and per plugin, a checkbox per action named by
 * the action. Saving sends the whole set of checked actions; the API applies it at once.
 */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { checkedOf, valueOf } from '../dom';
import { Link, navigate } from '../router';
import { enc, Field, NoticeLine, useAction, useLoad } from './common';

interface Role {
  id: number;
  type: string;
  name: string;
  description: string | null;
  userCount: number;
}
interface Section {
  label: string;
  actions: { name: string; action: string; enabled: boolean }[];
}

const BUILT_IN = new Set(['public', 'authenticated']);

export function RolesList() {
  const { data, error, reload } = useLoad(() => api<{ data: Role[] }>('GET', '/settings/roles').then((r) => r.data));
  const { notice, busy, run } = useAction();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');

  async function create(event: Event) {
    event.preventDefault();
    const made = await run('Role created', () => api<{ data: Role }>('POST', '/settings/roles', { name, description }));
    if (made) navigate(`/admin/settings/roles/${enc(made.data.type)}`);
  }
  const remove = (role: Role) => () => void run(`Role ${role.name} deleted`, () => api('DELETE', `/settings/roles/${enc(role.type)}`)).then(reload);

  return h('div', null, [
    h('h2', null, 'Roles'),
    h('p', { class: 'muted' }, 'What each kind of API caller may do: Public for anonymous requests, Authenticated for logged-in users by default.'),
    h(NoticeLine, { notice }),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    data
      ? h('table', { class: 'entries' }, [
          h(
            'thead',
            null,
            h('tr', null, [
              h('th', { scope: 'col' }, 'Role'),
              h('th', { scope: 'col' }, 'Description'),
              h('th', { scope: 'col' }, 'Users'),
              h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
            ]),
          ),
          h(
            'tbody',
            null,
            data.map((role) =>
              h('tr', { key: role.type }, [
                h('td', null, h(Link, { href: `/admin/settings/roles/${enc(role.type)}` }, role.name)),
                h('td', null, role.description ?? ''),
                h('td', null, String(role.userCount)),
                h(
                  'td',
                  null,
                  BUILT_IN.has(role.type)
                    ? null
                    : h('button', { type: 'button', disabled: busy, 'aria-label': `Delete role ${role.name}`, onClick: remove(role) }, 'Delete'),
                ),
              ]),
            ),
          ),
        ])
      : h('p', { role: 'status' }, 'Loading…'),
    h('form', { class: 'panel', onSubmit: create }, [
      h('h3', null, 'Create a role'),
      h(Field, { id: 'role-name', label: 'Name' }, h('input', { id: 'role-name', required: true, value: name, onInput: (e: Event) => setName(valueOf(e)) })),
      h(
        Field,
        { id: 'role-description', label: 'Description' },
        h('input', { id: 'role-description', value: description, onInput: (e: Event) => setDescription(valueOf(e)) }),
      ),
      h('button', { type: 'submit', class: 'primary', disabled: busy }, 'Create role'),
    ]),
  ]);
}

export function RolePage(props: { type: string }) {
  const { data, error } = useLoad(
    () => api<{ data: { role: Role; sections: Section[] } }>('GET', `/settings/roles/${enc(props.type)}`).then((r) => r.data),
    props.type,
  );
  // Null until the first change: the boxes show the saved grants from the very first paint.
  const [edited, setChecked] = useState<Set<string> | null>(null);
  const { notice, busy, run } = useAction();
  const saved = () => new Set(data?.sections.flatMap((s) => s.actions.filter((a) => a.enabled).map((a) => a.action)) ?? []);
  const checked = edited ?? saved();

  const toggle = (action: string, on: boolean) =>
    setChecked((old) => {
      const next = new Set(old ?? saved());
      if (on) next.add(action);
      else next.delete(action);
      return next;
    });

  function save(event: Event) {
    event.preventDefault();
    void run('Saved', () => api('PUT', `/settings/roles/${enc(props.type)}`, { actions: [...checked] }));
  }

  if (error) return h('p', { class: 'error', role: 'alert' }, error);
  if (!data) return h('p', { role: 'status' }, 'Loading…');
  return h('div', null, [
    h('p', null, h(Link, { href: '/admin/settings/roles' }, '← Roles')),
    h('h2', null, data.role.name),
    data.role.description ? h('p', { class: 'muted' }, data.role.description) : null,
    h('form', { onSubmit: save }, [
      ...data.sections.map((section, i) =>
        h('fieldset', { key: section.label, class: 'permissions' }, [
          h('legend', null, section.label),
          h('div', { class: 'checks' }, [
            ...section.actions.map((a) => {
              const id = `perm-${i}-${a.name}`;
              return h('div', { class: 'field checkbox', key: a.action }, [
                h('input', { id, type: 'checkbox', checked: checked.has(a.action), onChange: (e: Event) => toggle(a.action, checkedOf(e)) }),
                h('label', { for: id, title: a.action }, a.name),
              ]);
            }),
          ]),
        ]),
      ),
      h(NoticeLine, { notice }),
      h('div', { class: 'actions sticky' }, h('button', { type: 'submit', class: 'primary', disabled: busy }, 'Save')),
    ]),
  ]);
}
