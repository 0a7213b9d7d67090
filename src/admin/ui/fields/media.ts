/**
 * A media field: its files (multiple: in order, reorderable), upload by dropping files on
 * the field or through a file input, and a dialog to pick from the library. Uploads are
 * stored at once (POST /admin/api/upload) but join the entry only when it is saved.
 */
import { h } from 'preact';
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
  const response = await fetch('/admin/api/upload', { method: 'POST', body: form, credentials: 'same-origin', headers: { 'x-folio-csrf': currentCsrfToken() ?? '' } });
  const json = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, json?.error?.message ?? response.statusText, json?.error?.details ?? {});
  return json.data as FileRef[];
}

/** The library in a dialog: search by name, pick one file (or several, one after another). */
export function MediaPicker(props: { title: string; onPick: (file: FileRef) => void; onClose: () => void }) {
  const [q, setQ] = useState('');
  const [files, setFiles] = useState<FileRef[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const search = useRef<any>(null);
  useEffect(() => search.current?.focus(), []);
  useEffect(() => {
    api('GET', `/media-picker${q ? `?q=${encodeURIComponent(q)}` : ''}`).then((r) => setFiles(r.data), (e) => setError((e as Error).message));
  }, [q]);
  return h(
    'div',
    { class: 'dialog-backdrop' },
    h('div', { role: 'dialog', 'aria-modal': 'true', 'aria-label': props.title, class: 'dialog', onKeyDown: (e: any) => e.key === 'Escape' && props.onClose() }, [
      h('h2', null, props.title),
      h('input', { ref: search, type: 'search', 'aria-label': 'Search the library', placeholder: 'Search by name…', value: q, onInput: (e: any) => setQ(e.target.value) }),
      error ? h('p', { class: 'error', role: 'alert' }, error) : null,
      !files
        ? h('p', { role: 'status' }, 'Loading…')
        : files.length === 0
          ? h('p', null, 'No files.')
          : h('ul', { class: 'media-grid' }, files.map((f) => h('li', { key: f.id }, h('button', { type: 'button', 'aria-label': `Pick ${f.name}`, onClick: () => props.onPick(f) }, h(FilePreview, { file: f }))))),
      h('div', { class: 'actions' }, h('button', { type: 'button', onClick: props.onClose }, 'Close')),
    ]),
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
        ? h(SortableList<FileRef>, { id, label: `${a.name}: files`, items: files, keyOf: (f) => String(f.id), nameOf: (f) => f.name, render: (f) => h(FilePreview, { file: f }), onChange: props.onChange, className: 'media' })
        : h('p', { class: 'media-one' }, [h(FilePreview, { file: files[0]! }), ' ', h('button', { type: 'button', class: 'small', 'aria-label': `Remove ${files[0]!.name}`, onClick: () => props.onChange([]) }, 'Remove')]),
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
          'aria-label': `Upload ${a.multiple ? 'files' : 'a file'} to ${a.name}`,
          disabled: busy,
          onChange: (e: any) => {
            void upload([...(e.target.files ?? [])]);
            e.target.value = '';
          },
        }),
        h('button', { type: 'button', onClick: () => setPicking(true) }, `Choose from the library for ${a.name}`),
      ],
    ),
    busy ? h('p', { role: 'status' }, 'Uploading…') : null,
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    picking
      ? h(MediaPicker, {
          title: `Media library: choose for ${a.name}`,
          onPick: (f) => {
            add([f]);
            if (!a.multiple) setPicking(false);
          },
          onClose: () => setPicking(false),
        })
      : null,
  ]);
}
