/**
 * The Media Library (Super Admins and Editors): every uploaded file in a grid or a list,
 * filtered by type and name, 24 a page; upload several files at once; a file's details
 * (its formats, name, alternative text, caption) to edit, and delete. View, filter, search
 * and page live in the URL, so every state is deep-linkable.
 */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiError, currentCsrfToken } from './api';
import { valueOf } from './dom';
import { navigate } from './router';
import { errorText, Field, NoticeLine, useAction, useLoad } from './settings/common';

interface Format {
  url: string;
  width: number | null;
  height: number | null;
  size: number;
}
interface MediaFile {
  id: number;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  url: string;
  formats: Record<string, Format> | null;
  createdAt: string;
}

const TYPES: [string, string][] = [
  ['', 'All'],
  ['image', 'Images'],
  ['video', 'Videos'],
  ['audio', 'Audio'],
  ['file', 'Files'],
];

/** Sizes in KB as the upload plugin stores them. */
const kb = (size: number) => (size >= 1024 ? `${(size / 1024).toFixed(1)} MB` : `${Math.round(size * 10) / 10} KB`);
const preview = (f: MediaFile) => (f.mime.startsWith('image/') ? (f.formats?.thumbnail?.url ?? f.url) : null);

async function uploadFiles(files: File[]): Promise<MediaFile[]> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  const csrf = currentCsrfToken();
  const response = await fetch('/admin/api/files', { method: 'POST', body: form, credentials: 'same-origin', headers: csrf ? { 'x-folio-csrf': csrf } : {} });
  const json = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, json?.error?.message ?? response.statusText, json?.error?.details ?? {});
  return json.data;
}

function Details(props: { file: MediaFile; onSaved: () => void; onClose: () => void }) {
  const f = props.file;
  const [form, setForm] = useState({ name: f.name, alternativeText: f.alternativeText ?? '', caption: f.caption ?? '' });
  const { notice, busy, run } = useAction();
  const set = (key: keyof typeof form) => (e: Event) => setForm((old) => ({ ...old, [key]: valueOf(e) }));
  const save = async (event: Event) => {
    event.preventDefault();
    if (await run('Saved', () => api('PUT', `/files/${f.id}`, form))) props.onSaved();
  };
  const remove = async () => {
    if (await run('Deleted', () => api('DELETE', `/files/${f.id}`))) props.onSaved(), props.onClose();
  };
  const img = preview(f);
  return h('section', { class: 'panel details', 'aria-label': `Details of ${f.name}` }, [
    h('div', { class: 'title-row' }, [h('h2', null, f.name), h('button', { type: 'button', onClick: props.onClose }, 'Close details')]),
    img ? h('img', { src: f.formats?.small?.url ?? f.url, alt: f.alternativeText ?? '', class: 'details-preview' }) : null,
    h('p', null, h('a', { href: f.url, target: '_blank', rel: 'noopener' }, 'Open the original')),
    h('dl', { class: 'facts' }, [
      h('dt', null, 'Type'),
      h('dd', null, f.mime),
      h('dt', null, 'Size'),
      h('dd', null, kb(f.size)),
      f.width ? [h('dt', null, 'Dimensions'), h('dd', null, `${f.width} × ${f.height}`)] : null,
    ]),
    f.formats && Object.keys(f.formats).length
      ? h('div', null, [
          h('h3', null, 'Formats'),
          h(
            'ul',
            { 'aria-label': 'Formats' },
            Object.entries(f.formats).map(([key, fm]) =>
              h('li', { key }, [h('a', { href: fm.url, target: '_blank', rel: 'noopener' }, key), ` ${fm.width ?? '?'} × ${fm.height ?? '?'}, ${kb(fm.size)}`]),
            ),
          ),
        ])
      : null,
    h('form', { onSubmit: save }, [
      h(Field, { id: 'file-name', label: 'Name' }, h('input', { id: 'file-name', required: true, value: form.name, onInput: set('name') })),
      h(Field, { id: 'file-alt', label: 'Alternative text' }, h('input', { id: 'file-alt', value: form.alternativeText, onInput: set('alternativeText') })),
      h(Field, { id: 'file-caption', label: 'Caption' }, h('input', { id: 'file-caption', value: form.caption, onInput: set('caption') })),
      h(NoticeLine, { notice }),
      h('div', { class: 'actions' }, [
        h('button', { type: 'submit', class: 'primary', disabled: busy }, 'Save'),
        h('button', { type: 'button', disabled: busy, onClick: remove }, 'Delete'),
      ]),
    ]),
  ]);
}

export function MediaLibrary(props: { url: URL }) {
  const params = props.url.searchParams;
  const type = params.get('type') ?? '';
  const q = params.get('q') ?? '';
  const view = params.get('view') === 'list' ? 'list' : 'grid';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, error, reload } = useLoad(
    () => api<{ data: MediaFile[]; meta: { hasMore: boolean } }>('GET', `/files?${new URLSearchParams({ type, q, page: String(page) })}`),
    `${type}:${q}:${page}`,
  );
  const [search, setSearch] = useState(q);
  const [open, setOpen] = useState<number | null>(null);
  const [upload, setUpload] = useState<{ text: string; error?: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  const go = (next: Record<string, string | undefined>) => {
    const merged = new URLSearchParams();
    for (const [k, v] of Object.entries({ type, q, view: view === 'list' ? 'list' : '', page: '', ...next })) if (v) merged.set(k, v);
    navigate(`/admin/media${merged.size ? `?${merged}` : ''}`);
  };

  async function onFiles(event: Event) {
    const input = event.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    if (files.length === 0) return;
    setBusy(true);
    setUpload(null);
    try {
      const made = await uploadFiles(files);
      setUpload({ text: `Uploaded ${made.length} file${made.length === 1 ? '' : 's'}` });
      reload();
    } catch (e) {
      setUpload({ text: errorText(e), error: true });
    } finally {
      input.value = '';
      setBusy(false);
    }
  }

  const current = data?.data.find((f) => f.id === open);
  const item = (f: MediaFile) => {
    const img = preview(f);
    const openIt = h('button', { type: 'button', class: 'link', 'aria-label': `Details of ${f.name}`, onClick: () => setOpen(f.id) }, f.name);
    return view === 'grid'
      ? h('li', { key: f.id, class: 'card' }, [
          img
            ? h('img', { src: img, alt: f.alternativeText ?? '', loading: 'lazy' })
            : h('div', { class: 'file-icon', 'aria-hidden': 'true' }, f.mime.split('/')[1]?.slice(0, 6) ?? 'file'),
          openIt,
          h('span', { class: 'muted' }, `${f.mime} · ${kb(f.size)}`),
        ])
      : h('tr', { key: f.id }, [
          h('td', null, img ? h('img', { src: img, alt: f.alternativeText ?? '', class: 'thumb', loading: 'lazy' }) : ''),
          h('td', null, openIt),
          h('td', { class: 'col-extra' }, f.mime),
          h('td', { class: 'col-extra' }, kb(f.size)),
          h('td', { class: 'col-extra' }, f.alternativeText ?? ''),
          h('td', { class: 'col-extra' }, new Date(f.createdAt).toLocaleString()),
        ]);
  };

  return h('div', null, [
    h('div', { class: 'title-row' }, [
      h('h1', null, 'Media Library'),
      h('div', { class: 'upload' }, [
        // The input stays focusable (keyboard), hidden behind its label styled as a button.
        h('input', { id: 'media-upload', type: 'file', multiple: true, class: 'file-input', disabled: busy, onChange: onFiles }),
        h('label', { for: 'media-upload', class: 'button primary' }, busy ? 'Uploading…' : 'Upload files'),
      ]),
    ]),
    h(NoticeLine, { notice: upload }),
    h('div', { class: 'toolbar' }, [
      h('div', { class: 'field inline' }, [
        h('label', { for: 'media-type' }, 'Type'),
        h(
          'select',
          { id: 'media-type', value: type, onChange: (e: Event) => go({ type: valueOf(e) }) },
          TYPES.map(([v, l]) => h('option', { value: v }, l)),
        ),
      ]),
      h('form', { role: 'search', onSubmit: (e: Event) => (e.preventDefault(), go({ q: search.trim() })) }, [
        h('label', { for: 'media-search' }, 'Search files'),
        h('input', { id: 'media-search', type: 'search', value: search, onInput: (e: Event) => setSearch(valueOf(e)) }),
        h('button', { type: 'submit' }, 'Search'),
      ]),
      h('div', { role: 'group', 'aria-label': 'View', class: 'segmented' }, [
        h('button', { type: 'button', 'aria-pressed': view === 'grid' ? 'true' : 'false', onClick: () => go({ view: '', page: String(page) }) }, 'Grid'),
        h('button', { type: 'button', 'aria-pressed': view === 'list' ? 'true' : 'false', onClick: () => go({ view: 'list', page: String(page) }) }, 'List'),
      ]),
    ]),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    current ? h(Details, { key: current.id, file: current, onSaved: reload, onClose: () => setOpen(null) }) : null,
    !data
      ? h('p', { role: 'status' }, 'Loading…')
      : data.data.length === 0
        ? h('p', { role: 'status' }, q || type ? 'No file matches.' : 'No file yet: upload some.')
        : view === 'grid'
          ? h('ul', { class: 'media-grid', 'aria-label': 'Files' }, data.data.map(item))
          : h('table', { class: 'entries', 'aria-label': 'Files' }, [
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  ['Preview', 'Name', 'Type', 'Size', 'Alternative text', 'Uploaded'].map((c, i) =>
                    h('th', { scope: 'col', class: i > 1 ? 'col-extra' : undefined }, c),
                  ),
                ),
              ),
              h('tbody', null, data.data.map(item)),
            ]),
    data && (page > 1 || data.meta.hasMore)
      ? h('nav', { 'aria-label': 'Pagination', class: 'pager' }, [
          h('button', { type: 'button', disabled: page <= 1, onClick: () => go({ page: String(page - 1) }) }, 'Previous page'),
          h('span', null, `Page ${page}`),
          h('button', { type: 'button', disabled: !data.meta.hasMore, onClick: () => go({ page: String(page + 1) }) }, 'Next page'),
        ])
      : null,
  ]);
}
