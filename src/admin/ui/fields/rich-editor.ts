/**
 * The rich-text (`blocks`) editor: a visual, contenteditable editor on ProseMirror (a chunk of
 * the app's script of its own, loaded by blocks.ts the first time a form shows rich text;
 * nothing comes from elsewhere), reading and writing Strapi's blocks JSON through
 * blocks-codec.ts (blocks left untouched are written back as they were read).
 *
 * A toolbar (the ARIA toolbar pattern: one Tab stop, arrow keys between its controls) whose
 * controls are named: a text style (paragraph, headings 1–6, quote, code block), Bold, Italic,
 * Underline, Strikethrough, Code, Link, Bulleted list, Numbered list, Image (from the Media
 * Library), Undo, Redo. Shortcuts: Ctrl/Cmd+B, I, U, Shift+S (strikethrough), E (code), K (link),
 * Z / Shift+Z (undo, redo); Tab / Shift+Tab indent and outdent a list item (elsewhere Tab leaves
 * the editor); typing `# `, `> `, `- `, `1. ` or ``` ``` ``` at the start of a line changes it.
 */
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { baseKeymap, exitCode, setBlockType, toggleMark } from 'prosemirror-commands';
import { history, redo, undo } from 'prosemirror-history';
import { inputRules, textblockTypeInputRule, wrappingInputRule } from 'prosemirror-inputrules';
import { keymap } from 'prosemirror-keymap';
import type { MarkType } from 'prosemirror-model';
import { EditorState, type Command, type Transaction } from 'prosemirror-state';
import { liftListItem, sinkListItem, splitListItem, wrapInList } from 'prosemirror-schema-list';
import { EditorView } from 'prosemirror-view';
import { labelOf } from '../words';
import { blocksSchema as s, readBlocks, writeBlocks, type Originals } from './blocks-codec';
import { FieldGroup, fieldId, type FieldProps } from './field';
import { MediaPicker } from './media';
import type { FileRef } from './values';

/** The file fields Strapi's editor keeps in an image block. */
const image = (f: FileRef) => {
  const {
    id,
    documentId,
    name,
    alternativeText,
    caption,
    width,
    height,
    formats,
    hash,
    ext,
    mime,
    size,
    url,
    previewUrl,
    provider,
    provider_metadata,
    createdAt,
    updatedAt,
  } = f as Record<string, any>;
  return {
    id,
    documentId,
    name,
    alternativeText,
    caption,
    width,
    height,
    formats,
    hash,
    ext,
    mime,
    size,
    url,
    previewUrl,
    provider,
    provider_metadata,
    createdAt,
    updatedAt,
  };
};

/** Toolbar icons: inline SVG (no font or file to load), drawn with the text colour. */
const icon = (...d: string[]) =>
  h(
    'svg',
    {
      viewBox: '0 0 24 24',
      width: 18,
      height: 18,
      'aria-hidden': 'true',
      focusable: 'false',
      fill: 'none',
      stroke: 'currentColor',
      'stroke-width': 2,
      'stroke-linecap': 'round',
      'stroke-linejoin': 'round',
    },
    d.map((path) => h('path', { d: path })),
  );
const ICONS = {
  link: () => icon('M10 13a5 5 0 0 0 7.07 0l3-3a5 5 0 0 0-7.07-7.07l-1.5 1.5', 'M14 11a5 5 0 0 0-7.07 0l-3 3a5 5 0 0 0 7.07 7.07l1.5-1.5'),
  bullets: () => icon('M9 6h12M9 12h12M9 18h12', 'M4 6h.01M4 12h.01M4 18h.01'),
  numbers: () => icon('M10 6h11M10 12h11M10 18h11', 'M4 4l1-1v5', 'M3.5 13.5a1.2 1.2 0 0 1 2.3.5L3.5 17h2.5'),
  image: () => icon('M4 5h16v14H4z', 'M4 16l5-5 4 4 2-2 5 5', 'M15 9h.01'),
  undo: () => icon('M9 14 4 9l5-5', 'M4 9h11a5 5 0 0 1 0 10h-3'),
  redo: () => icon('M15 14l5-5-5-5', 'M20 9H9a5 5 0 0 0 0 10h3'),
};

const STYLES: [string, string][] = [
  ['paragraph', 'Paragraph'],
  ['heading-1', 'Heading 1'],
  ['heading-2', 'Heading 2'],
  ['heading-3', 'Heading 3'],
  ['heading-4', 'Heading 4'],
  ['heading-5', 'Heading 5'],
  ['heading-6', 'Heading 6'],
  ['quote', 'Quote'],
  ['code_block', 'Code block'],
];

/** The text style of the block holding the selection. */
function styleOf(state: EditorState): string {
  const parent = state.selection.$from.parent;
  if (parent.type === s.nodes.heading) return `heading-${parent.attrs.level}`;
  if (parent.type === s.nodes.quote || parent.type === s.nodes.code_block) return parent.type.name;
  return 'paragraph';
}

function setStyle(style: string): Command {
  const [name, level] = style.split('-');
  if (name === 'heading') return setBlockType(s.nodes.heading, { level: Number(level) });
  return setBlockType(s.nodes[name!]!);
}

function markActive(state: EditorState, type: MarkType): boolean {
  const { from, to, empty, $from } = state.selection;
  if (empty) return !!type.isInSet(state.storedMarks ?? $from.marks());
  return state.doc.rangeHasMark(from, to, type);
}

/** The list (and its format) the selection is in, if any. */
function listAround(state: EditorState): { format: string; pos: number } | null {
  const { $from } = state.selection;
  for (let d = $from.depth; d > 0; d--) if ($from.node(d).type === s.nodes.list) return { format: $from.node(d).attrs.format, pos: $from.before(d) };
  return null;
}

/** A list button: wraps the block in a list, lifts it out of one of the same format, or switches the format. */
function toggleList(format: 'ordered' | 'unordered'): Command {
  return (state, dispatch) => {
    const around = listAround(state);
    if (!around) return wrapInList(s.nodes.list, { format })(state, dispatch);
    if (around.format === format) return liftListItem(s.nodes.list_item)(state, dispatch);
    if (dispatch) dispatch(state.tr.setNodeMarkup(around.pos, undefined, { format }));
    return true;
  };
}

/** The extent of the link around the cursor (the run of text carrying it), or the selection itself. */
function linkRange(state: EditorState): { from: number; to: number; href: string | null } {
  const { from, to, $from, empty } = state.selection;
  const link = s.marks.link;
  if (!empty) {
    let href: string | null = null;
    state.doc.nodesBetween(from, to, (node) => {
      const m = link.isInSet(node.marks);
      if (m && href === null) href = m.attrs.href;
    });
    return { from, to, href };
  }
  const mark = link.isInSet($from.marks());
  if (!mark) return { from, to, href: null };
  const start = $from.start();
  const spans: [number, number, boolean][] = [];
  $from.parent.forEach((child, offset) => spans.push([start + offset, start + offset + child.nodeSize, !!mark.isInSet(child.marks)]));
  let i = spans.findIndex(([f, t, has]) => has && f <= $from.pos && $from.pos <= t);
  if (i < 0) return { from, to, href: mark.attrs.href };
  let j = i;
  while (i > 0 && spans[i - 1]![2]) i--;
  while (j < spans.length - 1 && spans[j + 1]![2]) j++;
  return { from: spans[i]![0], to: spans[j]![1], href: mark.attrs.href };
}

function plugins(openLink: () => void) {
  const mod: Record<string, Command> = {
    'Mod-z': undo,
    'Shift-Mod-z': redo,
    'Mod-y': redo,
    'Mod-b': toggleMark(s.marks.bold),
    'Mod-i': toggleMark(s.marks.italic),
    'Mod-u': toggleMark(s.marks.underline),
    'Mod-Shift-s': toggleMark(s.marks.strikethrough),
    'Mod-e': toggleMark(s.marks.code),
    'Mod-k': () => (openLink(), true),
    Enter: splitListItem(s.nodes.list_item),
    'Mod-Enter': exitCode,
    // A line break inside a block: Strapi's blocks hold it as "\n" in the text.
    'Shift-Enter': (state, dispatch) => (dispatch?.(state.tr.insertText('\n').scrollIntoView()), true),
    Tab: sinkListItem(s.nodes.list_item),
    'Shift-Tab': liftListItem(s.nodes.list_item),
  };
  return [
    inputRules({
      rules: [
        textblockTypeInputRule(/^(#{1,6})\s$/, s.nodes.heading, (m) => ({ level: m[1]!.length })),
        textblockTypeInputRule(/^>\s$/, s.nodes.quote),
        textblockTypeInputRule(/^```$/, s.nodes.code_block),
        wrappingInputRule(/^\s*([-+*])\s$/, s.nodes.list, { format: 'unordered' }),
        wrappingInputRule(/^(\d+)\.\s$/, s.nodes.list, { format: 'ordered' }),
      ],
    }),
    keymap(mod),
    keymap(baseKeymap),
    history(),
  ];
}

export function RichTextEditor(props: FieldProps) {
  const a = props.attribute;
  const id = fieldId(props.path);
  const label = labelOf(a);
  const mount = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const originals = useRef<Originals>(new Map());
  // The values the editor wrote itself: a render may still carry an older one of them (typing
  // outruns rendering), which is no reason to start over; any other value came from elsewhere.
  const mine = useRef(new WeakSet<object>());
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const [, setTick] = useState(0);
  const [linking, setLinking] = useState<{ href: string; had: boolean } | null>(null);
  const [picking, setPicking] = useState(false);
  const [rove, setRove] = useState(0);
  const toolbar = useRef<HTMLDivElement>(null);
  const linkInput = useRef<HTMLInputElement>(null);
  const error = props.errors[props.path];

  const openLink = () => {
    const state = view.current?.state;
    if (!state) return;
    const range = linkRange(state);
    setLinking({ href: range.href ?? '', had: range.href !== null });
  };
  const openLinkRef = useRef(openLink);
  openLinkRef.current = openLink;

  const attributes = () => ({
    id,
    role: 'textbox',
    'aria-multiline': 'true',
    'aria-labelledby': `${id}-label`,
    ...(error ? { 'aria-invalid': 'true', 'aria-describedby': `${id}-error` } : {}),
    class: 'rich-editor',
  });

  useEffect(() => {
    const { doc, originals: o } = readBlocks(props.value);
    originals.current = o;
    const v = new EditorView(mount.current!, {
      state: EditorState.create({ doc, plugins: plugins(() => openLinkRef.current()) }),
      attributes: attributes(),
      dispatchTransaction(tr: Transaction) {
        const next = v.state.apply(tr);
        v.updateState(next);
        if (tr.docChanged) {
          const blocks = writeBlocks(next.doc, originals.current);
          mine.current.add(blocks);
          onChange.current(blocks);
        }
        setTick((n) => n + 1);
      },
    });
    view.current = v;
    setTick((n) => n + 1);
    return () => {
      v.destroy();
      view.current = null;
    };
  }, []);

  // A value from elsewhere (saved and read back, filled in from another locale): start over
  // from it, unless it says what the editor already holds.
  useEffect(() => {
    const v = view.current;
    const value = props.value as object | null;
    if (!v || (value && mine.current.has(value))) return;
    if (JSON.stringify(value ?? []) === JSON.stringify(writeBlocks(v.state.doc, originals.current))) return;
    const { doc, originals: o } = readBlocks(props.value);
    originals.current = o;
    v.updateState(EditorState.create({ doc, plugins: v.state.plugins }));
    setTick((n) => n + 1);
  }, [props.value]);

  useEffect(() => view.current?.setProps({ attributes: attributes() }), [error]);
  useEffect(() => {
    if (linking) linkInput.current?.focus();
  }, [linking !== null]);

  const state = view.current?.state;
  const run = (command: Command) => {
    const v = view.current;
    if (!v) return;
    command(v.state, v.dispatch, v);
    v.focus();
  };
  const can = (command: Command) => (state ? command(state) : false);

  function applyLink(event: Event) {
    event.preventDefault();
    const v = view.current;
    if (!v || !linking) return;
    const href = linking.href.trim();
    const { from, to } = linkRange(v.state);
    let tr = v.state.tr;
    if (!href) tr = tr.removeMark(from, to, s.marks.link);
    else if (from === to) tr = tr.insertText(href, from).addMark(from, from + href.length, s.marks.link.create({ href }));
    else tr = tr.removeMark(from, to, s.marks.link).addMark(from, to, s.marks.link.create({ href }));
    v.dispatch(tr);
    setLinking(null);
    v.focus();
  }
  function removeLink() {
    const v = view.current;
    if (!v) return;
    const { from, to } = linkRange(v.state);
    v.dispatch(v.state.tr.removeMark(from, to, s.marks.link));
    setLinking(null);
    v.focus();
  }

  // The toolbar's controls, in order; only one is a Tab stop (`rove`), the arrows move between them.
  let index = 0;
  const tool = (name: string, glyph: any, command: Command, extra: { pressed?: boolean; keys?: string; cls?: string } = {}) => {
    const mine = index++;
    return h(
      'button',
      {
        type: 'button',
        class: `tool${extra.cls ? ` ${extra.cls}` : ''}`,
        'aria-label': name,
        title: extra.keys ? `${name} (${extra.keys.replace('Control', 'Ctrl')})` : name,
        'aria-keyshortcuts': extra.keys,
        'aria-pressed': extra.pressed === undefined ? undefined : extra.pressed ? 'true' : 'false',
        tabIndex: mine === rove ? 0 : -1,
        disabled: !state || !can(command),
        onFocus: () => setRove(mine),
        // The editor keeps its selection while a button is pressed.
        onMouseDown: (e: Event) => e.preventDefault(),
        onClick: () => run(command),
      },
      glyph,
    );
  };
  const styleIndex = index++;
  const lists = state ? listAround(state) : null;
  const insertImage: Command = (st) => st.selection.$from.parent.type !== s.nodes.code_block;
  const linkCommand: Command = (st) => st.selection.$from.parent.type.spec.code !== true;

  const tools = [
    h(
      'select',
      {
        'aria-label': 'Text style',
        class: 'tool-style',
        value: state ? styleOf(state) : 'paragraph',
        tabIndex: styleIndex === rove ? 0 : -1,
        onFocus: () => setRove(styleIndex),
        onChange: (e: any) => run(setStyle(e.target.value)),
      },
      STYLES.map(([value, text]) => h('option', { value }, text)),
    ),
    h('span', { class: 'tool-sep', 'aria-hidden': 'true' }),
    tool('Bold', h('b', null, 'B'), toggleMark(s.marks.bold), { pressed: !!state && markActive(state, s.marks.bold), keys: 'Control+B' }),
    tool('Italic', h('i', null, 'I'), toggleMark(s.marks.italic), { pressed: !!state && markActive(state, s.marks.italic), keys: 'Control+I' }),
    tool('Underline', h('u', null, 'U'), toggleMark(s.marks.underline), { pressed: !!state && markActive(state, s.marks.underline), keys: 'Control+U' }),
    tool('Strikethrough', h('s', null, 'S'), toggleMark(s.marks.strikethrough), {
      pressed: !!state && markActive(state, s.marks.strikethrough),
      keys: 'Control+Shift+S',
    }),
    tool('Code', h('code', null, '</>'), toggleMark(s.marks.code), { pressed: !!state && markActive(state, s.marks.code), keys: 'Control+E' }),
    tool('Link', ICONS.link(), (st, dispatch) => linkCommand(st) && (!dispatch || (openLink(), true)), {
      pressed: !!state && markActive(state, s.marks.link),
      keys: 'Control+K',
    }),
    h('span', { class: 'tool-sep', 'aria-hidden': 'true' }),
    tool('Bulleted list', ICONS.bullets(), toggleList('unordered'), { pressed: lists?.format === 'unordered' }),
    tool('Numbered list', ICONS.numbers(), toggleList('ordered'), { pressed: lists?.format === 'ordered' }),
    tool('Image', ICONS.image(), (st, dispatch) => insertImage(st) && (!dispatch || (setPicking(true), true))),
    h('span', { class: 'tool-sep', 'aria-hidden': 'true' }),
    tool('Undo', ICONS.undo(), undo, { keys: 'Control+Z' }),
    tool('Redo', ICONS.redo(), redo, { keys: 'Control+Shift+Z' }),
  ];

  function toolbarKeys(e: KeyboardEvent) {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight' && e.key !== 'Home' && e.key !== 'End') return;
    const controls = [...(toolbar.current?.querySelectorAll<HTMLElement>('button,select') ?? [])];
    const at = controls.indexOf(e.target as HTMLElement);
    if (at < 0 || ((e.target as HTMLElement).tagName === 'SELECT' && (e.key === 'Home' || e.key === 'End'))) return;
    e.preventDefault();
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? controls.length - 1 : (at + (e.key === 'ArrowRight' ? 1 : -1) + controls.length) % controls.length;
    controls[next]?.focus();
  }

  return h(FieldGroup, { ...props }, [
    h('div', { class: `rich${error ? ' invalid' : ''}` }, [
      h(
        'div',
        {
          ref: toolbar,
          role: 'toolbar',
          'aria-label': `${label} formatting`,
          'aria-controls': state ? id : undefined,
          class: 'rich-toolbar',
          onKeyDown: toolbarKeys,
        },
        tools,
      ),
      linking
        ? h(
            'form',
            {
              class: 'rich-link',
              role: 'group',
              'aria-label': 'Link',
              onSubmit: applyLink,
              onKeyDown: (e: KeyboardEvent) => e.key === 'Escape' && (e.preventDefault(), setLinking(null), view.current?.focus()),
            },
            [
              h('label', { for: `${id}-link` }, 'Link URL'),
              h('input', {
                id: `${id}-link`,
                ref: linkInput,
                type: 'url',
                value: linking.href,
                placeholder: 'https://…',
                onInput: (e: any) => setLinking({ ...linking, href: e.target.value }),
              }),
              h('button', { type: 'submit', class: 'small primary' }, 'Apply link'),
              linking.had ? h('button', { type: 'button', class: 'small', onClick: removeLink }, 'Remove link') : null,
              h('button', { type: 'button', class: 'small', onClick: () => (setLinking(null), view.current?.focus()) }, 'Cancel'),
            ],
          )
        : null,
      h('div', { ref: mount, class: 'rich-mount' }),
    ]),
    picking
      ? h(MediaPicker, {
          title: 'Media library: choose an image',
          allowedTypes: ['images'],
          onPick: (f) => {
            setPicking(false);
            const v = view.current;
            if (!v) return;
            v.dispatch(v.state.tr.replaceSelectionWith(s.nodes.image.create({ image: image(f) })).scrollIntoView());
            v.focus();
          },
          onClose: () => (setPicking(false), view.current?.focus()),
        })
      : null,
  ]);
}
