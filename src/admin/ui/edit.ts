/**
 * The edit view of one entry (or a new one), generated from the schema: a control per
 * attribute (fields/field.ts picks it by kind) on a 12-column grid, and beside it the side
 * panel (edit-panel.ts): Save (the draft), Publish / Unpublish / Discard changes as draft &
 * publish and the entry's state allow, Delete after a confirmation, the document's dates and
 * its locale versions.
 * The API's validation errors land at their fields, nested ones too (`links.0.label`).
 * Ctrl/Cmd+S saves; leaving with unsaved changes asks first (in the app and on unload); a
 * locale version not written yet can be filled in from another locale.
 */
import { h } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { AdminContentType } from '../schema';
import { slugify } from '../slug';
import { api, ApiError, uidPath } from './api';
import { explain, type ApiFieldError, type Explained } from './errors';
import { browser } from './dom';
import { untitled } from './words';
import { ActionsBox, InfoBox, LocalesBox, localeLabel, MoreBox, PANEL_SLOTS, type Action, type DocumentInfo, type PanelContext } from './edit-panel';
import { EditorContext, Field, fieldId, widthOf, type Editor } from './fields/field';
import { blankValues, docLabel, editable, toData, toForm, type Components, type FormValue, type Values } from './fields/values';
import { BADGE_TEXT } from './list';
import type { Schema } from './main';
import { Link, navigate, setLeaveGuard } from './router';

/** The browser globals only this view needs (dom.ts keeps the shared ones). */
const page = globalThis as unknown as {
  addEventListener(type: string, listener: (event: any) => void): void;
  removeEventListener(type: string, listener: (event: any) => void): void;
  confirm(message: string): boolean;
};

const LEAVE = 'You have unsaved changes. Leave without saving?';

/** What the view that created an entry said, for the created entry's view to say again. */
let flash: { text: string } | null = null;

export function EditView(props: { schema: Schema; ct: AdminContentType; documentId: string | null; locale?: string }) {
  const { ct, documentId, schema } = props;
  const locale = ct.localized ? (props.locale ?? schema.defaultLocale) : undefined;
  const isNew = documentId === null;
  const fields = ct.attributes;
  const components: Components = useMemo(() => Object.fromEntries((schema.components ?? []).map((c) => [c.uid, c])), [schema]);
  const mainFieldOf = (uid: string) => schema.contentTypes.find((c) => c.uid === uid)?.mainField ?? null;
  const editor: Editor = { schema, ct, locale, documentId: documentId === 'single' ? null : documentId, components, mainFieldOf };
  const blank = () => blankValues(fields, components);
  const [values, setValues] = useState<Values>(blank);
  const [baseline, setBaseline] = useState(() => JSON.stringify(values));
  const [status, setStatus] = useState<string | null>(null);
  const [info, setInfo] = useState<DocumentInfo>({});
  const [name, setName] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(isNew);
  // This locale (or single type) has no version yet: the form creates it.
  const [missing, setMissing] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<Explained[]>([]);
  // A new entry's view gives way to the created entry's: what it said ("Saved") carries over.
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(() => {
    const said = flash;
    flash = null;
    return said;
  });
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [fillFrom, setFillFrom] = useState('');
  // uid attributes typed by hand no longer follow their target field.
  const typedUids = useRef(new Set<string>());
  const query = locale ? `?locale=${encodeURIComponent(locale)}` : '';
  const path = `/content/${uidPath(ct.uid)}`;
  const entryPath = `${path}/${encodeURIComponent(documentId ?? '')}`;
  const creating = isNew || missing;
  const dirty = JSON.stringify(values) !== baseline;
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  const show = (
    doc: Record<string, unknown>,
    meta: {
      status: string | null;
      publishedAt?: string | null;
      availableLocales?: DocumentInfo['availableLocales'];
      previewUrl?: string | null;
      createdBy?: unknown;
      updatedBy?: unknown;
    },
  ) => {
    const next = Object.fromEntries(fields.filter(editable).map((a) => [a.name, toForm(a, doc[a.name], components, mainFieldOf)])) as Values;
    setValues(next);
    setBaseline(JSON.stringify(next));
    setStatus(meta.status);
    setInfo({
      documentId: doc.documentId as string,
      createdAt: doc.createdAt as string,
      updatedAt: doc.updatedAt as string,
      publishedAt: meta.publishedAt ?? null,
      createdBy: meta.createdBy ?? doc.createdBy,
      updatedBy: meta.updatedBy ?? doc.updatedBy,
      availableLocales: meta.availableLocales,
      previewUrl: meta.previewUrl ?? null,
    });
    setName(ct.mainField && doc[ct.mainField] !== null && doc[ct.mainField] !== undefined && doc[ct.mainField] !== '' ? docLabel(doc, ct.mainField) : null);
    setMissing(false);
    setLoaded(true);
  };

  const read = () =>
    api('GET', `${entryPath}${query}`).then(
      (r) => show(r.data, r.meta),
      (e) => (e instanceof ApiError && e.status === 404 ? (setMissing(true), setLoaded(true)) : setMessage({ text: (e as Error).message, error: true })),
    );

  useEffect(() => {
    if (!isNew) void read();
  }, []);

  // The unsaved-changes guard: in-app navigation asks, and so does the browser on unload.
  useEffect(() => {
    setLeaveGuard(() => !dirtyRef.current || page.confirm(LEAVE));
    const unload = (event: any) => {
      if (!dirtyRef.current) return;
      event.preventDefault();
      event.returnValue = LEAVE;
    };
    page.addEventListener('beforeunload', unload);
    return () => {
      setLeaveGuard(null);
      page.removeEventListener('beforeunload', unload);
    };
  }, []);

  /**
   * Runs a write. A validation error becomes words (errors.ts): each at its field, all in a
   * summary at the top whose items lead to them; anything else is a banner.
   */
  async function run(label: string, write: () => Promise<any>, failed = 'The entry was not saved') {
    setBusy(true);
    setMessage(null);
    try {
      const r = await write();
      setErrors({});
      setSummary([]);
      if (r) show(r.data, r.meta);
      setMessage({ text: label });
      return r;
    } catch (e) {
      const details = e instanceof ApiError ? e.details : {};
      const list: ApiFieldError[] =
        details.errors ?? (Array.isArray(details.path) ? [{ path: details.path as (string | number)[], message: (e as Error).message }] : []);
      const explained = list.map((err) => explain(err, fields, values, components));
      showErrors(
        explained,
        explained.length
          ? `${failed}: ${explained.length === 1 ? 'one field needs' : `${explained.length} fields need`} your attention.`
          : (e as Error).message,
      );
    } finally {
      setBusy(false);
    }
  }

  function showErrors(explained: Explained[], text: string) {
    const byField: Record<string, string> = {};
    for (const x of explained) if (x.field && !byField[x.field]) byField[x.field] = x.text;
    setErrors(byField);
    setSummary(explained);
    setMessage({ text, error: true });
    // Focus the summary, so a keyboard or screen-reader user hears it and can go to each field.
    if (explained.length) setTimeout(() => browser.document.getElementById('error-summary')?.focus(), 0);
  }

  /** A summary item's link: the field's control (or the first control of its group) gets the focus. */
  function goTo(field: string) {
    const doc = (globalThis as any).document;
    const el = doc.getElementById(fieldId(field));
    const target = el?.matches('input,select,textarea,button,[contenteditable=true],[tabindex]')
      ? el
      : el?.querySelector('input,select,textarea,button,[contenteditable=true]');
    (target ?? el)?.scrollIntoView({ block: 'center' });
    (target ?? el)?.focus();
  }

  const saveRef = useRef<() => void>(() => {});
  function save(event?: Event) {
    event?.preventDefault();
    if (busy) return;
    const local: Record<string, string> = {};
    const data = toData(fields, values, components, creating, local);
    const found = Object.entries(local).map(([field, text]): Explained => ({ field, text, summary: text }));
    if (found.length)
      return showErrors(found, `The entry was not saved: ${found.length === 1 ? 'one field needs' : `${found.length} fields need`} your attention.`);
    void run('Saved', async () => {
      if (!isNew) return api('PUT', `${entryPath}${query}`, { data });
      const r = await api('POST', `${path}${query}`, { data });
      setBaseline(JSON.stringify(values));
      flash = { text: 'Saved' };
      navigate(`/admin/content/${encodeURIComponent(ct.uid)}/${encodeURIComponent(r.data.documentId)}${query}`, true);
      return r;
    });
  }
  saveRef.current = save;

  // Ctrl+S / Cmd+S saves instead of saving the page.
  useEffect(() => {
    const keydown = (event: any) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key?.toLowerCase() === 's') {
        event.preventDefault();
        saveRef.current();
      }
    };
    page.addEventListener('keydown', keydown);
    return () => page.removeEventListener('keydown', keydown);
  }, []);

  const action = (segment: string, label: string, failed: string) => () =>
    void run(label, () => api('POST', `${entryPath}/actions/${segment}${query}`), failed);

  /** Unpublish: the form's unsaved changes stay in the form, still unsaved (the action does not touch the draft). */
  function unpublish() {
    const edits = dirtyRef.current ? values : null;
    void run('Unpublished', () => api('POST', `${entryPath}/actions/unpublish${query}`), 'The entry was not unpublished').then((r) => {
      if (r && edits) setValues(edits);
    });
  }

  /** Publish: with unsaved changes, the form as it stands is saved and published in one write (as Strapi's admin does); never lost. */
  function publish() {
    if (busy) return;
    if (!dirtyRef.current) return action('publish', 'Published', 'The entry was not published')();
    const local: Record<string, string> = {};
    const data = toData(fields, values, components, creating, local);
    const found = Object.entries(local).map(([field, text]): Explained => ({ field, text, summary: text }));
    if (found.length)
      return showErrors(found, `The entry was not published: ${found.length === 1 ? 'one field needs' : `${found.length} fields need`} your attention.`);
    void run('Saved and published', () => api('POST', `${entryPath}/actions/publish${query}`, { data }), 'The entry was not published');
  }

  const listHref = `/admin/content/${encodeURIComponent(ct.uid)}${query}`;

  async function remove() {
    setConfirming(false);
    setBusy(true);
    try {
      await api('DELETE', `${entryPath}${query}`);
      setBaseline(JSON.stringify(values));
      dirtyRef.current = false;
      if (ct.kind === 'collectionType') navigate(listHref);
      else setValues(blank()), setBaseline(JSON.stringify(blank())), setStatus(null), setInfo({}), setMissing(true), setMessage({ text: 'Deleted' });
    } catch (e) {
      setMessage({ text: (e as Error).message, error: true });
    } finally {
      setBusy(false);
    }
  }

  /** Copies the localized fields of another locale's version into this (new) one. */
  async function fill() {
    try {
      const r = await api('GET', `${entryPath}?locale=${encodeURIComponent(fillFrom)}`);
      setValues((old) => {
        const next = { ...old };
        for (const a of fields.filter((f) => editable(f) && f.localized && f.type !== 'password'))
          next[a.name] = toForm(a, r.data[a.name], components, mainFieldOf);
        return next;
      });
      setMessage({ text: `Filled in from ${fillFrom}` });
    } catch (e) {
      setMessage({ text: (e as Error).message, error: true });
    }
  }

  const change = (name: string) => (v: FormValue) =>
    setValues((old) => {
      const next = { ...old, [name]: v };
      const attribute = fields.find((f) => f.name === name);
      if (attribute?.type === 'uid') typedUids.current.add(name);
      // A new entry's uid follows its target field until it is typed by hand.
      for (const u of fields)
        if (creating && u.type === 'uid' && u.targetField === name && !typedUids.current.has(u.name) && typeof v === 'string') next[u.name] = slugify(v);
      return next;
    });

  if (!loaded) return h('p', { role: 'status' }, 'Loading…');
  const title = isNew ? `Create an entry: ${ct.displayName}` : ct.kind === 'singleType' ? ct.displayName : name || untitled(ct.displayName);
  const published = status === 'published' || status === 'modified';
  const otherLocales = schema.locales.filter((l) => l.code !== locale);
  const main: Action[] = [{ label: 'Save', submit: true, primary: true, disabled: busy, keyshortcuts: 'Control+S Meta+S' }];
  if (ct.draftAndPublish && !creating) main.push({ label: 'Publish', disabled: busy || (status === 'published' && !dirty), onClick: publish });
  const more: Action[] = [];
  if (ct.draftAndPublish && published) more.push({ label: 'Unpublish', disabled: busy, onClick: unpublish });
  if (ct.draftAndPublish && status === 'modified')
    more.push({ label: 'Discard changes', disabled: busy, onClick: action('discard-draft', 'Changes discarded', 'The changes were not discarded') });
  if (!creating) more.push({ label: 'Delete', danger: true, disabled: busy, onClick: () => setConfirming(true) });
  const slotContext: PanelContext = {
    schema,
    ct,
    components,
    documentId: creating ? null : (info.documentId ?? null),
    locale,
    status,
    previewUrl: info.previewUrl ?? null,
    dirty,
    reload: () => void read(),
  };
  return h(EditorContext.Provider, { value: editor }, [
    h('div', null, [
      ct.kind === 'collectionType' ? h('p', { class: 'back' }, h(Link, { href: listHref }, `← ${ct.displayName}`)) : null,
      h('div', { class: 'title-row' }, [
        h('div', { class: 'title-main' }, [
          h('h1', null, title),
          status ? h('span', { class: `badge badge-${status}`, 'data-testid': 'status' }, BADGE_TEXT[status] ?? status) : null,
        ]),
        locale && !isNew
          ? h('div', { class: 'field inline' }, [
              h('label', { for: 'edit-locale' }, 'Locale'),
              h(
                'select',
                {
                  id: 'edit-locale',
                  value: locale,
                  onChange: (e: any) =>
                    navigate(`/admin/content/${encodeURIComponent(ct.uid)}/${encodeURIComponent(documentId!)}?locale=${encodeURIComponent(e.target.value)}`),
                },
                schema.locales.map((l) => h('option', { value: l.code }, localeLabel(l))),
              ),
            ])
          : locale
            ? h('span', { class: 'muted' }, `Locale: ${locale}`)
            : null,
      ]),
      h(
        'div',
        { role: 'status', 'aria-live': 'polite', class: message && !message.error ? 'notice' : 'visually-hidden' },
        message && !message.error ? message.text : '',
      ),
      message?.error && !summary.length ? h('p', { class: 'error', role: 'alert' }, message.text) : null,
      summary.length
        ? h('div', { id: 'error-summary', class: 'summary', role: 'alert', tabIndex: -1, 'aria-labelledby': 'error-summary-title' }, [
            h('h2', { id: 'error-summary-title' }, message?.text ?? ''),
            h(
              'ul',
              null,
              summary.map((x, i) =>
                h('li', { key: i }, h('a', { href: `#${fieldId(x.field)}`, onClick: (e: Event) => (e.preventDefault(), goTo(x.field)) }, x.summary)),
              ),
            ),
          ])
        : null,
      missing
        ? h('div', { class: 'notice-box' }, [
            h(
              'p',
              null,
              locale ? `This entry has no ${locale} version yet: fill in the form and save to create it.` : 'Not created yet: fill in the form and save.',
            ),
            locale && otherLocales.length
              ? h('div', { class: 'field inline' }, [
                  h('label', { for: 'fill-from' }, 'Locale to copy from'),
                  h('select', { id: 'fill-from', value: fillFrom, onChange: (e: any) => setFillFrom(e.target.value) }, [
                    h('option', { value: '' }, 'Choose a locale'),
                    ...otherLocales.map((l) => h('option', { value: l.code }, localeLabel(l))),
                  ]),
                  h('button', { type: 'button', disabled: !fillFrom, onClick: fill }, 'Fill in from another locale'),
                ])
              : null,
          ])
        : null,
      confirming
        ? h('div', { role: 'alertdialog', 'aria-label': 'Delete this entry?', class: 'confirm' }, [
            h('p', null, locale ? `Delete the ${locale} version of this entry? This cannot be undone.` : 'Delete this entry? This cannot be undone.'),
            h('button', { type: 'button', class: 'danger', onClick: remove }, 'Confirm delete'),
            h('button', { type: 'button', onClick: () => setConfirming(false) }, 'Cancel'),
          ])
        : null,
      h('div', { class: 'edit-layout' }, [
        h(
          'form',
          { id: 'edit-form', onSubmit: save, class: 'edit form-grid', noValidate: true, 'aria-label': `${ct.displayName} fields` },
          fields.map((a) =>
            h(
              'div',
              { key: a.name, class: `w-${widthOf(a)}` },
              h(Field, { attribute: a, value: values[a.name] ?? '', path: a.name, errors, siblings: values, onChange: change(a.name) }),
            ),
          ),
        ),
        h('aside', { class: 'side', 'aria-label': 'Document' }, [
          h(ActionsBox, { main, more, dirty }),
          h(InfoBox, { info, draftAndPublish: ct.draftAndPublish, status: creating ? null : status }),
          locale && !isNew && info.availableLocales
            ? h(LocalesBox, {
                schema,
                locale,
                versions: info.availableLocales,
                hrefOf: (code: string) =>
                  `${ct.kind === 'singleType' ? `/admin/content/${encodeURIComponent(ct.uid)}` : `/admin${entryPath}`}?locale=${encodeURIComponent(code)}`,
              })
            : null,
          ...PANEL_SLOTS.map((slot) => slot(slotContext)),
          h(MoreBox, { more }),
        ]),
      ]),
    ]),
  ]);
}
