/** The first-run form (no admin yet) and the login form. */
import { valueOf } from './dom';
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiError } from './api';
import type { Session } from './main';

function Field(props: { id: string; label: string; type: string; autocomplete: string; value: string; onInput: (v: string) => void }) {
  return h('div', { class: 'field' }, [
    h('label', { for: props.id }, props.label),
    h('input', {
      id: props.id,
      name: props.id,
      type: props.type,
      autocomplete: props.autocomplete,
      required: true,
      value: props.value,
      onInput: (e: Event) => props.onInput(valueOf(e)),
    }),
  ]);
}

export function AuthForm(props: { mode: 'setup' | 'login'; needsCode: boolean; onSession: (s: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const setup = props.mode === 'setup';

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = setup ? { email, password, ...(props.needsCode ? { code } : {}) } : { email, password };
      const { data } = await api<{ data: Session }>('POST', setup ? '/setup' : '/login', body);
      props.onSession(data);
    } catch (e) {
      const errors = e instanceof ApiError ? e.details.errors : undefined;
      setError(errors?.length ? errors.map((x) => x.message).join('. ') : (e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return h('main', { class: 'auth' }, [
    h('h1', null, setup ? 'Create the first admin' : 'Log in to Folio'),
    setup ? h('p', null, 'No admin user exists yet. This account will be a Super Admin.') : null,
    h('form', { onSubmit: submit, 'aria-describedby': error ? 'auth-error' : undefined }, [
      error ? h('p', { id: 'auth-error', class: 'error', role: 'alert' }, error) : null,
      h(Field, { id: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: email, onInput: setEmail }),
      h(Field, { id: 'password', label: 'Password', type: 'password', autocomplete: setup ? 'new-password' : 'current-password', value: password, onInput: setPassword }),
      setup && props.needsCode
        ? h(Field, { id: 'code', label: 'One-time code (from the server log)', type: 'text', autocomplete: 'one-time-code', value: code, onInput: setCode })
        : null,
      h('button', { type: 'submit', class: 'primary', disabled: busy }, setup ? 'Create admin' : 'Log in'),
    ]),
  ]);
}
