/**
 * The edit view's "Add to release" (docs/admin.md "Releases"): the releases that hold this
 * entry (each a link to its page) and a form to put this locale's version in a pending
 * release, to be published or unpublished with it. Types with draft & publish only, saved
 * entries only.
 */
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, uidPath } from './api';
import { localeLabel, type PanelContext } from './edit-panel';
import { Link } from './router';
import { inZone, localZone, RELEASE_STATUS, scheduleText } from './release-time';
import { errorText, NoticeLine, useLoad, type Notice } from './settings/common';

interface Holding {
  name: string;
  status: string;
  scheduledAt: string | null;
  timezone?: string | null;
  locale: string;
  action: 'publish' | 'unpublish';
}

interface Summary {
  name: string;
  status: string;
  scheduledAt: string | null;
  timezone: string | null;
}

export const releaseHref = (name: string) => `/admin/releases/${encodeURIComponent(name)}`;
const ACTION_TEXT = { publish: 'Publish', unpublish: 'Unpublish' } as const;

export function AddToReleaseBox(props: PanelContext) {
  if (!props.documentId || !props.ct.draftAndPublish) return null;
  return h(ReleasesOfDocument, { ...props, key: `${props.documentId}:${props.locale ?? ''}` });
}

function ReleasesOfDocument(props: PanelContext) {
  const { ct, schema, locale } = props;
  const holding = useLoad(() =>
    api<{ data: Holding[] }>('GET', `/releases/documents/${uidPath(ct.uid)}/${encodeURIComponent(props.documentId!)}`).then((r) => r.data),
  );
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState<Summary[] | null>(null);
  const [name, setName] = useState('');
  const [action, setAction] = useState<'publish' | 'unpublish'>('publish');
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const lang = locale ? schema.locales.find((l) => l.code === locale) : undefined;

  useEffect(() => {
    if (!open) return;
    api<{ data: Summary[] }>('GET', '/releases').then(
      (r) => {
        const list = r.data.filter((x) => x.status === 'pending');
        setPending(list);
        setName((old) => (list.some((x) => x.name === old) ? old : (list[0]?.name ?? '')));
      },
      (e) => setNotice({ text: errorText(e), error: true }),
    );
  }, [open]);

  async function add(event: Event) {
    event.preventDefault();
    if (!name) return;
    setBusy(true);
    setNotice(null);
    try {
      await api('POST', `/releases/${encodeURIComponent(name)}/entries`, { type: ct.uid, documentId: props.documentId, ...(locale ? { locale } : {}), action });
      setOpen(false);
      holding.reload();
      setNotice({ text: `Added to ${name}: ${action === 'publish' ? 'it will be published' : 'it will be unpublished'} with the release.` });
    } catch (e) {
      setNotice({ text: `Not added: ${errorText(e)}`, error: true });
    } finally {
      setBusy(false);
    }
  }

  const mine = (holding.data ?? []).filter((x) => !locale || x.locale === locale);
  return h('section', { class: 'box', 'aria-labelledby': 'panel-releases' }, [
    h('h2', { id: 'panel-releases' }, 'Releases'),
    holding.error ? h('p', { class: 'error' }, holding.error) : null,
    !holding.data
      ? null
      : mine.length === 0
        ? h('p', { class: 'muted box-note' }, lang ? `This ${localeLabel(lang)} version is in no release.` : 'This entry is in no release.')
        : h(
            'ul',
            { class: 'release-links' },
            mine.map((x) =>
              h('li', { key: x.name }, [
                h(Link, { href: releaseHref(x.name) }, x.name),
                h('span', { class: `badge badge-${x.status}` }, RELEASE_STATUS[x.status] ?? x.status),
                // The releases holding a document do not say their zone: the time is shown in the browser's.
                h(
                  'span',
                  { class: 'muted release-when' },
                  x.status === 'pending'
                    ? `${ACTION_TEXT[x.action]} · ${x.scheduledAt ? inZone(x.scheduledAt, x.timezone ?? localZone()) : 'Not scheduled'}`
                    : ACTION_TEXT[x.action],
                ),
              ]),
            ),
          ),
    h(NoticeLine, { notice }),
    h(
      'button',
      {
        type: 'button',
        class: 'wide',
        'aria-expanded': open ? 'true' : 'false',
        'aria-controls': 'add-release',
        onClick: () => (setOpen(!open), setNotice(null)),
      },
      'Add to release',
    ),
    open
      ? h('form', { id: 'add-release', class: 'add-release', onSubmit: add, 'aria-label': 'Add to release' }, [
          !pending
            ? h('p', { role: 'status' }, 'Loading…')
            : pending.length === 0
              ? h('p', null, ['No release is pending. ', h(Link, { href: '/admin/releases' }, 'Create one on the Releases page'), '.'])
              : [
                  h('div', { class: 'field' }, [
                    h('label', { for: 'add-release-name' }, 'Release'),
                    h(
                      'select',
                      { id: 'add-release-name', value: name, onChange: (e: Event) => setName((e.target as HTMLSelectElement).value) },
                      pending.map((r) => h('option', { key: r.name, value: r.name }, r.scheduledAt ? `${r.name} (${scheduleText(r)})` : r.name)),
                    ),
                  ]),
                  h('fieldset', { class: 'choice' }, [
                    h('legend', null, 'With the release'),
                    (['publish', 'unpublish'] as const).map((a) =>
                      h('label', { key: a }, [
                        h('input', { type: 'radio', name: 'release-action', value: a, checked: action === a, onChange: () => setAction(a) }),
                        ` ${ACTION_TEXT[a]}`,
                      ]),
                    ),
                  ]),
                  lang ? h('p', { class: 'muted box-note' }, `For this locale: ${localeLabel(lang)}.`) : null,
                  h('div', { class: 'row-actions' }, [
                    h('button', { type: 'submit', class: 'primary', disabled: busy || !name }, 'Add'),
                    h('button', { type: 'button', onClick: () => setOpen(false) }, 'Cancel'),
                  ]),
                ],
        ])
      : null,
  ]);
}
