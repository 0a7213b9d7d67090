/** Settings → Users (the API's end users: search, block / unblock, role) and Admin users. */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { valueOf } from '../dom';
import { navigate } from '../router';
import { Field, NoticeLine, useAction, useLoad } from './common';

interface User {
  id: number;
  username: string;
  email: string;
  blocked: boolean;
  role: { type: string; name: string } | null;
}
interface Admin {
  id: number;
  email: string;
  role: 'super-admin' | 'editor';
}

const ADMIN_ROLES: [string, string][] = [
  ['super-admin', 'Super Admin'],
  ['editor', 'Editor'],
];

export function UsersPage(props: { url: URL }) {
  const q = props.url.searchParams.get('q') ?? '';
  const page = Math.max(1, Number(props.url.searchParams.get('page')) || 1);
  const { data, error, reload } = useLoad(
    () =>
      api<{ data: User[]; meta: { hasMore: boolean; roles: { type: string; name: string }[] } }>(
        'GET',
        `/settings/users?${new URLSearchParams({ q, page: String(page) })}`,
      ),
    `${q}:${page}`,
  );
  const { notice, busy, run } = useAction();
  const [search, setSearch] = useState(q);
  const go = (next: { q?: string; page?: number }) => {
    const params = new URLSearchParams();
    const nq = next.q ?? q;
    if (nq) params.set('q', nq);
    if ((next.page ?? 1) > 1) params.set('page', String(next.page));
    navigate(`/admin/settings/users${params.size ? `?${params}` : ''}`);
  };
  const change = (u: User, body: Record<string, unknown>, done: string) => () => void run(done, () => api('PUT', `/settings/users/${u.id}`, body)).then(reload);

  return h('div', null, [
    h('h2', null, 'Users'),
    h('p', { class: 'muted' }, "The API's end users (they log in with POST /api/auth/local). A blocked user cannot log in."),
    h('form', { role: 'search', class: 'toolbar', onSubmit: (e: Event) => (e.preventDefault(), go({ q: search.trim(), page: 1 })) }, [
      h('label', { for: 'user-search' }, 'Search users'),
      h('input', { id: 'user-search', type: 'search', value: search, onInput: (e: Event) => setSearch(valueOf(e)) }),
      h('button', { type: 'submit' }, 'Search'),
    ]),
    h(NoticeLine, { notice }),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    !data
      ? h('p', { role: 'status' }, 'Loading…')
      : data.data.length === 0
        ? h('p', { role: 'status' }, q ? `No user matches "${q}".` : 'No user yet.')
        : h('table', { class: 'entries' }, [
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                ['Username', 'Email', 'Role', 'Status']
                  .map((c) => h('th', { scope: 'col' }, c))
                  .concat(h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions'))),
              ),
            ),
            h(
              'tbody',
              null,
              data.data.map((u) =>
                h('tr', { key: u.id }, [
                  h('td', null, u.username),
                  h('td', null, u.email),
                  h(
                    'td',
                    null,
                    h(
                      'select',
                      {
                        'aria-label': `Role of ${u.username}`,
                        value: u.role?.type ?? '',
                        disabled: busy,
                        onChange: (e: Event) => change(u, { role: valueOf(e) }, `${u.username} now has role ${valueOf(e)}`)(),
                      },
                      data.meta.roles.map((r) => h('option', { value: r.type }, r.name)),
                    ),
                  ),
                  h('td', null, u.blocked ? h('span', { class: 'badge badge-modified' }, 'Blocked') : 'Active'),
                  h(
                    'td',
                    null,
                    h(
                      'button',
                      {
                        type: 'button',
                        disabled: busy,
                        'aria-label': `${u.blocked ? 'Unblock' : 'Block'} ${u.username}`,
                        onClick: change(u, { blocked: !u.blocked }, `${u.username} ${u.blocked ? 'unblocked' : 'blocked'}`),
                      },
                      u.blocked ? 'Unblock' : 'Block',
                    ),
                  ),
                ]),
              ),
            ),
          ]),
    data && (page > 1 || data.meta.hasMore)
      ? h('nav', { 'aria-label': 'Pagination', class: 'pager' }, [
          h('button', { type: 'button', disabled: page <= 1, onClick: () => go({ page: page - 1 }) }, 'Previous page'),
          h('span', null, `Page ${page}`),
          h('button', { type: 'button', disabled: !data.meta.hasMore, onClick: () => go({ page: page + 1 }) }, 'Next page'),
        ])
      : null,
  ]);
}

export function AdminsPage(props: { me: number }) {
  const { data, error, reload } = useLoad(() => api<{ data: Admin[] }>('GET', '/settings/admins').then((r) => r.data));
  const { notice, busy, run } = useAction();
  const [form, setForm] = useState({ email: '', password: '', role: 'editor' });
  const set = (key: keyof typeof form) => (e: Event) => setForm((old) => ({ ...old, [key]: valueOf(e) }));

  async function create(event: Event) {
    event.preventDefault();
    if (await run(`Admin ${form.email} created`, () => api('POST', '/settings/admins', form))) {
      setForm({ email: '', password: '', role: 'editor' });
      reload();
    }
  }
  const setRole = (a: Admin) => (e: Event) => {
    const role = valueOf(e);
    void run(`${a.email} is now ${role === 'editor' ? 'an Editor' : 'a Super Admin'}`, () => api('PUT', `/settings/admins/${a.id}`, { role })).then(reload);
  };
  const remove = (a: Admin) => () => void run(`Admin ${a.email} deleted`, () => api('DELETE', `/settings/admins/${a.id}`)).then(reload);

  return h('div', null, [
    h('h2', null, 'Admin users'),
    h('p', { class: 'muted' }, 'A Super Admin may do everything; an Editor content and media only. The last Super Admin cannot be deleted or demoted.'),
    h(NoticeLine, { notice }),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    data
      ? h('table', { class: 'entries' }, [
          h(
            'thead',
            null,
            h('tr', null, [
              h('th', { scope: 'col' }, 'Email'),
              h('th', { scope: 'col' }, 'Role'),
              h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
            ]),
          ),
          h(
            'tbody',
            null,
            data.map((a) =>
              h('tr', { key: a.id }, [
                h('td', null, a.id === props.me ? `${a.email} (you)` : a.email),
                h(
                  'td',
                  null,
                  h(
                    'select',
                    { 'aria-label': `Role of ${a.email}`, value: a.role, disabled: busy, onChange: setRole(a) },
                    ADMIN_ROLES.map(([v, l]) => h('option', { value: v }, l)),
                  ),
                ),
                h('td', null, h('button', { type: 'button', disabled: busy, 'aria-label': `Delete ${a.email}`, onClick: remove(a) }, 'Delete')),
              ]),
            ),
          ),
        ])
      : h('p', { role: 'status' }, 'Loading…'),
    h('form', { class: 'panel', onSubmit: create }, [
      h('h3', null, 'Create an admin user'),
      h(
        Field,
        { id: 'admin-email', label: 'Email' },
        h('input', { id: 'admin-email', type: 'email', required: true, autocomplete: 'off', value: form.email, onInput: set('email') }),
      ),
      h(
        Field,
        { id: 'admin-password', label: 'Password', hint: '8 to 256 characters' },
        h('input', {
          id: 'admin-password',
          type: 'password',
          required: true,
          autocomplete: 'new-password',
          'aria-describedby': 'admin-password-hint',
          value: form.password,
          onInput: set('password'),
        }),
      ),
      h(
        Field,
        { id: 'admin-role', label: 'Role' },
        h(
          'select',
          { id: 'admin-role', value: form.role, onChange: set('role') },
          ADMIN_ROLES.map(([v, l]) => h('option', { value: v }, l)),
        ),
      ),
      h('button', { type: 'submit', class: 'primary', disabled: busy }, 'Create admin user'),
    ]),
  ]);
}
