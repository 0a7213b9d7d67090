/**
 * The History dialog (docs/admin.md "Content history"), opened by the side panel's "History"
 * button (history.ts): a dialog named "History" listing the entry's versions in this locale, newest
 * first (when, who, the status after the write, which fields changed), 20 at a time. Choosing
 * one shows its content and how it differs from the current draft (the newest version: every
 * write keeps one); "Restore this version" (after a confirmation) makes it the draft, the form
 * shows it, and the list shows the restore as a new version.
 */
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { AdminContentType } from '../schema';
import { api, uidPath } from './api';
import { Dialog } from './dialog';
import { documentNames, nameOf } from './document-names';
import { actorText, localeLabel, type PanelContext } from './edit-panel';
import { BADGE_TEXT } from './list';
import { errorText, NoticeLine, type Notice } from './settings/common';
import { differences, EMPTY, linkedDocuments, shownAttributes, valueText } from './version-values';
import { labelOf } from './words';

interface Version {
  id: number;
  createdAt: string;
  locale: string;
  status: string;
  event: string;
  actor: { kind: string; name: string | null };
  changed: string[];
  data: Record<string, unknown>;
}

interface LeftOut {
  path: string;
  reason: string;
}

const PAGE = 20;

/** Moves the focus once the view has rendered (a control that went away leaves it nowhere). */
const focusLater = (id: string) => setTimeout(() => document.getElementById(id)?.focus(), 0);

const EVENTS: Record<string, string> = {
  'entry.create': 'Created',
  'entry.update': 'Saved',
  'entry.publish': 'Published',
  'entry.unpublish': 'Unpublished',
  'entry.draft-discard': 'Changes discarded',
};

/** To the second: several saves in a minute stay apart. */
export const exactly = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function HistoryDialog(props: PanelContext & { onClose: () => void }) {
  const { ct, schema, locale } = props;
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [names, setNames] = useState(new Map<string, string>());
  const [notice, setNotice] = useState<Notice | null>(null);
  const [leftOut, setLeftOut] = useState<LeftOut[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // Versions this dialog made by restoring: new version id → the restored version's time.
  const [restores, setRestores] = useState(new Map<number, string>());
  const documentPath = ct.kind === 'singleType' ? 'single' : encodeURIComponent(props.documentId!);

  async function load(before?: number): Promise<Version[]> {
    const params = new URLSearchParams({ limit: String(PAGE) });
    if (locale) params.set('locale', locale);
    if (before) params.set('before', String(before));
    const r = await api<{ data: Version[]; meta: { hasMore: boolean } }>('GET', `/history/${uidPath(ct.uid)}/${documentPath}?${params}`);
    setHasMore(r.meta.hasMore);
    return r.data;
  }

  async function name(list: Version[]) {
    const wanted = list.flatMap((v) => linkedDocuments(ct.attributes, v.data, props.components)).map((l) => ({ ...l, locale: l.locale ?? locale }));
    const found = await documentNames(schema, wanted);
    setNames((old) => new Map([...old, ...found]));
  }

  useEffect(() => {
    load().then(
      (list) => {
        setVersions(list);
        setSelected(list[0]?.id ?? null);
        void name(list.slice(0, 2));
      },
      (e) => setNotice({ text: errorText(e), error: true }),
    );
  }, []);

  async function more() {
    if (!versions?.length) return;
    try {
      const older = await load(versions[versions.length - 1]!.id);
      setVersions([...versions, ...older]);
    } catch (e) {
      setNotice({ text: errorText(e), error: true });
    }
  }

  const ask = () => {
    setConfirming(true);
    focusLater('restore-cancel');
  };
  const cancel = () => {
    setConfirming(false);
    focusLater('restore-version');
  };

  function choose(v: Version) {
    setSelected(v.id);
    setConfirming(false);
    void name([v]);
    // On a phone the details are below the list: go there.
    if (matchMedia('(max-width: 48rem)').matches) focusLater('version-title');
  }

  async function restore(v: Version) {
    setConfirming(false);
    setBusy(true);
    setNotice(null);
    setLeftOut([]);
    try {
      const r = await api<{ data: { leftOut: LeftOut[] } }>('POST', `/history/versions/${v.id}/restore`);
      const list = await load();
      const newest = list[0];
      if (newest && newest.id !== versions?.[0]?.id) setRestores(new Map(restores).set(newest.id, exactly(v.createdAt)));
      setVersions(list);
      setSelected(newest?.id ?? null);
      setLeftOut(r.data.leftOut);
      setNotice({ text: `Restored: the draft now holds the version of ${exactly(v.createdAt)}. Nothing was published.` });
      props.reload();
      focusLater('version-title');
    } catch (e) {
      setNotice({ text: `The version was not restored: ${errorText(e)}`, error: true });
    } finally {
      setBusy(false);
    }
  }

  const eventText = (v: Version) => (restores.has(v.id) ? `Restored from ${restores.get(v.id)}` : (EVENTS[v.event] ?? v.event));
  const current = versions?.[0];
  const version = versions?.find((v) => v.id === selected);
  const lang = locale ? schema.locales.find((l) => l.code === locale) : undefined;
  const nameFor = (link: { uid: string; documentId: string; locale?: string | null }) => nameOf(schema, names, { ...link, locale: link.locale ?? locale });

  return h(Dialog, { id: 'history', title: 'History', class: 'history-dialog', onClose: props.onClose }, [
    h('p', { class: 'muted' }, `Versions of this entry${lang ? ` in ${localeLabel(lang)}` : ''}, newest first.`),
    h(NoticeLine, { notice }),
    leftOut.length
      ? h('div', { class: 'notice-box' }, [
          h('p', null, 'Some of it could not be restored, as it no longer exists:'),
          h(
            'ul',
            null,
            leftOut.map((x) => h('li', { key: x.path }, `${x.path}: ${x.reason}`)),
          ),
        ])
      : null,
    !versions
      ? notice?.error
        ? null
        : h('p', { role: 'status' }, 'Loading…')
      : versions.length === 0
        ? h('p', null, 'No version is kept for this entry yet: the next save keeps one.')
        : h('div', { class: 'history-layout' }, [
            h('section', { class: 'versions', 'aria-label': 'Versions' }, [
              h(
                'ol',
                null,
                versions.map((v) =>
                  h(
                    'li',
                    { key: v.id },
                    h('button', { type: 'button', class: 'version', 'aria-current': v.id === selected ? 'true' : undefined, onClick: () => choose(v) }, [
                      h('span', { class: 'version-when' }, exactly(v.createdAt)),
                      ct.draftAndPublish ? h('span', { class: `badge badge-${v.status}` }, BADGE_TEXT[v.status] ?? v.status) : null,
                      h('span', { class: 'version-who' }, `${eventText(v)} by ${actorText(v.actor)}`),
                      v.changed.length ? h('span', { class: 'version-changed' }, `Changed: ${changedText(ct, v.changed)}`) : null,
                    ]),
                  ),
                ),
              ),
              hasMore ? h('button', { type: 'button', class: 'wide', onClick: more }, 'Show older versions') : null,
            ]),
            version && current
              ? h(VersionDetails, {
                  ct,
                  version,
                  current,
                  isCurrent: version.id === current.id,
                  event: eventText(version),
                  components: props.components,
                  nameFor,
                  dirty: props.dirty,
                  confirming,
                  busy,
                  onAsk: ask,
                  onCancel: cancel,
                  onRestore: () => restore(version),
                })
              : null,
          ]),
  ]);
}

/** Changed attributes by their labels (the first few, then how many more). */
function changedText(ct: AdminContentType, changed: string[]): string {
  const labels = changed.map((n) => {
    const a = ct.attributes.find((x) => x.name === n);
    return a ? labelOf(a) : n;
  });
  return labels.length > 4 ? `${labels.slice(0, 4).join(', ')} and ${labels.length - 4} more` : labels.join(', ');
}

function VersionDetails(props: {
  ct: AdminContentType;
  version: Version;
  current: Version;
  isCurrent: boolean;
  /** What the write was, in words ("Saved", "Restored from …"). */
  event: string;
  components: PanelContext['components'];
  nameFor: (link: { uid: string; documentId: string; locale?: string | null }) => string | undefined;
  dirty: boolean;
  confirming: boolean;
  busy: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onRestore: () => void;
}) {
  const { ct, version, current, components } = props;
  const text = (name: string, data: Record<string, unknown>) => {
    const a = ct.attributes.find((x) => x.name === name)!;
    return valueText(a, data[name], components, props.nameFor);
  };
  const diff = differences(ct.attributes, version.data, current.data);
  return h('section', { class: 'version-details', 'aria-labelledby': 'version-title' }, [
    h('h3', { id: 'version-title', tabIndex: -1 }, `Version of ${exactly(version.createdAt)}`),
    h(
      'p',
      { class: 'muted' },
      `${props.event} by ${actorText(version.actor)}${ct.draftAndPublish ? ` · ${BADGE_TEXT[version.status] ?? version.status} after this write` : ''}`,
    ),
    props.isCurrent
      ? h('p', { class: 'notice-inline' }, 'This is the current draft.')
      : props.confirming
        ? h('div', { role: 'alertdialog', 'aria-labelledby': 'restore-question', 'aria-describedby': 'restore-detail', class: 'confirm' }, [
            h('p', { id: 'restore-question' }, h('strong', null, 'Restore this version as the draft?')),
            h(
              'p',
              { id: 'restore-detail' },
              `The current draft is replaced (it stays in the history) and nothing is published.${props.dirty ? ' Your unsaved changes in the form will be lost.' : ''}`,
            ),
            h('button', { type: 'button', class: 'primary', disabled: props.busy, onClick: props.onRestore }, 'Restore'),
            h('button', { type: 'button', id: 'restore-cancel', onClick: props.onCancel }, 'Cancel'),
          ])
        : h('button', { type: 'button', id: 'restore-version', class: 'primary', disabled: props.busy, onClick: props.onAsk }, 'Restore this version'),
    props.isCurrent
      ? null
      : [
          h('h4', null, 'Differences from the current draft'),
          diff.length === 0
            ? h('p', null, 'None: the current draft holds the same content.')
            : h(
                'ul',
                { class: 'diff' },
                diff.map((a) =>
                  h('li', { key: a.name }, [
                    h('p', { class: 'diff-name' }, labelOf(a)),
                    h('div', { class: 'diff-values' }, [
                      h('div', { class: 'diff-old' }, [
                        h('span', { class: 'diff-tag' }, 'This version'),
                        h('p', { class: 'value' }, text(a.name, version.data)),
                      ]),
                      h('div', { class: 'diff-new' }, [
                        h('span', { class: 'diff-tag' }, 'Current draft'),
                        h('p', { class: 'value' }, text(a.name, current.data)),
                      ]),
                    ]),
                  ]),
                ),
              ),
        ],
    h('h4', null, 'Content of this version'),
    h(
      'dl',
      { class: 'version-content' },
      shownAttributes(ct.attributes).map((a) => {
        const value = text(a.name, version.data);
        return [h('dt', { key: `${a.name}-dt` }, labelOf(a)), h('dd', { key: `${a.name}-dd`, class: value === EMPTY ? 'muted value' : 'value' }, value)];
      }),
    ),
  ]);
}
