/**
 * Strapi's blocks JSON ⇄ the rich-text editor's ProseMirror document, without a DOM (the
 * unit tests run it in Bun).
 *
 * The schema mirrors Strapi's nodes: paragraph, heading (level 1–6), quote (inline content, as
 * Strapi's), code_block (Strapi's `code`: plain text, a language), list (ordered or unordered; ProseMirror's shape,
 * list_item > paragraph + nested lists, which Strapi flattens as a nested `list` after its
 * item), image (a Media Library file), and `unknown` for any node this editor does not know,
 * carried as is. Marks: bold, italic, underline, strikethrough, code; links are a mark too.
 *
 * Lossless: every top-level block is remembered with what the editor writes for it unchanged;
 * when the editor's block still writes the same, the very node that was read is written back
 * (its key order, attributes the editor does not know, `indentLevel`s…), so opening and saving
 * an entry never alters its blocks. Blocks the editor changed are written as Strapi writes them.
 */
import { Schema, type Mark, type Node as PMNode } from 'prosemirror-model';

type Json = Record<string, any>;

const MARK_NAMES = ['bold', 'italic', 'underline', 'strikethrough', 'code'] as const;

export const blocksSchema = new Schema({
  nodes: {
    doc: { content: 'block+' },
    paragraph: { group: 'block', content: 'inline*', parseDOM: [{ tag: 'p' }], toDOM: () => ['p', 0] },
    heading: {
      group: 'block',
      content: 'inline*',
      attrs: { level: { default: 2 } },
      defining: true,
      parseDOM: [1, 2, 3, 4, 5, 6].map((level) => ({ tag: `h${level}`, attrs: { level } })),
      toDOM: (node) => [`h${node.attrs.level}`, 0],
    },
    quote: { group: 'block', content: 'inline*', defining: true, parseDOM: [{ tag: 'blockquote' }], toDOM: () => ['blockquote', 0] },
    code_block: {
      group: 'block',
      content: 'text*',
      marks: '',
      code: true,
      defining: true,
      attrs: { language: { default: null } },
      parseDOM: [{ tag: 'pre', preserveWhitespace: 'full' }],
      toDOM: (node) => ['pre', node.attrs.language ? { 'data-language': node.attrs.language } : {}, ['code', 0]],
    },
    list: {
      group: 'block',
      content: 'list_item+',
      attrs: { format: { default: 'unordered' } },
      parseDOM: [
        { tag: 'ul', attrs: { format: 'unordered' } },
        { tag: 'ol', attrs: { format: 'ordered' } },
      ],
      toDOM: (node) => [node.attrs.format === 'ordered' ? 'ol' : 'ul', 0],
    },
    list_item: { content: 'paragraph list*', defining: true, parseDOM: [{ tag: 'li' }], toDOM: () => ['li', 0] },
    image: {
      group: 'block',
      atom: true,
      selectable: true,
      draggable: true,
      attrs: { image: { default: null } },
      toDOM: (node) => {
        const image = node.attrs.image ?? {};
        const src = image.formats?.small?.url ?? image.url ?? '';
        return ['figure', { class: 'rich-image' }, ['img', { src, alt: image.alternativeText ?? '' }]];
      },
    },
    unknown: {
      group: 'block',
      atom: true,
      selectable: true,
      attrs: { json: { default: null } },
      toDOM: (node) => [
        'div',
        { class: 'rich-unknown', contenteditable: 'false' },
        `A “${String(node.attrs.json?.type ?? 'unknown')}” block this editor does not show: kept as it is.`,
      ],
    },
    text: { group: 'inline' },
  },
  marks: {
    link: {
      attrs: { href: {} },
      inclusive: false,
      parseDOM: [{ tag: 'a[href]', getAttrs: (dom) => ({ href: (dom as any).getAttribute('href') }) }],
      toDOM: (mark) => ['a', { href: mark.attrs.href, rel: 'noopener noreferrer' }, 0],
    },
    bold: { parseDOM: [{ tag: 'strong' }, { tag: 'b' }], toDOM: () => ['strong', 0] },
    italic: { parseDOM: [{ tag: 'em' }, { tag: 'i' }], toDOM: () => ['em', 0] },
    underline: { parseDOM: [{ tag: 'u' }], toDOM: () => ['u', 0] },
    strikethrough: { parseDOM: [{ tag: 's' }, { tag: 'del' }], toDOM: () => ['s', 0] },
    code: { parseDOM: [{ tag: 'code' }], toDOM: () => ['code', 0] },
  },
});

const s = blocksSchema;

// ---- Strapi → ProseMirror ----

function inline(children: Json[] | undefined, marks: readonly Mark[] = []): PMNode[] {
  const out: PMNode[] = [];
  for (const child of children ?? []) {
    if (child?.type === 'link') {
      out.push(...inline(child.children, [...marks, s.marks.link.create({ href: String(child.url ?? '') })]));
    } else if (child?.type === 'text') {
      const text = String(child.text ?? '');
      if (!text) continue;
      let all: readonly Mark[] = marks.slice();
      for (const name of MARK_NAMES) if (child[name]) all = s.marks[name].create().addToSet(all);
      out.push(s.text(text, all));
    }
  }
  return out;
}

const plainText = (children: Json[] | undefined): string =>
  (children ?? []).map((c) => (c?.type === 'text' ? String(c.text ?? '') : plainText(c?.children))).join('');

function listNode(node: Json): PMNode {
  const items: PMNode[] = [];
  for (const child of node.children ?? []) {
    if (child?.type === 'list') {
      const nested = listNode(child);
      const last = items.pop() ?? s.nodes.list_item.create(null, s.nodes.paragraph.create());
      items.push(last.copy(last.content.addToEnd(nested)));
    } else {
      items.push(s.nodes.list_item.create(null, s.nodes.paragraph.create(null, inline(child?.children))));
    }
  }
  if (!items.length) items.push(s.nodes.list_item.create(null, s.nodes.paragraph.create()));
  return s.nodes.list.create({ format: node.format === 'ordered' ? 'ordered' : 'unordered' }, items);
}

function blockNode(node: Json): PMNode {
  switch (node?.type) {
    case 'paragraph':
      return s.nodes.paragraph.create(null, inline(node.children));
    case 'heading': {
      const level = Number(node.level);
      return s.nodes.heading.create({ level: level >= 1 && level <= 6 ? level : 2 }, inline(node.children));
    }
    case 'quote':
      return s.nodes.quote.create(null, inline(node.children));
    case 'code': {
      const text = plainText(node.children);
      return s.nodes.code_block.create({ language: node.language ? String(node.language) : null }, text ? s.text(text) : null);
    }
    case 'list':
      return listNode(node);
    case 'image':
      if (node.image && typeof node.image === 'object') return s.nodes.image.create({ image: node.image });
      return s.nodes.unknown.create({ json: node });
    default:
      return s.nodes.unknown.create({ json: node });
  }
}

// ---- ProseMirror → Strapi ----

function textNode(node: PMNode): Json {
  const out: Json = { type: 'text', text: node.text ?? '' };
  for (const name of MARK_NAMES) if (node.marks.some((m) => m.type === s.marks[name])) out[name] = true;
  return out;
}

/** Inline content: text nodes with their marks, consecutive texts under one link grouped into a link node. */
function children(node: PMNode): Json[] {
  const out: Json[] = [];
  let link: { href: string; node: Json } | null = null;
  node.forEach((child) => {
    const mark = child.marks.find((m) => m.type === s.marks.link);
    if (mark) {
      if (!link || link.href !== mark.attrs.href) {
        // Two links never touch in Strapi's (Slate's) JSON: an empty text sits between them.
        if (link) out.push({ type: 'text', text: '' });
        link = { href: mark.attrs.href, node: { type: 'link', url: mark.attrs.href, children: [] } };
        out.push(link.node);
      }
      link.node.children.push(textNode(child));
    } else {
      link = null;
      out.push(textNode(child));
    }
  });
  // Strapi's (Slate's) inline content starts and ends with a text node, and is never empty.
  if (!out.length || out[0]!.type !== 'text') out.unshift({ type: 'text', text: '' });
  if (out[out.length - 1]!.type !== 'text') out.push({ type: 'text', text: '' });
  return out;
}

function listJson(node: PMNode, depth: number): Json {
  const items: Json[] = [];
  node.forEach((item) => {
    item.forEach((child, _offset, index) => {
      if (child.type === s.nodes.list) items.push(listJson(child, depth + 1));
      else if (index === 0 || child.type === s.nodes.paragraph) items.push({ type: 'list-item', children: children(child) });
    });
  });
  return { type: 'list', format: node.attrs.format, ...(depth ? { indentLevel: depth } : {}), children: items };
}

export function blockJson(node: PMNode): Json {
  switch (node.type.name) {
    case 'paragraph':
      return { type: 'paragraph', children: children(node) };
    case 'heading':
      return { type: 'heading', level: node.attrs.level, children: children(node) };
    case 'quote':
      return { type: 'quote', children: children(node) };
    case 'code_block':
      return { type: 'code', ...(node.attrs.language ? { language: node.attrs.language } : {}), children: [{ type: 'text', text: node.textContent }] };
    case 'list':
      return listJson(node, 0);
    case 'image':
      return { type: 'image', image: node.attrs.image, children: [{ type: 'text', text: '' }] };
    default:
      return node.attrs.json;
  }
}

/** What was read, by what the editor writes for it unchanged: the original node comes back. */
export type Originals = Map<string, Json[]>;

/** Strapi's blocks (or null) → the editor's document, and the originals to write back untouched blocks. */
export function readBlocks(value: unknown): { doc: PMNode; originals: Originals } {
  const blocks = Array.isArray(value) ? (value as Json[]) : [];
  const originals: Originals = new Map();
  const nodes = blocks.map((block) => {
    const node = blockNode(block);
    const key = JSON.stringify(blockJson(node));
    originals.set(key, [...(originals.get(key) ?? []), block]);
    return node;
  });
  return { doc: s.nodes.doc.create(null, nodes.length ? nodes : [s.nodes.paragraph.create()]), originals };
}

const isEmptyParagraph = (node: PMNode) => node.type === s.nodes.paragraph && node.content.size === 0;

/**
 * The editor's document → Strapi's blocks: each top-level block the original it still equals,
 * else Strapi's node for it. A document holding only an empty paragraph is no blocks at all.
 */
export function writeBlocks(doc: PMNode, originals: Originals): Json[] {
  if (doc.childCount === 1 && isEmptyParagraph(doc.firstChild!)) return [];
  const used = new Map<string, number>();
  const out: Json[] = [];
  doc.forEach((node) => {
    const json = blockJson(node);
    const key = JSON.stringify(json);
    const candidates = originals.get(key);
    const n = used.get(key) ?? 0;
    if (candidates && n < candidates.length) {
      out.push(candidates[n]!);
      used.set(key, n + 1);
    } else out.push(json);
  });
  return out;
}
