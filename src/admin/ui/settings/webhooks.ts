/**
 * Settings → Webhooks: list, create, edit (a blank secret keeps the stored one), enable or
 * disable (a restored copy's webhooks start disabled), delete, send a test now, and each
 * webhook's delivery log (every attempt, newest first).
 */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { checkedOf, valueOf } from '../dom';
import { Link } from '../router';
import { enc, Field, NoticeLine, useAction, useLoad, when } from './common';

interface Webhook {
  name: string;
  url: string;
  events: string[];
  signed: boolean;
  headerNames: string[];
  enabled: boolean;
}
interface Attempt {
  event: string;
  attempt: number;
  status: number | null;
  error: string | null;
  durationMs: number;
  at: string;
}

const BLANK = { name: '', url: '', secret: '', headers: '', events: [] as string[] };

export function WebhooksPage() {
  const { data, error, reload } = useLoad(() => api<{ data: Webhook[]; meta: { events: string[] } }>('GET', '/settings/webhooks'));
  const { notice, busy, run } = useAction();
  const [form, setForm] = useState(BLANK);
  const [editing, setEditing] = useState<string | null>(null);
  const set = (key: 'name' | 'url' | 'secret' | 'headers') => (e: Event) => setForm((old) => ({ ...old, [key]: valueOf(e) }));
  const toggle = (event: string) => (e: Event) =>
    setForm((old) => ({ ...old, events: checkedOf(e) ? [...old.events, event] : old.events.filter((x) => x !== event) }));

  async function save(event: Event) {
    event.preventDefault();
    const headers = form.headers.split('\n').filter((l) => l.trim());
    const body = { name: form.name, url: form.url, events: form.events, secret: form.secret || undefined, ...(headers.length || !editing ? { headers } : {}) };
    const ok = editing
      ? await run(`Webhook ${editing} saved`, () => api('PUT', `/settings/webhooks/${enc(editing)}`, body))
      : await run(`Webhook ${form.name} created`, () => api('POST', '/settings/webhooks', body));
    if (ok) {
      setForm(BLANK);
      setEditing(null);
      reload();
    }
  }
  const edit = (w: Webhook) => () => {
    setEditing(w.name);
    setForm({ name: w.name, url: w.url, secret: '', headers: '', events: w.events });
  };
  const test = (w: Webhook) => () =>
    void run(`Test sent to ${w.name}`, async () => {
      const r = await api<{ data: { status: number | null; error: string | null } }>('POST', `/settings/webhooks/${enc(w.name)}/test`);
      if (r.data.status === null || r.data.status >= 300) throw new Error(`Test of ${w.name} failed: ${r.data.error ?? `HTTP ${r.data.status}`}`);
    });
  const switchOn = (w: Webhook) => () =>
    void run(`Webhook ${w.name} ${w.enabled ? 'disabled' : 'enabled'}`, () =>
      api('POST', `/settings/webhooks/${enc(w.name)}/${w.enabled ? 'disable' : 'enable'}`),
    ).then(reload);
  const remove = (w: Webhook) => () => void run(`Webhook ${w.name} deleted`, () => api('DELETE', `/settings/webhooks/${enc(w.name)}`)).then(reload);

  return h('div', null, [
    h('h2', null, 'Webhooks'),
    h(NoticeLine, { notice }),
    data?.data.some((w) => !w.enabled)
      ? h(
          'p',
          { class: 'hint' },
          'A disabled webhook is sent nothing. An installation restored or imported from an archive starts with its webhooks disabled, so a copy never calls the receivers of the installation it came from.',
        )
      : null,
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    !data
      ? h('p', { role: 'status' }, 'Loading…')
      : data.data.length === 0
        ? h('p', null, 'No webhook yet.')
        : h('table', { class: 'entries' }, [
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                ['Name', 'URL', 'Events', 'Status']
                  .map((c) => h('th', { scope: 'col' }, c))
                  .concat(h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions'))),
              ),
            ),
            h(
              'tbody',
              null,
              data.data.map((w) =>
                h('tr', { key: w.name }, [
                  h('td', null, h(Link, { href: `/admin/settings/webhooks/${enc(w.name)}` }, w.name)),
                  h('td', { class: 'wrap' }, w.url),
                  h('td', null, w.events.join(', ')),
                  h('td', null, w.enabled ? 'Enabled' : 'Disabled'),
                  h('td', { class: 'row-actions' }, [
                    h(
                      'button',
                      { type: 'button', disabled: busy, 'aria-label': `${w.enabled ? 'Disable' : 'Enable'} ${w.name}`, onClick: switchOn(w) },
                      w.enabled ? 'Disable' : 'Enable',
                    ),
                    h('button', { type: 'button', disabled: busy, 'aria-label': `Edit ${w.name}`, onClick: edit(w) }, 'Edit'),
                    h('button', { type: 'button', disabled: busy, 'aria-label': `Test ${w.name}`, onClick: test(w) }, 'Test'),
                    h('button', { type: 'button', disabled: busy, 'aria-label': `Delete ${w.name}`, onClick: remove(w) }, 'Delete'),
                  ]),
                ]),
              ),
            ),
          ]),
    h('form', { class: 'panel', onSubmit: save }, [
      h('h3', null, editing ? `Edit webhook ${editing}` : 'Create a webhook'),
      editing ? null : h(Field, { id: 'hook-name', label: 'Name' }, h('input', { id: 'hook-name', required: true, value: form.name, onInput: set('name') })),
      h(Field, { id: 'hook-url', label: 'URL' }, h('input', { id: 'hook-url', type: 'url', required: true, value: form.url, onInput: set('url') })),
      h('fieldset', { class: 'permissions' }, [
        h('legend', null, 'Events'),
        h(
          'div',
          { class: 'checks' },
          (data?.meta.events ?? []).map((ev) =>
            h('div', { class: 'field checkbox', key: ev }, [
              h('input', { id: `hook-event-${ev}`, type: 'checkbox', checked: form.events.includes(ev), onChange: toggle(ev) }),
              h('label', { for: `hook-event-${ev}` }, ev),
            ]),
          ),
        ),
      ]),
      h(
        Field,
        { id: 'hook-secret', label: 'Secret', hint: editing ? 'Leave blank to keep the current secret.' : 'Signs each delivery (X-Folio-Signature).' },
        h('input', {
          id: 'hook-secret',
          type: 'password',
          autocomplete: 'off',
          'aria-describedby': 'hook-secret-hint',
          value: form.secret,
          onInput: set('secret'),
        }),
      ),
      h(
        Field,
        {
          id: 'hook-headers',
          label: 'Headers',
          hint: editing ? 'One "Name: value" per line; leave blank to keep the current headers.' : 'One "Name: value" per line.',
        },
        h('textarea', { id: 'hook-headers', rows: 3, 'aria-describedby': 'hook-headers-hint', value: form.headers, onInput: set('headers') }),
      ),
      h('div', { class: 'actions' }, [
        h('button', { type: 'submit', class: 'primary', disabled: busy }, editing ? 'Save webhook' : 'Create webhook'),
        editing ? h('button', { type: 'button', onClick: () => (setEditing(null), setForm(BLANK)) }, 'Cancel') : null,
      ]),
    ]),
  ]);
}

export function DeliveryLog(props: { name: string }) {
  const { data, error, reload } = useLoad(
    () => api<{ data: Attempt[] }>('GET', `/settings/webhooks/${enc(props.name)}/deliveries`).then((r) => r.data),
    props.name,
  );
  return h('div', null, [
    h('p', null, h(Link, { href: '/admin/settings/webhooks' }, '← Webhooks')),
    h('div', { class: 'title-row' }, [h('h2', null, `Delivery log: ${props.name}`), h('button', { type: 'button', onClick: reload }, 'Refresh')]),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    !data
      ? h('p', { role: 'status' }, 'Loading…')
      : data.length === 0
        ? h('p', null, 'No delivery attempt yet.')
        : h('table', { class: 'entries' }, [
            h('caption', { class: 'visually-hidden' }, 'Delivery attempts, newest first'),
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                ['Time', 'Event', 'Result', 'Attempt', 'Duration'].map((c) => h('th', { scope: 'col' }, c)),
              ),
            ),
            h(
              'tbody',
              null,
              data.map((a, i) =>
                h('tr', { key: i }, [
                  h('td', null, when(a.at)),
                  h('td', null, a.event),
                  h('td', null, a.status !== null ? `HTTP ${a.status}` : `Error: ${a.error ?? 'unknown'}`),
                  h('td', null, String(a.attempt)),
                  h('td', null, `${a.durationMs} ms`),
                ]),
              ),
            ),
          ]),
  ]);
}
