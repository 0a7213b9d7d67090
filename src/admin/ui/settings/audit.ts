/**
 * Settings → Audit log (docs/admin.md "Audit log"), Super Admins only: who did what and when,
 * newest first, filtered by since when, who (an email, a username, a token's name, or cli,
 * system, public) and which action, a page at a time (Older / Newer walk the rows by id: the
 * API's `before`). A chunk of its own (lazy.ts): most admins never open it.
 */
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { actorText } from '../edit-panel';
import { errorText, Field } from './common';

interface Row {
  id: number;
  at: string;
  actor: { kind: string; name: string | null };
  action: string;
  type: string | null;
  documentId: string | null;
  locale: string | null;
  ip: string | null;
  details: Record<string, unknown> | null;
}

interface Answer {
  data: Row[];
  meta: { hasMore: boolean; enabled: boolean; days: number };
}

const ACTIONS = [
  'entry.create',
  'entry.update',
  'entry.delete',
  'entry.publish',
  'entry.unpublish',
  'entry.draft-discard',
  'media.create',
  'media.update',
  'media.delete',
  'permissions.grant',
  'permissions.revoke',
  'role.create',
  'role.update',
  'role.delete',
  'api-token.create',
  'api-token.regenerate',
  'api-token.delete',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'locale.create',
  'locale.update',
  'locale.delete',
  'user.create',
  'user.update',
  'user.delete',
  'admin-user.create',
  'admin-user.update',
  'admin-user.delete',
  'admin.login',
  'admin.login-failed',
  'release.create',
  'release.update',
  'release.delete',
  'release.entry.add',
  'release.entry.remove',
  'releases.publish',
];

const SUBJECTS: Record<string, string> = {
  entry: 'Entry',
  media: 'File',
  permissions: 'Permissions',
  role: 'Role',
  'api-token': 'API token',
  webhook: 'Webhook',
  locale: 'Locale',
  user: 'User',
  'admin-user': 'Admin user',
  admin: 'Admin',
  release: 'Release',
  'release.entry': 'Release entry',
  releases: 'Release',
};
const VERBS: Record<string, string> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  publish: 'published',
  unpublish: 'unpublished',
  'draft-discard': 'draft discarded',
  grant: 'granted',
  revoke: 'revoked',
  regenerate: 'regenerated',
  login: 'logged in',
  'login-failed': 'login failed',
  add: 'added',
  remove: 'removed',
};

/** "entry.draft-discard" → "Entry draft discarded"; an action this page does not know stays as it is. */
export function actionText(action: string): string {
  const cut = action.lastIndexOf('.');
  const subject = SUBJECTS[action.slice(0, cut)];
  const verb = VERBS[action.slice(cut + 1)];
  return subject && verb ? `${subject} ${verb}` : action;
}

/** A row's details as "key: value" pairs (lists joined, objects as JSON). */
function detailsText(details: Row['details']): string {
  if (!details) return '';
  return Object.entries(details)
    .map(
      ([key, value]) =>
        `${key}: ${Array.isArray(value) ? value.join(', ') : value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    )
    .join('; ');
}

/** Who, in words; "public" here is anyone not logged in (a public API call, a failed admin login). */
const who = (actor: Row['actor']) => (actor.kind === 'public' ? 'Not logged in (public)' : actorText(actor));

const at = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const PAGE_SIZES = [20, 50, 100];

export function AuditPage() {
  // The filters as typed, and as applied (what the rows answer).
  const [since, setSince] = useState('');
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [applied, setApplied] = useState({ since: '', actor: '', action: '' });
  const [size, setSize] = useState(50);
  // The `before` of each page shown so far: [undefined] on the first.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const before = cursors[cursors.length - 1];

  useEffect(() => {
    let live = true;
    setError(null);
    const query = new URLSearchParams({ limit: String(size) });
    if (applied.since) query.set('since', new Date(applied.since).toISOString());
    if (applied.actor) query.set('actor', applied.actor);
    if (applied.action) query.set('action', applied.action);
    if (before !== undefined) query.set('before', String(before));
    api<Answer>('GET', `/audit?${query}`).then(
      (r) => live && setAnswer(r),
      (e) => live && (setError(errorText(e)), setAnswer(null)),
    );
    return () => {
      live = false;
    };
  }, [applied, size, before]);

  const apply = (event: Event) => {
    event.preventDefault();
    setApplied({ since, actor: actor.trim(), action });
    setCursors([undefined]);
  };
  const clear = () => {
    setSince('');
    setActor('');
    setAction('');
    setApplied({ since: '', actor: '', action: '' });
    setCursors([undefined]);
  };
  const filtered = !!(applied.since || applied.actor || applied.action);
  const rows = answer?.data;
  const page = cursors.length;

  return h('section', { 'aria-labelledby': 'audit-title' }, [
    h('h2', { id: 'audit-title' }, 'Audit log'),
    h(
      'p',
      { class: 'muted' },
      answer && !answer.meta.enabled
        ? 'The audit log is off (FOLIO_AUDIT_DAYS=0): nothing is being recorded.'
        : `Who changed what, and when, newest first.${answer ? ` Rows are kept ${answer.meta.days} days.` : ''}`,
    ),
    h('form', { class: 'toolbar audit-filters', onSubmit: apply, 'aria-label': 'Filter the audit log' }, [
      h(
        Field,
        { id: 'audit-since', label: 'Since' },
        h('input', { id: 'audit-since', type: 'datetime-local', value: since, onInput: (e: Event) => setSince((e.target as HTMLInputElement).value) }),
      ),
      h(
        Field,
        { id: 'audit-actor', label: 'Who', hint: 'An email, a username, a token’s name, or cli, system, public' },
        h('input', {
          id: 'audit-actor',
          value: actor,
          maxLength: 320,
          'aria-describedby': 'audit-actor-hint',
          onInput: (e: Event) => setActor((e.target as HTMLInputElement).value),
        }),
      ),
      h(
        Field,
        { id: 'audit-action', label: 'Action' },
        h('select', { id: 'audit-action', value: action, onChange: (e: Event) => setAction((e.target as HTMLSelectElement).value) }, [
          h('option', { value: '' }, 'Any action'),
          ...ACTIONS.map((a) => h('option', { key: a, value: a }, actionText(a))),
        ]),
      ),
      h('div', { class: 'row-actions' }, [
        h('button', { type: 'submit', class: 'primary' }, 'Filter'),
        filtered ? h('button', { type: 'button', onClick: clear }, 'Clear filters') : null,
      ]),
    ]),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    !rows
      ? error
        ? null
        : h('p', { role: 'status' }, 'Loading…')
      : rows.length === 0
        ? h('div', { class: 'empty' }, [
            h('p', { class: 'empty-title' }, filtered ? 'No row matches these filters' : 'Nothing recorded yet'),
            h('p', { class: 'muted' }, filtered ? 'Change or clear the filters.' : 'Changes to content and settings appear here.'),
          ])
        : h('div', { class: 'table-wrap' }, [
            h('table', { class: 'entries audit-table', 'aria-label': `Audit log, page ${page}` }, [
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  ['When', 'Who', 'Action', 'What', 'Details', 'From'].map((t) => h('th', { scope: 'col' }, t)),
                ),
              ),
              h(
                'tbody',
                null,
                rows.map((r) =>
                  h('tr', { key: r.id }, [
                    h('td', { 'data-label': 'When' }, h('time', { dateTime: r.at }, at(r.at))),
                    h('td', { 'data-label': 'Who' }, who(r.actor)),
                    h('td', { 'data-label': 'Action' }, h('span', null, [actionText(r.action), ' ', h('code', { class: 'muted' }, r.action)])),
                    h('td', { 'data-label': 'What', class: 'audit-details' }, [r.type, r.documentId, r.locale].filter(Boolean).join(' · ')),
                    h('td', { 'data-label': 'Details', class: 'audit-details' }, detailsText(r.details)),
                    h('td', { 'data-label': 'From' }, r.ip ?? ''),
                  ]),
                ),
              ),
            ]),
          ]),
    h('nav', { class: 'pager', 'aria-label': 'Audit log pages' }, [
      h('button', { type: 'button', disabled: page === 1, onClick: () => setCursors(cursors.slice(0, -1)) }, 'Newer'),
      h('span', { 'aria-live': 'polite' }, `Page ${page}`),
      h(
        'button',
        { type: 'button', disabled: !answer?.meta.hasMore || !rows?.length, onClick: () => rows && setCursors([...cursors, rows[rows.length - 1]!.id]) },
        'Older',
      ),
      h('div', { class: 'field inline' }, [
        h('label', { for: 'audit-size' }, 'Rows per page'),
        h(
          'select',
          { id: 'audit-size', value: String(size), onChange: (e: Event) => (setSize(Number((e.target as HTMLSelectElement).value)), setCursors([undefined])) },
          PAGE_SIZES.map((n) => h('option', { key: n, value: String(n) }, String(n))),
        ),
      ]),
    ]),
  ]);
}
