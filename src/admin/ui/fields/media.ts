/**
 * A media field: its files (multiple: in order, reorderable), upload by dropping files on
 * the field or through a file input, and a dialog to pick from the library. Uploads are
 * stored at once (POST /admin/api/upload) but join the entry only when it is saved.
 */
import { h } from 'preact';
import { labelOf } from '../words';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, currentCsrfToken } from '../api';
import { FieldGroup, fieldId, type FieldProps } from './field';
import { SortableList } from './sortable';
import type { FileRef } from './values';

const thumb = (f: FileRef) => (f.mime?.startsWith('image/') ? (f.formats?.thumbnail?.url ?? f.url) : null);

export function FilePreview(props: { file: FileRef }) {
  const src = thumb(props.file);
  return h('span', { class: 'file' }, [
    src ? h('img', { src, alt: props.file.alternativeText || '', width: 64, height: 48 }) : h('span', { class: 'file-icon', 'aria-hidden': 'true' }, '📄'),
    h('span', null, props.file.name),
  ]);
}

export async function uploadFiles(files: File[]): Promise<FileRef[]> {
  const form = new FormData();
  for (const f of files) form.append('files', f, f.name);
  const response = await fetch('/admin/api/upload', {
    method: 'POST',
    body: form,
    credentials: 'same-origin',
    headers: { 'x-folio-csrf': currentCsrfToken() ?? '' },
  });
  const json = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, json?.error?.message ?? response.statusText, json?.error?.details ?? {});
  return json.data as FileRef[];
}

/** A media attribute's `allowedTypes` (Strapi's names) as the listing's `type` values. */
const KIND_OF: Record<string, string> = { images: 'image', videos: 'video', audios: 'audio', files: 'file' };
const KIND_LABEL: Record<string, string> = { image: 'Images', video: 'Videos', audio: 'Audio', file: 'Other files' };

/**
 * The library in a dialog, on the Media Library's own listing (GET /admin/api/files): 24 a
 * page with Previous / Next, search by name, a type filter limited to the field's allowed
 * types; pick one file (or several, one after another). Only the page shown is loaded.
 */
export function MediaPicker(props: { title: string; allowedTypes?: string[]; onPick: (file: FileRef) => void; onClose: () => void }) {
  const allowed = (props.allowedTypes ?? []).map((t) => KIND_OF[t]).filter((k): k is string => !!k);
  const kinds = allowed.length ? allowed : Object.keys(KIND_LABEL);
  const all = allowed.length ? allowed.join(',') : '';
  const [q, setQ] = useState('');
  const [type, setType] = useState(all);
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ files: FileRef[]; hasMore: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const search = useRef<any>(null);
  // Answers can arrive out of order while someone types: only the latest request's is shown.
  const latest = useRef(0);
  useEffect(() => search.current?.focus(), []);
  useEffect(() => {
    const mine = ++latest.current;
    setError(null);
    api('GET', `/files?${new URLSearchParams({ page: String(page), q, type })}`).then(
      (r) => mine === latest.current && setResult({ files: r.data, hasMore: r.meta.hasMore }),
      (e) => mine === latest.current && setError((e as Error).message),
    );
  }, [q, type, page]);
  const files = result?.files;
  return h(
    'div',
    { class: 'dialog-backdrop' },
    h(
      'div',
      { role: 'dialog', 'aria-modal': 'true', 'aria-label': props.title, class: 'dialog', onKeyDown: (e: any) => e.key === 'Escape' && props.onClose() },
      [
        h('h2', null, props.title),
        h('div', { class: 'toolbar' }, [
          h('input', {
            ref: search,
            type: 'search',
            'aria-label': 'Search the library',
            placeholder: 'Search by name…',
            value: q,
            onInput: (e: any) => (setQ(e.target.value), setPage(1)),
          }),
          kinds.length > 1
            ? h('select', { 'aria-label': 'Type of file', value: type, onChange: (e: any) => (setType(e.target.value), setPage(1)) }, [
                h('option', { value: all }, allowed.length ? 'All allowed types' : 'All types'),
                ...kinds.map((k) => h('option', { value: k }, KIND_LABEL[k])),
              ])
            : null,
        ]),
        error ? h('p', { class: 'error', role: 'alert' }, error) : null,
        !files
          ? h('p', { role: 'status' }, 'Loading…')
          : files.length === 0
            ? h('p', null, 'No files.')
            : h(
                'ul',
                { class: 'media-grid', 'aria-label': 'Files' },
                files.map((f) =>
                  h(
                    'li',
                    { key: f.id },
                    h('button', { type: 'button', 'aria-label': `Pick ${f.name}`, onClick: () => props.onPick(f) }, h(FilePreview, { file: f })),
                  ),
                ),
              ),
        result && (page > 1 || result.hasMore)
          ? h('nav', { 'aria-label': 'Library pages', class: 'pager' }, [
              h('button', { type: 'button', disabled: page <= 1, onClick: () => setPage(page - 1) }, 'Previous page'),
              h('span', { 'aria-live': 'polite' }, `Page ${page}`),
              h('button', { type: 'button', disabled: !result.hasMore, onClick: () => setPage(page + 1) }, 'Next page'),
            ])
          : null,
        h('div', { class: 'actions' }, h('button', { type: 'button', onClick: props.onClose }, 'Close')),
      ],
    ),
  );
}

export function MediaField(props: FieldProps) {
  const a = props.attribute;
  const files = props.value as FileRef[];
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [over, setOver] = useState(false);
  const id = fieldId(props.path);
  const add = (more: FileRef[]) => props.onChange(a.multiple ? [...files, ...more.filter((m) => !files.some((f) => f.id === m.id))] : more.slice(-1));

  async function upload(list: File[]) {
    if (!list.length) return;
    setBusy(true);
    setError(null);
    try {
      add(await uploadFiles(a.multiple ? list : list.slice(0, 1)));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return h(FieldGroup, { ...props }, [
    files.length === 0
      ? h('p', { class: 'muted' }, 'No file.')
      : a.multiple
        ? h(SortableList<FileRef>, {
            id,
            label: `${labelOf(a)}: files`,
            items: files,
            keyOf: (f) => String(f.id),
            nameOf: (f) => f.name,
            render: (f) => h(FilePreview, { file: f }),
            onChange: props.onChange,
            className: 'media',
          })
        : h('p', { class: 'media-one' }, [
            h(FilePreview, { file: files[0]! }),
            ' ',
            h('button', { type: 'button', class: 'small', 'aria-label': `Remove ${files[0]!.name}`, onClick: () => props.onChange([]) }, 'Remove'),
          ]),
    h(
      'div',
      {
        class: `dropzone${over ? ' over' : ''}`,
        'data-testid': `${id}-dropzone`,
        onDragOver: (e: any) => {
          if (![...(e.dataTransfer?.types ?? [])].includes('Files')) return;
          e.preventDefault();
          setOver(true);
        },
        onDragLeave: () => setOver(false),
        onDrop: (e: any) => {
          if (!e.dataTransfer?.files?.length) return;
          e.preventDefault();
          setOver(false);
          void upload([...e.dataTransfer.files]);
        },
      },
      [
        h('span', null, a.multiple ? 'Drop files here, or ' : 'Drop a file here, or '),
        h('input', {
          id,
          type: 'file',
          multiple: !!a.multiple,
          'aria-label': `Upload ${a.multiple ? 'files' : 'a file'} to ${labelOf(a)}`,
          disabled: busy,
          onChange: (e: any) => {
            void upload([...(e.target.files ?? [])]);
            e.target.value = '';
          },
        }),
        h('button', { type: 'button', onClick: () => setPicking(true) }, `Choose from the library for ${labelOf(a)}`),
      ],
    ),
    busy ? h('p', { role: 'status' }, 'Uploading…') : null,
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    picking
      ? h(MediaPicker, {
          title: `Media library: choose for ${labelOf(a)}`,
          allowedTypes: a.allowedTypes,
          onPick: (f) => {
            add([f]);
            if (!a.multiple) setPicking(false);
          },
          onClose: () => setPicking(false),
        })
      : null,
  ]);
}
