/**
 * An ordered list the editor can rearrange three ways: drag an item's handle onto another
 * item, press Alt+ArrowUp / Alt+ArrowDown on the handle, or use its "Move up" / "Move down"
 * buttons. Every control is named after its item ("Move Tag A up"), and a polite live region
 * says where the item went. Relations, media, repeatable components and dynamic zones use it.
 */
import { h } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Link } from '../router';

/** The list and index a drag started from (a drop target cannot read dataTransfer during dragover). */
let dragging: { list: string; index: number } | null = null;

interface Props<T> {
  id: string;
  label: string;
  items: T[];
  keyOf: (item: T) => string;
  nameOf: (item: T, index: number) => string;
  /** Where the item opens (a relation's entry): its name becomes a link there. */
  linkOf?: (item: T) => string;
  render: (item: T, index: number) => any;
  onChange: (items: T[]) => void;
  className?: string;
  /** Whether each item has a Remove button (default true). */
  removable?: boolean;
}

export function move<T>(items: T[], from: number, to: number): T[] {
  const next = items.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

export function SortableList<T>(props: Props<T>) {
  const { id, items } = props;
  const [said, setSaid] = useState('');
  const focusKey = useRef<string | null>(null);

  // After a keyboard move the item's handle keeps the focus (its DOM node moved). A layout
  // effect: it runs as the move renders, not a frame later, when the user (or a test) may
  // already be typing in another field whose focus it would take.
  useLayoutEffect(() => {
    if (!focusKey.current) return;
    const el = (globalThis as any).document?.getElementById(`${id}-${focusKey.current}-handle`);
    focusKey.current = null;
    el?.focus();
  });

  const moveTo = (from: number, to: number, viaKeyboard: boolean) => {
    if (to < 0 || to >= items.length || from === to) return;
    const item = items[from]!;
    if (viaKeyboard) focusKey.current = props.keyOf(item);
    setSaid(`${props.nameOf(item, from)} moved to position ${to + 1} of ${items.length}`);
    props.onChange(move(items, from, to));
  };

  const rows = items.map((item, index) => {
    const key = props.keyOf(item);
    const name = props.nameOf(item, index);
    return h(
      'li',
      {
        key,
        class: 'sortable-item',
        'data-key': key,
        onDragOver: (e: any) => {
          if (dragging?.list === id) e.preventDefault();
        },
        onDrop: (e: any) => {
          if (dragging?.list !== id) return;
          e.preventDefault();
          const from = dragging.index;
          dragging = null;
          moveTo(from, index, false);
        },
      },
      [
        h('div', { class: 'sortable-bar' }, [
          h(
            'button',
            {
              type: 'button',
              id: `${id}-${key}-handle`,
              class: 'handle',
              draggable: true,
              'aria-label': `Reorder ${name} (Alt+Arrow keys)`,
              title: 'Drag, or press Alt+ArrowUp / Alt+ArrowDown',
              onDragStart: (e: any) => {
                dragging = { list: id, index };
                e.dataTransfer?.setData('text/plain', key);
                if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
              },
              onDragEnd: () => (dragging = null),
              onKeyDown: (e: any) => {
                if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
                e.preventDefault();
                moveTo(index, e.key === 'ArrowUp' ? index - 1 : index + 1, true);
              },
            },
            '⠿',
          ),
          h('span', { class: 'sortable-name' }, props.linkOf ? h(Link, { href: props.linkOf(item) }, name) : name),
          h(
            'button',
            { type: 'button', class: 'small', disabled: index === 0, 'aria-label': `Move ${name} up`, onClick: () => moveTo(index, index - 1, false) },
            '↑',
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'small',
              disabled: index === items.length - 1,
              'aria-label': `Move ${name} down`,
              onClick: () => moveTo(index, index + 1, false),
            },
            '↓',
          ),
          props.removable === false
            ? null
            : h(
                'button',
                { type: 'button', class: 'small', 'aria-label': `Remove ${name}`, onClick: () => props.onChange(items.filter((_, i) => i !== index)) },
                'Remove',
              ),
        ]),
        props.render(item, index),
      ],
    );
  });
  return h('div', null, [
    h('ul', { class: `sortable ${props.className ?? ''}`, 'aria-label': props.label }, rows),
    h('div', { role: 'status', 'aria-live': 'polite', class: 'visually-hidden' }, said),
  ]);
}
