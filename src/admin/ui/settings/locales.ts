/** Settings → Locales: add, make default, remove (not the default one). */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { valueOf } from '../dom';
import { enc, Field, NoticeLine, useAction, useLoad } from './common';

interface Locale {
  code: string;
  name: string;
  isDefault: boolean;
}

export function LocalesPage() {
  const { data, error, reload } = useLoad(() => api<{ data: Locale[] }>('GET', '/settings/locales').then((r) => r.data));
  const { notice, busy, run } = useAction();
  const [code, setCode] = useState('');
  const [name, setName] = useState('');

  async function add(event: Event) {
    event.preventDefault();
    if (await run(`Locale ${code} added`, () => api('POST', '/settings/locales', { code: code.trim(), name: name.trim() || undefined }))) {
      setCode('');
      setName('');
      reload();
    }
  }
  const act = (done: string, method: string, path: string) => () => void run(done, () => api(method, path)).then(reload);

  return h('div', null, [
    h('h2', null, 'Locales'),
    h('p', { class: 'muted' }, 'The content of a removed locale stays in the database, out of reach until the locale is added again.'),
    h(NoticeLine, { notice }),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    data
      ? h('table', { class: 'entries' }, [
          h(
            'thead',
            null,
            h('tr', null, [
              h('th', { scope: 'col' }, 'Code'),
              h('th', { scope: 'col' }, 'Name'),
              h('th', { scope: 'col' }, 'Default'),
              h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
            ]),
          ),
          h(
            'tbody',
            null,
            data.map((l) =>
              h('tr', { key: l.code }, [
                h('td', null, l.code),
                h('td', null, l.name),
                h('td', null, l.isDefault ? h('span', { class: 'badge badge-published' }, 'Default') : ''),
                h(
                  'td',
                  { class: 'row-actions' },
                  l.isDefault
                    ? null
                    : [
                        h(
                          'button',
                          {
                            type: 'button',
                            disabled: busy,
                            'aria-label': `Make default: ${l.code}`,
                            onClick: act(`${l.code} is now the default`, 'PUT', `/settings/locales/${enc(l.code)}/default`),
                          },
                          'Make default',
                        ),
                        h(
                          'button',
                          {
                            type: 'button',
                            disabled: busy,
                            'aria-label': `Remove ${l.code}`,
                            onClick: act(`Locale ${l.code} removed`, 'DELETE', `/settings/locales/${enc(l.code)}`),
                          },
                          'Remove',
                        ),
                      ],
                ),
              ]),
            ),
          ),
        ])
      : h('p', { role: 'status' }, 'Loading…'),
    h('form', { class: 'panel', onSubmit: add }, [
      h('h3', null, 'Add a locale'),
      h(
        Field,
        { id: 'locale-code', label: 'Code', hint: 'e.g. fr, pt-BR' },
        h('input', { id: 'locale-code', required: true, 'aria-describedby': 'locale-code-hint', value: code, onInput: (e: Event) => setCode(valueOf(e)) }),
      ),
      h(Field, { id: 'locale-name', label: 'Display name' }, h('input', { id: 'locale-name', value: name, onInput: (e: Event) => setName(valueOf(e)) })),
      h('button', { type: 'submit', class: 'primary', disabled: busy }, 'Add locale'),
    ]),
  ]);
}
