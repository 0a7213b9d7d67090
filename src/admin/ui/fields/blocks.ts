/**
 * The blocks (rich text) editor: a list of blocks, each with a type (paragraph, heading 1–6,
 * bulleted or numbered list, quote, code, image) and its text in the small inline markup of
 * blocks-codec.ts (a list: one item per line, two spaces to nest). No toolbar, no framework:
 * a few KB, and whatever it did not change is saved back exactly as it was read.
 */
import { h } from 'preact';
import { labelOf } from '../words';
import { useState } from 'preact/hooks';
import { FieldGroup, fieldId, type FieldProps } from './field';
import { FilePreview, MediaPicker } from './media';
import { newBlock, type BlockItem } from './blocks-codec';
import { SortableList } from './sortable';
import type { FileRef } from './values';

const TYPES: [string, string][] = [
  ['paragraph', 'Paragraph'],
  ['heading-1', 'Heading 1'],
  ['heading-2', 'Heading 2'],
  ['heading-3', 'Heading 3'],
  ['heading-4', 'Heading 4'],
  ['heading-5', 'Heading 5'],
  ['heading-6', 'Heading 6'],
  ['list-unordered', 'Bulleted list'],
  ['list-ordered', 'Numbered list'],
  ['quote', 'Quote'],
  ['code', 'Code'],
  ['image', 'Image'],
];

const typeOf = (b: BlockItem) => (b.kind === 'heading' ? `heading-${b.level ?? 2}` : b.kind === 'list' ? `list-${b.format ?? 'unordered'}` : b.kind);

function retype(b: BlockItem, type: string): BlockItem {
  const [kind, variant] = type.split('-') as [BlockItem['kind'], string | undefined];
  const next: BlockItem = { ...b, kind };
  delete next.level;
  delete next.format;
  if (kind === 'heading') next.level = Number(variant);
  if (kind === 'list') next.format = variant === 'ordered' ? 'ordered' : 'unordered';
  return next;
}

const image = (f: FileRef) => {
  const { id, documentId, name, alternativeText, caption, width, height, formats, hash, ext, mime, size, url, previewUrl, provider, provider_metadata, createdAt, updatedAt } = f as Record<string, any>;
  return { id, documentId, name, alternativeText, caption, width, height, formats, hash, ext, mime, size, url, previewUrl, provider, provider_metadata, createdAt, updatedAt };
};

export function BlocksField(props: FieldProps) {
  const a = props.attribute;
  const items = props.value as BlockItem[];
  const [picking, setPicking] = useState<string | null>(null);
  const id = fieldId(props.path);
  const update = (key: string, change: (b: BlockItem) => BlockItem) => props.onChange(items.map((b) => (b.key === key ? change(b) : b)));
  const nameOf = (_: BlockItem, i: number) => `${labelOf(a)} block ${i + 1}`;

  const render = (b: BlockItem, i: number) => {
    const name = nameOf(b, i);
    if (b.kind === 'other') return h('p', { class: 'muted' }, 'A block of a type this editor does not know: kept as it is.');
    return h('div', { class: 'block' }, [
      h(
        'select',
        { 'aria-label': `Type of ${name}`, value: typeOf(b), onChange: (e: any) => update(b.key, (x) => retype(x, e.target.value)) },
        TYPES.map(([value, label]) => h('option', { value }, label)),
      ),
      b.kind === 'code'
        ? h('input', { type: 'text', class: 'language', 'aria-label': `Language of ${name}`, placeholder: 'language', value: b.language ?? '', onInput: (e: any) => update(b.key, (x) => ({ ...x, language: e.target.value || undefined })) })
        : null,
      b.kind === 'image'
        ? h('div', { class: 'block-image' }, [
            b.image ? h(FilePreview, { file: b.image as FileRef }) : h('span', { class: 'muted' }, 'No image chosen.'),
            h('button', { type: 'button', class: 'small', onClick: () => setPicking(b.key) }, `Choose the image of ${name}`),
          ])
        : null,
      h('textarea', {
        'aria-label': b.kind === 'image' ? `Alternative text of ${name}` : `Text of ${name}`,
        class: b.kind === 'code' ? 'code' : undefined,
        rows: b.kind === 'image' ? 1 : b.kind === 'paragraph' || b.kind === 'quote' ? 3 : b.kind === 'heading' ? 1 : 4,
        value: b.text,
        onInput: (e: any) => update(b.key, (x) => ({ ...x, text: e.target.value })),
      }),
    ]);
  };

  return h(FieldGroup, { ...props }, [
    h('p', { class: 'muted hint', id: `${id}-hint` }, 'Inline: **bold**, *italic*, __underline__, ~~strikethrough~~, `code`, [link](https://…). Lists: one item per line.'),
    items.length
      ? h(SortableList<BlockItem>, { id, label: `${labelOf(a)}: blocks`, items, keyOf: (b) => b.key, nameOf, render, onChange: props.onChange, className: 'blocks' })
      : h('p', { class: 'muted' }, 'No blocks.'),
    h('button', { type: 'button', onClick: () => props.onChange([...items, newBlock('paragraph')]) }, `Add a block to ${labelOf(a)}`),
    picking
      ? h(MediaPicker, {
          title: 'Media library: choose an image',
          allowedTypes: ['images'],
          onPick: (f) => {
            update(picking, (x) => ({ ...x, image: image(f), text: x.text || String(f.alternativeText ?? '') }));
            setPicking(null);
          },
          onClose: () => setPicking(null),
        })
      : null,
  ]);
}
