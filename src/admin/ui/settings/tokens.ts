/**
 * Settings → API tokens: list, create (the key is shown once, right after), regenerate
 * (a new key, shown once; the old one stops working), revoke. Custom tokens pick their
 * actions from every action the permission model knows.
 */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { valueOf } from '../dom';
import { Field, NoticeLine, useAction, useLoad, when } from './common';

interface Token {
  id: number;
  name: string;
  description: string | null;
  type: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  actions?: string[];
}

const DURATIONS: [string, string][] = [
  ['7', '7 days'],
  ['30', '30 days'],
  ['90', '90 days'],
  ['', 'Unlimited'],
];

/** The key, once: selectable text, with the warning that it will not be shown again. */
function KeyOnce(props: { name: string; accessKey: string; onDone: () => void }) {
  return h('div', { class: 'panel key-once', role: 'region', 'aria-label': 'Key shown once' }, [
    h('p', null, h('strong', null, `Copy the key of "${props.name}" now: it will not be shown again.`)),
    h(Field, { id: 'access-key', label: 'Access key' }, h('textarea', { id: 'access-key', class: 'code', readOnly: true, rows: 3, value: props.accessKey })),
    h('button', { type: 'button', onClick: props.onDone }, 'Done'),
  ]);
}

export function TokensPage() {
  const { data, error, reload } = useLoad(() => api<{ data: Token[]; meta: { types: string[]; actions: string[] } }>('GET', '/settings/tokens'));
  const { notice, busy, run } = useAction();
  const [form, setForm] = useState({ name: '', description: '', type: 'read-only', lifespan: '30' });
  const [actions, setActions] = useState<string[]>([]);
  const [shown, setShown] = useState<{ name: string; accessKey: string } | null>(null);
  const set = (key: keyof typeof form) => (e: Event) => setForm((old) => ({ ...old, [key]: valueOf(e) }));

  async function create(event: Event) {
    event.preventDefault();
    const body = {
      name: form.name,
      description: form.description,
      type: form.type,
      lifespanDays: form.lifespan ? Number(form.lifespan) : null,
      ...(form.type === 'custom' ? { actions } : {}),
    };
    const made = await run('Token created', () => api<{ data: Token & { accessKey: string } }>('POST', '/settings/tokens', body));
    if (made) {
      setShown({ name: made.data.name, accessKey: made.data.accessKey });
      setForm({ name: '', description: '', type: 'read-only', lifespan: '30' });
      reload();
    }
  }
  const regenerate = (t: Token) => async () => {
    const made = await run(`Token ${t.name} regenerated`, () => api<{ data: { accessKey: string } }>('POST', `/settings/tokens/${t.id}/regenerate`));
    if (made) setShown({ name: t.name, accessKey: made.data.accessKey });
  };
  const revoke = (t: Token) => () => void run(`Token ${t.name} revoked`, () => api('DELETE', `/settings/tokens/${t.id}`)).then(reload);

  return h('div', null, [
    h('h2', null, 'API tokens'),
    h(NoticeLine, { notice }),
    shown ? h(KeyOnce, { ...shown, onDone: () => setShown(null) }) : null,
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    !data
      ? h('p', { role: 'status' }, 'Loading…')
      : data.data.length === 0
        ? h('p', null, 'No API token yet.')
        : h('table', { class: 'entries' }, [
            h(
              'thead',
              null,
              h('tr', null, [
                ...['Name', 'Type', 'Expires', 'Last used', 'Created'].map((c, i) => h('th', { scope: 'col', class: i > 2 ? 'col-extra' : undefined }, c)),
                h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
              ]),
            ),
            h(
              'tbody',
              null,
              data.data.map((t) =>
                h('tr', { key: t.id }, [
                  h('td', null, [t.name, t.description ? h('div', { class: 'muted' }, t.description) : null]),
                  h('td', null, t.type === 'custom' ? `custom (${t.actions?.length ?? 0} actions)` : t.type),
                  h('td', null, t.expiresAt ? when(t.expiresAt) : 'Never'),
                  h('td', { class: 'col-extra' }, when(t.lastUsedAt)),
                  h('td', { class: 'col-extra' }, when(t.createdAt)),
                  h('td', { class: 'row-actions' }, [
                    h('button', { type: 'button', disabled: busy, 'aria-label': `Regenerate ${t.name}`, onClick: regenerate(t) }, 'Regenerate'),
                    h('button', { type: 'button', disabled: busy, 'aria-label': `Revoke ${t.name}`, onClick: revoke(t) }, 'Revoke'),
                  ]),
                ]),
              ),
            ),
          ]),
    h('form', { class: 'panel', onSubmit: create }, [
      h('h3', null, 'Create an API token'),
      h(Field, { id: 'token-name', label: 'Name' }, h('input', { id: 'token-name', required: true, value: form.name, onInput: set('name') })),
      h(
        Field,
        { id: 'token-description', label: 'Description' },
        h('input', { id: 'token-description', value: form.description, onInput: set('description') }),
      ),
      h(
        Field,
        { id: 'token-type', label: 'Token type' },
        h(
          'select',
          { id: 'token-type', value: form.type, onChange: set('type') },
          (data?.meta.types ?? ['read-only', 'full-access', 'custom']).map((t) => h('option', { value: t }, t)),
        ),
      ),
      h(
        Field,
        { id: 'token-lifespan', label: 'Token duration' },
        h(
          'select',
          { id: 'token-lifespan', value: form.lifespan, onChange: set('lifespan') },
          DURATIONS.map(([v, l]) => h('option', { value: v }, l)),
        ),
      ),
      form.type === 'custom'
        ? h(
            Field,
            { id: 'token-actions', label: 'Actions', hint: 'Hold Ctrl (⌘ on a Mac) or Shift to pick several.' },
            h(
              'select',
              {
                id: 'token-actions',
                multiple: true,
                size: 10,
                'aria-describedby': 'token-actions-hint',
                onChange: (e: Event) => setActions([...(e.target as HTMLSelectElement).selectedOptions].map((o) => o.value)),
              },
              (data?.meta.actions ?? []).map((a) => h('option', { value: a, selected: actions.includes(a) }, a)),
            ),
          )
        : null,
      h('button', { type: 'submit', class: 'primary', disabled: busy }, 'Create token'),
    ]),
  ]);
}
