/** The first-run form (no admin yet), the login form, "Forgot password?" and the reset form a mailed link opens. */
import { valueOf } from './dom';
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiError } from './api';
import type { Session } from './main';
import { Link, navigate } from './router';

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

const messageOf = (e: unknown) => {
  const errors = e instanceof ApiError ? e.details.errors : undefined;
  return errors?.length ? errors.map((x) => x.message).join('. ') : (e as Error).message;
};

/**
 * "Forgot password?": the admin's e-mail, then the same message whatever the address. Without
 * mail on the server it says how an operator sets a new password instead.
 */
function ForgotForm(props: { mailConfigured: boolean; onBack: () => void }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('POST', '/forgot-password', { email });
      setSent(true);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  const back = h('p', null, h('button', { type: 'button', class: 'link', onClick: props.onBack }, 'Back to log in'));
  if (!props.mailConfigured) {
    return h('main', { class: 'auth' }, [
      h('h1', null, 'Forgot password?'),
      h('p', null, 'This server sends no mail, so it cannot mail you a reset link. Someone who runs the server can set a new password:'),
      h('pre', null, h('code', null, 'folio admin reset-password --email E --password P')),
      back,
    ]);
  }
  return h('main', { class: 'auth' }, [
    h('h1', null, 'Forgot password?'),
    sent
      ? h('p', { role: 'status' }, 'If an admin account has this address, a link to set a new password is on its way. It works for an hour.')
      : h('form', { onSubmit: submit, 'aria-describedby': error ? 'auth-error' : undefined }, [
          h('p', null, 'Enter your admin e-mail: we will mail you a link to set a new password.'),
          error ? h('p', { id: 'auth-error', class: 'error', role: 'alert' }, error) : null,
          h(Field, { id: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: email, onInput: setEmail }),
          h('button', { type: 'submit', class: 'primary', disabled: busy }, 'Send the link'),
        ]),
    back,
  ]);
}

/** The page a mailed link opens (`/admin/reset-password?token=…`): a new password, then logged in. */
function ResetForm(props: { token: string; onSession: (s: Session) => void }) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    if (password !== confirmation) return setError('The two passwords differ');
    setBusy(true);
    setError(null);
    try {
      const { data } = await api<{ data: Session }>('POST', '/reset-password', { token: props.token, password });
      // The token is spent: leave its URL behind.
      navigate('/admin', true);
      props.onSession(data);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  return h('main', { class: 'auth' }, [
    h('h1', null, 'Set a new password'),
    h('form', { onSubmit: submit, 'aria-describedby': error ? 'auth-error' : undefined }, [
      error ? h('p', { id: 'auth-error', class: 'error', role: 'alert' }, error) : null,
      h(Field, {
        id: 'password',
        label: 'New password (8 characters or more)',
        type: 'password',
        autocomplete: 'new-password',
        value: password,
        onInput: setPassword,
      }),
      h(Field, {
        id: 'confirmation',
        label: 'New password again',
        type: 'password',
        autocomplete: 'new-password',
        value: confirmation,
        onInput: setConfirmation,
      }),
      h('button', { type: 'submit', class: 'primary', disabled: busy }, 'Set the password and log in'),
    ]),
    // A used or expired link: the login page offers a new one ("Forgot password?").
    h('p', null, h(Link, { href: '/admin' }, 'Back to log in, or ask for a new link')),
  ]);
}

export function AuthForm(props: {
  mode: 'setup' | 'login';
  needsCode: boolean;
  mailConfigured?: boolean;
  resetToken?: string | null;
  onSession: (s: Session) => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [forgot, setForgot] = useState(false);
  const setup = props.mode === 'setup';

  if (!setup && props.resetToken) return h(ResetForm, { token: props.resetToken, onSession: props.onSession });
  if (!setup && forgot) return h(ForgotForm, { mailConfigured: !!props.mailConfigured, onBack: () => setForgot(false) });

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = setup ? { email, password, ...(props.needsCode ? { code } : {}) } : { email, password };
      const { data } = await api<{ data: Session }>('POST', setup ? '/setup' : '/login', body);
      props.onSession(data);
    } catch (e) {
      setError(messageOf(e));
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
      h(Field, {
        id: 'password',
        label: 'Password',
        type: 'password',
        autocomplete: setup ? 'new-password' : 'current-password',
        value: password,
        onInput: setPassword,
      }),
      setup && props.needsCode
        ? h(Field, { id: 'code', label: 'One-time code (from the server log)', type: 'text', autocomplete: 'one-time-code', value: code, onInput: setCode })
        : null,
      h('button', { type: 'submit', class: 'primary', disabled: busy }, setup ? 'Create admin' : 'Log in'),
    ]),
    setup ? null : h('p', null, h('button', { type: 'button', class: 'link', onClick: () => setForgot(true) }, 'Forgot password?')),
  ]);
}
