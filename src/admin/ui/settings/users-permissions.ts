/**
 * Settings → Users & Permissions: Advanced settings, Providers and Email templates, the
 * stored values users-permissions runs with. A value the server's environment sets is shown
 * as such (a change to it would not apply). A provider's secret is never shown: a blank
 * field keeps the stored one.
 */
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { valueOf } from '../dom';
import { enc, Field, NoticeLine, useAction, useLoad } from './common';

interface Advanced {
  unique_email: boolean;
  allow_register: boolean;
  email_confirmation: boolean;
  email_reset_password: string | null;
  email_confirmation_redirection: string | null;
  default_role: string;
}

interface Template {
  from: { name: string; email: string };
  response_email: string;
  object: string;
  message: string;
}

interface Provider {
  name: string;
  enabled: boolean;
  key: string;
  secretSet: boolean;
  callback: string;
  scope: string[] | string;
  subdomain?: string;
  redirectUri: string;
}

interface Page {
  advanced: Advanced;
  localLogin: boolean;
  email: { reset_password: Template; email_confirmation: Template };
  providers: Provider[];
  roles: { type: string; name: string }[];
  pinned: { advanced: string[]; email: string[]; grant: string[] };
}

const checked = (e: Event) => (e.target as HTMLInputElement).checked;
const pinnedNote = (id: string) => h('p', { class: 'muted hint', id }, 'Set by the server’s environment: a change here does not apply.');

function AdvancedForm(props: { page: Page; onSaved: (p: Page) => void }) {
  const [values, setValues] = useState<Advanced>(props.page.advanced);
  const { notice, busy, run } = useAction();
  useEffect(() => setValues(props.page.advanced), [props.page]);
  const set = (patch: Partial<Advanced>) => setValues({ ...values, ...patch });
  const pinned = new Set(props.page.pinned.advanced);
  const box = (name: 'unique_email' | 'allow_register' | 'email_confirmation', label: string) =>
    h('div', { class: 'field checkbox' }, [
      h('input', {
        id: `up-${name}`,
        type: 'checkbox',
        checked: values[name],
        onChange: (e: Event) => set({ [name]: checked(e) }),
        'aria-describedby': pinned.has(name) ? `up-${name}-pinned` : undefined,
      }),
      h('label', { for: `up-${name}` }, label),
      pinned.has(name) ? pinnedNote(`up-${name}-pinned`) : null,
    ]);
  const url = (name: 'email_reset_password' | 'email_confirmation_redirection', label: string) =>
    h(Field, { id: `up-${name}`, label }, [
      h('input', {
        id: `up-${name}`,
        type: 'url',
        value: values[name] ?? '',
        onInput: (e: Event) => set({ [name]: valueOf(e) || null }),
        'aria-describedby': pinned.has(name) ? `up-${name}-pinned` : undefined,
      }),
      pinned.has(name) ? pinnedNote(`up-${name}-pinned`) : null,
    ]);

  async function save(event: Event) {
    event.preventDefault();
    const saved = await run('Advanced settings saved', () => api<{ data: Page }>('PUT', '/settings/users-permissions/advanced', values));
    if (saved && typeof saved === 'object') props.onSaved(saved.data);
  }

  return h('form', { class: 'panel', onSubmit: save, 'aria-labelledby': 'up-advanced' }, [
    h('h3', { id: 'up-advanced' }, 'Advanced settings'),
    h(NoticeLine, { notice }),
    h(
      Field,
      { id: 'up-default_role', label: 'Default role for new users' },
      h(
        'select',
        { id: 'up-default_role', value: values.default_role, onChange: (e: Event) => set({ default_role: valueOf(e) }) },
        props.page.roles.map((r) => h('option', { key: r.type, value: r.type }, r.name)),
      ),
    ),
    box('unique_email', 'One account per e-mail address'),
    box('allow_register', 'Enable sign-ups'),
    url('email_reset_password', 'Reset password page'),
    box('email_confirmation', 'Enable e-mail confirmation'),
    url('email_confirmation_redirection', 'Redirection after confirmation'),
    h('button', { type: 'submit', class: 'primary', disabled: busy }, 'Save advanced settings'),
  ]);
}

function ProviderForm(props: { provider: Provider; pinned: boolean; onSaved: (p: Page) => void }) {
  const p = props.provider;
  const id = (field: string) => `provider-${p.name}-${field}`;
  const [values, setValues] = useState({
    enabled: p.enabled,
    key: p.key,
    secret: '',
    callback: p.callback,
    scope: Array.isArray(p.scope) ? p.scope.join(' ') : p.scope,
    subdomain: p.subdomain ?? '',
  });
  const { notice, busy, run } = useAction();
  const set = (patch: Partial<typeof values>) => setValues({ ...values, ...patch });
  const input = (field: 'key' | 'secret' | 'callback' | 'scope' | 'subdomain', label: string, type = 'text', hint?: string) =>
    h(
      Field,
      { id: id(field), label, hint },
      h('input', {
        id: id(field),
        type,
        value: values[field],
        autocomplete: type === 'password' ? 'new-password' : 'off',
        'aria-describedby': hint ? `${id(field)}-hint` : undefined,
        onInput: (e: Event) => set({ [field]: valueOf(e) }),
      }),
    );

  async function save(event: Event) {
    event.preventDefault();
    const body = { ...values, ...(p.subdomain === undefined ? { subdomain: undefined } : {}) };
    const saved = await run(`${p.name} saved`, () => api<{ data: Page }>('PUT', `/settings/users-permissions/providers/${enc(p.name)}`, body));
    if (saved && typeof saved === 'object') {
      setValues({ ...values, secret: '' });
      props.onSaved(saved.data);
    }
  }

  return h('details', { class: 'panel' }, [
    h('summary', null, `${p.name}${p.enabled ? ' (enabled)' : ''}`),
    h('form', { onSubmit: save, 'aria-label': `Provider ${p.name}` }, [
      h(NoticeLine, { notice }),
      props.pinned ? pinnedNote(id('pinned')) : null,
      h('div', { class: 'field checkbox' }, [
        h('input', { id: id('enabled'), type: 'checkbox', checked: values.enabled, onChange: (e: Event) => set({ enabled: checked(e) }) }),
        h('label', { for: id('enabled') }, 'Enabled'),
      ]),
      input('key', 'Client ID'),
      input('secret', 'Client secret', 'password', p.secretSet ? 'A secret is stored: leave blank to keep it.' : 'No secret stored yet.'),
      p.subdomain !== undefined ? input('subdomain', 'Host (subdomain)', 'text', 'e.g. auth.example.com/realms/main') : null,
      input('callback', 'The redirect URL to your front-end app', 'url'),
      input('scope', 'Scopes', 'text', 'Separated by spaces'),
      h('p', { class: 'muted' }, ['The redirect URL to add in the provider’s settings: ', h('code', null, p.redirectUri)]),
      h('button', { type: 'submit', class: 'primary', disabled: busy }, `Save ${p.name}`),
    ]),
  ]);
}

function TemplateForm(props: {
  name: 'reset_password' | 'email_confirmation';
  title: string;
  template: Template;
  pinned: boolean;
  onSaved: (p: Page) => void;
}) {
  const [t, setT] = useState<Template>(props.template);
  const { notice, busy, run } = useAction();
  useEffect(() => setT(props.template), [props.template]);
  const id = (field: string) => `template-${props.name}-${field}`;
  const field = (key: 'response_email' | 'object', label: string, type = 'text') =>
    h(Field, { id: id(key), label }, h('input', { id: id(key), type, value: t[key], onInput: (e: Event) => setT({ ...t, [key]: valueOf(e) }) }));

  async function save(event: Event) {
    event.preventDefault();
    const saved = await run(`${props.title} template saved`, () => api<{ data: Page }>('PUT', '/settings/users-permissions/email', { [props.name]: t }));
    if (saved && typeof saved === 'object') props.onSaved(saved.data);
  }

  return h('details', { class: 'panel' }, [
    h('summary', null, props.title),
    h('form', { onSubmit: save, 'aria-label': `${props.title} template` }, [
      h(NoticeLine, { notice }),
      props.pinned ? pinnedNote(id('pinned')) : null,
      h(
        Field,
        { id: id('from-name'), label: 'Sender name' },
        h('input', { id: id('from-name'), value: t.from.name, onInput: (e: Event) => setT({ ...t, from: { ...t.from, name: valueOf(e) } }) }),
      ),
      h(
        Field,
        { id: id('from-email'), label: 'Sender e-mail' },
        h('input', { id: id('from-email'), type: 'email', value: t.from.email, onInput: (e: Event) => setT({ ...t, from: { ...t.from, email: valueOf(e) } }) }),
      ),
      field('response_email', 'Reply-to e-mail', 'email'),
      field('object', 'Subject'),
      h(
        Field,
        {
          id: id('message'),
          label: 'Message',
          hint: 'Variables: <%= URL %>, <%= CODE %>, <%= TOKEN %>, <%= USER.username %>, <%= USER.email %>, <%= SERVER_URL %>',
        },
        h('textarea', {
          id: id('message'),
          rows: 8,
          value: t.message,
          'aria-describedby': `${id('message')}-hint`,
          onInput: (e: Event) => setT({ ...t, message: valueOf(e) }),
        }),
      ),
      h('button', { type: 'submit', class: 'primary', disabled: busy }, `Save ${props.title.toLowerCase()} template`),
    ]),
  ]);
}

export function UsersPermissionsPage() {
  const { data, error } = useLoad(() => api<{ data: Page }>('GET', '/settings/users-permissions').then((r) => r.data));
  const [page, setPage] = useState<Page | null>(null);
  const { notice, busy, run } = useAction();
  useEffect(() => setPage(data), [data]);
  if (error) return h('p', { class: 'error', role: 'alert' }, error);
  if (!page) return h('p', { role: 'status' }, 'Loading…');
  const pinnedGrant = new Set(page.pinned.grant);

  async function toggleLocal(event: Event) {
    const enabled = checked(event);
    const saved = await run(enabled ? 'Log in with a password enabled' : 'Log in with a password disabled', () =>
      api<{ data: Page }>('PUT', '/settings/users-permissions/providers/email', { enabled }),
    );
    if (saved && typeof saved === 'object') setPage(saved.data);
  }

  return h('div', null, [
    h('h2', null, 'Users & Permissions'),
    h(AdvancedForm, { page, onSaved: setPage }),
    h('section', { class: 'panel', 'aria-labelledby': 'up-providers' }, [
      h('h3', { id: 'up-providers' }, 'Providers'),
      h(NoticeLine, { notice }),
      h('div', { class: 'field checkbox' }, [
        h('input', { id: 'provider-email-enabled', type: 'checkbox', checked: page.localLogin, disabled: busy, onChange: toggleLocal }),
        h('label', { for: 'provider-email-enabled' }, 'Log in with e-mail and password'),
      ]),
      page.providers.map((p) => h(ProviderForm, { key: p.name, provider: p, pinned: pinnedGrant.has(p.name), onSaved: setPage })),
    ]),
    h('section', { class: 'panel', 'aria-labelledby': 'up-templates' }, [
      h('h3', { id: 'up-templates' }, 'Email templates'),
      h(TemplateForm, {
        name: 'reset_password',
        title: 'Reset password',
        template: page.email.reset_password,
        pinned: page.pinned.email.includes('reset_password'),
        onSaved: setPage,
      }),
      h(TemplateForm, {
        name: 'email_confirmation',
        title: 'Email address confirmation',
        template: page.email.email_confirmation,
        pinned: page.pinned.email.includes('email_confirmation'),
        onSaved: setPage,
      }),
    ]),
  ]);
}
