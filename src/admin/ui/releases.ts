/**
 * The Releases page (docs/admin.md "Releases"), for every admin who edits content:
 *   /admin/releases         the releases (pending first: soonest scheduled first; then the
 *                           others, newest first) with status and schedule; a form to create
 *                           one, with a name, an optional date and time, and its time zone
 *   /admin/releases/:name   one release: its schedule (changed or removed here), its entries
 *                           (each a link to the entry; removed one by one), Publish now, why it
 *                           failed (the entry and the field, in words), Delete.
 * Entries are added from an entry's side panel ("Add to release": add-to-release.ts).
 */
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { AdminContentType } from '../schema';
import { api, ApiError, uidPath } from './api';
import { releaseHref } from './add-to-release';
import { documentNames, nameOf } from './document-names';
import { localeLabel, when } from './edit-panel';
import { explain } from './errors';
import type { Schema } from './main';
import { Link, navigate } from './router';
import { localZone, RELEASE_STATUS, scheduleText, timeZones, wallClock } from './release-time';
import { errorText, NoticeLine, useAction, useLoad } from './settings/common';
import { labelOf } from './words';

interface Summary {
  name: string;
  status: string;
  scheduledAt: string | null;
  timezone: string | null;
  releasedAt: string | null;
  entries: number;
}

interface Entry {
  type: string;
  documentId: string;
  locale: string;
  action: 'publish' | 'unpublish';
}

interface Failure {
  message: string;
  type?: string;
  documentId?: string;
  locale?: string;
  action?: 'publish' | 'unpublish';
  field?: string;
}

interface Release extends Omit<Summary, 'entries'> {
  createdAt: string;
  entries: Entry[];
  error?: Failure;
}

const ACTION_TEXT = { publish: 'Publish', unpublish: 'Unpublish' } as const;

export function ReleasesPage(props: { schema: Schema; name?: string }) {
  return props.name === undefined ? h(ReleaseList, null) : h(ReleaseView, { key: props.name, schema: props.schema, name: props.name });
}

/** A date and time (optional) and the zone it is given in. */
function ScheduleFields(props: {
  id: string;
  at: string;
  zone: string;
  onAt: (v: string) => void;
  onZone: (v: string) => void;
  required?: boolean;
  errors?: Record<string, string>;
}) {
  const error = (key: string) => props.errors?.[key];
  return h('div', { class: 'schedule-fields' }, [
    h('div', { class: 'field' }, [
      h('label', { for: `${props.id}-at` }, props.required ? 'Date and time' : 'Date and time (optional)'),
      h('input', {
        id: `${props.id}-at`,
        type: 'datetime-local',
        value: props.at,
        required: props.required,
        'aria-invalid': error('scheduledAt') ? 'true' : undefined,
        'aria-describedby': error('scheduledAt') ? `${props.id}-at-error` : undefined,
        onInput: (e: Event) => props.onAt((e.target as HTMLInputElement).value),
      }),
      error('scheduledAt') ? h('p', { id: `${props.id}-at-error`, class: 'field-error' }, error('scheduledAt')) : null,
    ]),
    h('div', { class: 'field' }, [
      h('label', { for: `${props.id}-zone` }, 'Time zone'),
      h(
        'select',
        { id: `${props.id}-zone`, value: props.zone, onChange: (e: Event) => props.onZone((e.target as HTMLSelectElement).value) },
        timeZones().map((z) => h('option', { key: z, value: z }, z.replace(/_/g, ' '))),
      ),
    ]),
  ]);
}

/** The API's field errors by their first path segment, in plain words. */
function fieldErrors(e: unknown): Record<string, string> {
  const words: Record<string, string> = {
    'not an ISO-8601 time': 'Give a date and a time',
    'must be in the future': 'Choose a time in the future',
  };
  return Object.fromEntries((e instanceof ApiError ? (e.details.errors ?? []) : []).map((x) => [String(x.path[0] ?? ''), words[x.message] ?? x.message]));
}

function ReleaseList() {
  const list = useLoad(() => api<{ data: Summary[] }>('GET', '/releases').then((r) => r.data));
  const [name, setName] = useState('');
  const [at, setAt] = useState('');
  const [zone, setZone] = useState(localZone);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useAction();

  async function submit(event: Event) {
    event.preventDefault();
    setErrors({});
    if (!name.trim()) return setErrors({ name: 'Give the release a name' });
    const made = await create.run('Release created', () =>
      api<{ data: Release }>('POST', '/releases', { name: name.trim(), ...(at ? { scheduledAt: at, timezone: zone } : {}) }).catch((e) => {
        setErrors(fieldErrors(e));
        throw e;
      }),
    );
    if (made) navigate(releaseHref(made.data.name));
  }

  return h('div', { class: 'releases' }, [
    h('h1', null, 'Releases'),
    h(
      'p',
      { class: 'muted' },
      'A release publishes or unpublishes several entries at once: when you say, or at the time it is scheduled for. Add entries from their edit view.',
    ),
    h('form', { class: 'box release-form', onSubmit: submit, 'aria-labelledby': 'new-release', noValidate: true }, [
      h('h2', { id: 'new-release' }, 'New release'),
      h('div', { class: 'release-form-fields' }, [
        h('div', { class: 'field' }, [
          h('label', { for: 'release-name' }, 'Name'),
          h('input', {
            id: 'release-name',
            value: name,
            maxLength: 200,
            required: true,
            'aria-invalid': errors.name ? 'true' : undefined,
            'aria-describedby': errors.name ? 'release-name-error' : undefined,
            onInput: (e: Event) => setName((e.target as HTMLInputElement).value),
          }),
          errors.name ? h('p', { id: 'release-name-error', class: 'field-error' }, errors.name) : null,
        ]),
        h(ScheduleFields, { id: 'release', at, zone, onAt: setAt, onZone: setZone, errors }),
      ]),
      h(NoticeLine, { notice: create.notice?.error ? create.notice : null }),
      h('button', { type: 'submit', class: 'primary', disabled: create.busy }, 'Create release'),
    ]),
    list.error ? h('p', { class: 'error', role: 'alert' }, list.error) : null,
    !list.data
      ? h('p', { role: 'status' }, 'Loading…')
      : list.data.length === 0
        ? h('div', { class: 'empty' }, [
            h('p', { class: 'empty-title' }, 'No release yet'),
            h('p', { class: 'muted' }, 'Create one above, then add entries to it from their edit view.'),
          ])
        : h('div', { class: 'table-wrap' }, [
            h('table', { class: 'entries releases-table', 'aria-label': 'Releases' }, [
              h(
                'thead',
                null,
                h('tr', null, [
                  h('th', { scope: 'col' }, 'Name'),
                  h('th', { scope: 'col' }, 'Status'),
                  h('th', { scope: 'col' }, 'Publishes'),
                  h('th', { scope: 'col' }, 'Entries'),
                ]),
              ),
              h(
                'tbody',
                null,
                list.data.map((r) =>
                  h('tr', { key: r.name }, [
                    h('td', null, h(Link, { href: releaseHref(r.name) }, r.name)),
                    h('td', null, h('span', { class: `badge badge-${r.status}` }, RELEASE_STATUS[r.status] ?? r.status)),
                    h('td', null, r.status === 'done' ? `Published ${when(r.releasedAt)}` : scheduleText(r)),
                    h('td', null, String(r.entries)),
                  ]),
                ),
              ),
            ]),
          ]),
  ]);
}

function ReleaseView(props: { schema: Schema; name: string }) {
  const { schema } = props;
  const [release, setRelease] = useState<Release | null>(null);
  const [missing, setMissing] = useState(false);
  const [names, setNames] = useState(new Map<string, string>());
  const [editing, setEditing] = useState(false);
  const [at, setAt] = useState('');
  const [zone, setZone] = useState(localZone);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const action = useAction();
  const path = `/releases/${encodeURIComponent(props.name)}`;

  const adopt = (r: Release) => {
    setRelease(r);
    void documentNames(
      schema,
      r.entries.map((e) => ({ uid: e.type, documentId: e.documentId, locale: e.locale })),
    ).then(setNames);
  };

  useEffect(() => {
    api<{ data: Release }>('GET', path).then(
      (r) => adopt(r.data),
      (e) => (e instanceof ApiError && e.status === 404 ? setMissing(true) : action.setNotice({ text: errorText(e), error: true })),
    );
  }, []);

  const typeOf = (uid: string | undefined) => schema.contentTypes.find((c) => c.uid === uid);
  const entryName = (e: { type: string; documentId: string; locale?: string }) =>
    nameOf(schema, names, { uid: e.type, documentId: e.documentId, locale: e.locale }) ?? e.documentId;
  const localeName = (code: string | undefined) => (code ? localeLabel(schema.locales.find((l) => l.code === code) ?? { code }) : '');
  const entryHref = (e: { type: string; documentId: string; locale?: string }) => {
    const ct = typeOf(e.type);
    const base = `/admin/content/${encodeURIComponent(e.type)}`;
    return `${ct?.kind === 'singleType' ? base : `${base}/${encodeURIComponent(e.documentId)}`}${e.locale ? `?locale=${encodeURIComponent(e.locale)}` : ''}`;
  };

  if (missing)
    return h('div', null, [
      h('p', { class: 'back' }, h(Link, { href: '/admin/releases' }, '← Releases')),
      h('h1', null, 'Release not found'),
      h('p', null, `No release is called “${props.name}”.`),
    ]);
  if (!release) return h('div', null, [h(NoticeLine, { notice: action.notice }), action.notice ? null : h('p', { role: 'status' }, 'Loading…')]);

  const open = release.status !== 'done';

  async function publish() {
    setConfirming(false);
    setPublishing(true);
    action.setNotice(null);
    try {
      adopt((await api<{ data: Release }>('POST', `${path}/publish`)).data);
      action.setNotice({ text: 'Published: every entry of the release is out' });
    } catch (e) {
      // A failure leaves the release failed, with why: the failure box says it in words.
      if (e instanceof ApiError && e.details.failure)
        await api<{ data: Release }>('GET', path).then(
          (x) => adopt(x.data),
          () => {},
        );
      else action.setNotice({ text: `The release was not published: ${errorText(e)}`, error: true });
    } finally {
      setPublishing(false);
    }
  }

  async function schedule(event: Event) {
    event.preventDefault();
    setErrors({});
    if (!at) return setErrors({ scheduledAt: 'Give a date and a time' });
    const r = await action.run('Schedule saved', () =>
      api<{ data: Release }>('PUT', path, { scheduledAt: at, timezone: zone }).catch((e) => {
        setErrors(fieldErrors(e));
        throw e;
      }),
    );
    if (r) adopt(r.data), setEditing(false);
  }

  async function unschedule() {
    const r = await action.run('No longer scheduled: it publishes when you say', () => api<{ data: Release }>('PUT', path, { scheduledAt: null }));
    if (r) adopt(r.data), setEditing(false);
  }

  async function remove(e: Entry) {
    const query = e.locale ? `?locale=${encodeURIComponent(e.locale)}` : '';
    const r = await action.run(`Removed ${entryName(e)} from the release`, () =>
      api<{ data: Release }>('DELETE', `${path}/entries/${uidPath(e.type)}/${encodeURIComponent(e.documentId)}${query}`),
    );
    if (r) adopt(r.data);
  }

  async function destroy() {
    const r = await action.run('Release deleted', () => api('DELETE', path));
    if (r) navigate('/admin/releases');
  }

  const startEditing = () => {
    setAt(release.scheduledAt ? wallClock(release.scheduledAt, release.timezone) : '');
    setZone(release.timezone ?? localZone());
    setErrors({});
    setEditing(true);
  };

  return h('div', { class: 'release' }, [
    h('p', { class: 'back' }, h(Link, { href: '/admin/releases' }, '← Releases')),
    h('div', { class: 'title-main' }, [
      h('h1', null, release.name),
      h('span', { class: `badge badge-${release.status}`, 'data-testid': 'release-status' }, RELEASE_STATUS[release.status] ?? release.status),
    ]),
    h(NoticeLine, { notice: action.notice }),
    release.status === 'failed' && release.error
      ? h(FailureBox, {
          schema,
          failure: release.error,
          name: release.error.type ? entryName({ type: release.error.type, documentId: release.error.documentId ?? '', locale: release.error.locale }) : '',
          href:
            release.error.type && release.error.documentId
              ? entryHref({ type: release.error.type, documentId: release.error.documentId, locale: release.error.locale })
              : null,
        })
      : null,
    h('div', { class: 'release-layout' }, [
      h('section', { class: 'box release-entries', 'aria-labelledby': 'release-entries' }, [
        h('h2', { id: 'release-entries' }, `Entries (${release.entries.length})`),
        release.entries.length === 0
          ? h('p', { class: 'muted' }, 'No entry yet. Open an entry and use “Add to release” in its side panel.')
          : h(
              'ul',
              { class: 'release-entry-list' },
              release.entries.map((e) => {
                const ct = typeOf(e.type);
                const label = entryName(e);
                return h('li', { key: `${e.type}:${e.documentId}:${e.locale}` }, [
                  h('div', { class: 'release-entry-main' }, [
                    h(Link, { href: entryHref(e) }, label),
                    h('span', { class: 'muted' }, [ct?.displayName ?? e.type, localeName(e.locale)].filter(Boolean).join(' · ')),
                  ]),
                  h('span', { class: `badge badge-action-${e.action}` }, ACTION_TEXT[e.action]),
                  open
                    ? h(
                        'button',
                        {
                          type: 'button',
                          class: 'small',
                          'aria-label': `Remove ${label}${e.locale ? ` (${e.locale})` : ''} from the release`,
                          disabled: action.busy,
                          onClick: () => remove(e),
                        },
                        'Remove',
                      )
                    : null,
                ]);
              }),
            ),
      ]),
      h('section', { class: 'box release-side', 'aria-labelledby': 'release-about' }, [
        h('h2', { id: 'release-about' }, 'Release'),
        h('dl', { class: 'facts' }, [
          h('dt', null, release.status === 'done' ? 'Published' : 'Publishes'),
          h('dd', null, release.status === 'done' ? when(release.releasedAt) : release.scheduledAt ? scheduleText(release) : 'When you publish it'),
          h('dt', null, 'Created'),
          h('dd', null, when(release.createdAt)),
        ]),
        open
          ? h('div', { class: 'release-actions' }, [
              confirming
                ? h('div', { role: 'alertdialog', 'aria-labelledby': 'publish-question', class: 'confirm' }, [
                    h(
                      'p',
                      { id: 'publish-question' },
                      `Publish the ${release.entries.length === 1 ? 'entry' : `${release.entries.length} entries`} of this release now? All or nothing: if one cannot be published, none is.`,
                    ),
                    h('button', { type: 'button', class: 'primary', onClick: publish }, 'Publish'),
                    h('button', { type: 'button', onClick: () => setConfirming(false) }, 'Cancel'),
                  ])
                : h(
                    'button',
                    {
                      type: 'button',
                      class: 'primary wide',
                      disabled: action.busy || publishing || release.entries.length === 0,
                      onClick: () => setConfirming(true),
                    },
                    publishing ? 'Publishing…' : 'Publish now',
                  ),
              editing
                ? h('form', { class: 'reschedule', onSubmit: schedule, 'aria-label': 'Schedule', noValidate: true }, [
                    h(ScheduleFields, { id: 'reschedule', at, zone, onAt: setAt, onZone: setZone, required: true, errors }),
                    h('div', { class: 'row-actions' }, [
                      h('button', { type: 'submit', class: 'primary', disabled: action.busy }, 'Save schedule'),
                      release.scheduledAt ? h('button', { type: 'button', disabled: action.busy, onClick: unschedule }, 'Remove the schedule') : null,
                      h('button', { type: 'button', onClick: () => setEditing(false) }, 'Cancel'),
                    ]),
                  ])
                : h('button', { type: 'button', class: 'wide', onClick: startEditing }, release.scheduledAt ? 'Change the schedule' : 'Schedule'),
            ])
          : null,
        h(DeleteRelease, { onDelete: destroy, busy: action.busy }),
      ]),
    ]),
  ]);
}

function DeleteRelease(props: { onDelete: () => void; busy: boolean }) {
  const [asking, setAsking] = useState(false);
  return asking
    ? h('div', { role: 'alertdialog', 'aria-labelledby': 'delete-release-question', class: 'confirm' }, [
        h('p', { id: 'delete-release-question' }, 'Delete this release? Its entries stay as they are.'),
        h('button', { type: 'button', class: 'danger', onClick: props.onDelete }, 'Delete release'),
        h('button', { type: 'button', onClick: () => setAsking(false) }, 'Cancel'),
      ])
    : h('button', { type: 'button', class: 'danger wide', disabled: props.busy, onClick: () => setAsking(true) }, 'Delete release');
}

/** Why publishing failed: the entry (a link to fix it) and the field, in words. */
function FailureBox(props: { schema: Schema; failure: Failure; name: string; href: string | null }) {
  const { failure, schema } = props;
  const ct: AdminContentType | undefined = schema.contentTypes.find((c) => c.uid === failure.type);
  const components = Object.fromEntries(schema.components.map((c) => [c.uid, c]));
  // The validator's words follow the entry it names: "publish api::… "id" (en): title must be …".
  const said = failure.message.replace(/^(publish|unpublish) \S+ "[^"]*"(?: \([^)]*\))?: /, '');
  const reason =
    ct && failure.field ? explain({ path: failure.field.split('.'), message: said }, ct.attributes, {}, components).summary : said.replace(/`/g, '');
  const fieldAttribute = ct?.attributes.find((a) => a.name === failure.field?.split('.')[0]);
  const locale = failure.locale ? localeLabel(schema.locales.find((l) => l.code === failure.locale) ?? { code: failure.locale }) : '';
  return h('div', { class: 'summary', role: 'alert', 'aria-labelledby': 'release-failure' }, [
    h('h2', { id: 'release-failure' }, 'Publishing failed: nothing was changed'),
    ct
      ? h('p', null, [
          `${ct.displayName} `,
          props.href ? h(Link, { href: props.href }, `“${props.name}”`) : `“${props.name}”`,
          `${locale ? ` (${locale})` : ''} could not be ${failure.action === 'unpublish' ? 'unpublished' : 'published'}: `,
          h('strong', null, reason),
          '.',
        ])
      : h('p', null, said),
    fieldAttribute ? h('p', { class: 'muted' }, `Open the entry, fix the field “${labelOf(fieldAttribute)}”, save, then publish the release again.`) : null,
  ]);
}
