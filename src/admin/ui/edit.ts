/**
 * The edit view of one entry (or a new one), generated from the schema: a control per
 * attribute, Save (the draft), and Publish / Unpublish / Discard draft as draft & publish
 * and the entry's state allow. The API's validation errors land at their fields.
 */
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { AdminContentType } from '../schema';
import { api, ApiError, uidPath } from './api';
import { browser } from './dom';
import { editable, FieldControl, fromInput, toInput } from './fields';
import { BADGE_TEXT } from './list';
import type { Schema } from './main';
import { Link, navigate } from './router';

type Values = Record<string, string | boolean>;

export function EditView(props: { schema: Schema; ct: AdminContentType; documentId: string | null; locale?: string }) {
  const { ct, documentId } = props;
  const locale = ct.localized ? (props.locale ?? props.schema.defaultLocale) : undefined;
  const isNew = documentId === null;
  const fields = ct.attributes;
  const blank = () => Object.fromEntries(fields.filter(editable).map((a) => [a.name, toInput(a, null)])) as Values;
  const [values, setValues] = useState<Values>(blank);
  const [status, setStatus] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(isNew);
  const [missing, setMissing] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const query = locale ? `?locale=${encodeURIComponent(locale)}` : '';
  const path = `/content/${uidPath(ct.uid)}`;

  const show = (doc: Record<string, unknown>, badge: string | null) => {
    setValues(Object.fromEntries(fields.filter(editable).map((a) => [a.name, toInput(a, doc[a.name])])));
    setStatus(badge);
    setLoaded(true);
  };

  useEffect(() => {
    if (isNew) return;
    api('GET', `${path}/${encodeURIComponent(documentId!)}${query}`).then(
      (r) => show(r.data, r.meta.status),
      (e) => (e instanceof ApiError && e.status === 404 ? (setMissing(true), setLoaded(true)) : setMessage({ text: (e as Error).message, error: true })),
    );
  }, []);

  /** Runs a write; a validation error's paths become field messages, anything else a banner. */
  async function run(label: string, write: () => Promise<any>) {
    setBusy(true);
    setMessage(null);
    try {
      const r = await write();
      setErrors({});
      if (r) show(r.data, r.meta.status);
      setMessage({ text: label });
      return r;
    } catch (e) {
      const list = e instanceof ApiError ? (e.details.errors ?? []) : [];
      const byField: Record<string, string> = {};
      for (const err of list) {
        const name = String(err.path?.[0] ?? '');
        if (name && !byField[name]) byField[name] = err.message;
      }
      setErrors(byField);
      setMessage({ text: Object.keys(byField).length ? `${(e as Error).message}: see the fields marked below.` : (e as Error).message, error: true });
      // Focus the first field in error, so a keyboard or screen-reader user lands on it.
      const first = fields.find((a) => byField[a.name]);
      if (first) setTimeout(() => browser.document.getElementById(`field-${first.name}`)?.focus(), 0);
    } finally {
      setBusy(false);
    }
  }

  function save(event: Event) {
    event.preventDefault();
    const data: Record<string, unknown> = {};
    const local: Record<string, string> = {};
    for (const a of fields.filter(editable)) {
      const converted = fromInput(a, values[a.name]!);
      if ('error' in converted) local[a.name] = converted.error;
      else if (!(isNew && (converted.value === null || converted.value === ''))) data[a.name] = converted.value === '' ? null : converted.value;
    }
    if (Object.keys(local).length) {
      setErrors(local);
      setMessage({ text: 'Some fields are not valid: see the fields marked below.', error: true });
      return;
    }
    void run('Saved', async () => {
      if (!isNew) return api('PUT', `${path}/${encodeURIComponent(documentId!)}${query}`, { data });
      const r = await api('POST', `${path}${query}`, { data });
      navigate(`/admin/content/${encodeURIComponent(ct.uid)}/${encodeURIComponent(r.data.documentId)}${query}`, true);
      return r;
    });
  }

  const action = (segment: string, label: string) => () =>
    void run(label, () => api('POST', `${path}/${encodeURIComponent(documentId!)}/actions/${segment}${query}`));

  const listHref = `/admin/content/${encodeURIComponent(ct.uid)}${query}`;
  const title = isNew ? `Create an entry: ${ct.displayName}` : ct.displayName;
  if (!loaded) return h('p', { role: 'status' }, 'Loading…');
  if (missing) {
    return h('div', null, [
      h('h1', null, ct.displayName),
      h('p', null, ct.kind === 'singleType' ? 'Not created yet in this locale: fill in the form and save.' : 'This entry does not exist in this locale.'),
      ct.kind === 'singleType' ? h('button', { type: 'button', onClick: () => setMissing(false) }, 'Create it') : h(Link, { href: listHref }, 'Back to the list'),
    ]);
  }
  const published = status === 'published' || status === 'modified';
  return h('div', null, [
    ct.kind === 'collectionType' ? h('p', null, h(Link, { href: listHref }, `← ${ct.displayName}`)) : null,
    h('div', { class: 'title-row' }, [
      h('h1', null, title),
      status ? h('span', { class: `badge badge-${status}`, 'data-testid': 'status' }, BADGE_TEXT[status] ?? status) : null,
      locale ? h('span', { class: 'muted' }, `Locale: ${locale}`) : null,
    ]),
    h('div', { role: 'status', 'aria-live': 'polite', class: message && !message.error ? 'notice' : 'visually-hidden' }, message && !message.error ? message.text : ''),
    message?.error ? h('p', { class: 'error', role: 'alert' }, message.text) : null,
    h('form', { onSubmit: save, class: 'edit', noValidate: true }, [
      ...fields.map((a) =>
        h(FieldControl, {
          key: a.name,
          attribute: a,
          value: values[a.name] ?? '',
          error: errors[a.name],
          onChange: (v) => setValues((old) => ({ ...old, [a.name]: v })),
        }),
      ),
      h('div', { class: 'actions' }, [
        h('button', { type: 'submit', class: 'primary', disabled: busy }, 'Save'),
        ct.draftAndPublish && !isNew ? h('button', { type: 'button', disabled: busy || status === 'published', onClick: action('publish', 'Published') }, 'Publish') : null,
        ct.draftAndPublish && published ? h('button', { type: 'button', disabled: busy, onClick: action('unpublish', 'Unpublished') }, 'Unpublish') : null,
        ct.draftAndPublish && status === 'modified' ? h('button', { type: 'button', disabled: busy, onClick: action('discard-draft', 'Draft discarded') }, 'Discard draft') : null,
      ]),
    ]),
  ]);
}
