/**
 * The admin's own profile (/admin/profile): their name, and a new password given the current
 * one (PUT /admin/api/me, /admin/api/me/password). After a password change, the admin's other
 * sessions end; this one goes on.
 */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { api } from './api';
import { valueOf } from './dom';
import type { Session } from './main';
import { ApiError } from './api';
import { Field, NoticeLine, useAction } from './settings/common';

type User = NonNullable<Session['user']>;

/** A field's error from the API, by its path. */
const fieldErrors = (e: unknown): Record<string, string> =>
  Object.fromEntries((e instanceof ApiError ? (e.details.errors ?? []) : []).map((x) => [String(x.path[0] ?? ''), x.message]));

export function ProfilePage(props: { user: User; onUser: (user: User) => void }) {
  const [names, setNames] = useState({ firstname: props.user.firstname ?? '', lastname: props.user.lastname ?? '' });
  const [passwords, setPasswords] = useState({ currentPassword: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const nameAction = useAction();
  const passwordAction = useAction();

  async function saveNames(event: Event) {
    event.preventDefault();
    setErrors({});
    try {
      const r = await api<{ data: User }>('PUT', '/me', names);
      props.onUser(r.data);
      nameAction.setNotice({ text: 'Your name is saved' });
    } catch (e) {
      setErrors(fieldErrors(e));
      nameAction.setNotice({ text: 'Your name was not saved: see the fields marked below.', error: true });
    }
  }

  async function savePassword(event: Event) {
    event.preventDefault();
    setErrors({});
    if (passwords.password !== passwords.confirm) {
      setErrors({ confirm: 'The two new passwords differ' });
      passwordAction.setNotice({ text: 'The password was not changed: the two new passwords differ.', error: true });
      return;
    }
    try {
      await api('PUT', '/me/password', { currentPassword: passwords.currentPassword, password: passwords.password });
      setPasswords({ currentPassword: '', password: '', confirm: '' });
      passwordAction.setNotice({ text: 'Password changed: your other sessions have ended' });
    } catch (e) {
      setErrors(fieldErrors(e));
      passwordAction.setNotice({ text: `The password was not changed: ${(e as Error).message}`, error: true });
    }
  }

  const input = (id: string, key: string, label: string, value: string, set: (v: string) => void, extra: Record<string, unknown> = {}) =>
    h(Field, { id, label }, [
      h('input', {
        id,
        value,
        onInput: (e: Event) => set(valueOf(e)),
        'aria-invalid': errors[key] ? 'true' : undefined,
        'aria-describedby': errors[key] ? `${id}-error` : undefined,
        ...extra,
      }),
      errors[key] ? h('p', { id: `${id}-error`, class: 'field-error' }, errors[key]) : null,
    ]);

  return h('div', null, [
    h('h1', null, 'Your profile'),
    h('p', { class: 'muted' }, `${props.user.email} · ${props.user.role === 'super-admin' ? 'Super Admin' : 'Editor'}`),
    h('form', { class: 'panel', onSubmit: saveNames, 'aria-labelledby': 'profile-name' }, [
      h('h2', { id: 'profile-name' }, 'Your name'),
      input('profile-firstname', 'firstname', 'First name', names.firstname, (v) => setNames({ ...names, firstname: v }), { autocomplete: 'given-name' }),
      input('profile-lastname', 'lastname', 'Last name', names.lastname, (v) => setNames({ ...names, lastname: v }), { autocomplete: 'family-name' }),
      h(NoticeLine, { notice: nameAction.notice }),
      h('button', { type: 'submit', class: 'primary' }, 'Save name'),
    ]),
    h('form', { class: 'panel', onSubmit: savePassword, 'aria-labelledby': 'profile-password' }, [
      h('h2', { id: 'profile-password' }, 'Change your password'),
      // The account's email, for password managers to file the new password under.
      h('input', { type: 'email', autocomplete: 'username', value: props.user.email, readOnly: true, hidden: true, 'aria-hidden': 'true', tabIndex: -1 }),
      input('profile-current', 'currentPassword', 'Current password', passwords.currentPassword, (v) => setPasswords({ ...passwords, currentPassword: v }), {
        type: 'password',
        autocomplete: 'current-password',
      }),
      input('profile-new', 'password', 'New password (8 to 256 characters)', passwords.password, (v) => setPasswords({ ...passwords, password: v }), {
        type: 'password',
        autocomplete: 'new-password',
      }),
      input('profile-confirm', 'confirm', 'New password again', passwords.confirm, (v) => setPasswords({ ...passwords, confirm: v }), {
        type: 'password',
        autocomplete: 'new-password',
      }),
      h(NoticeLine, { notice: passwordAction.notice }),
      h('button', { type: 'submit', class: 'primary' }, 'Change password'),
    ]),
  ]);
}
