/**
 * Strapi's blocks JSON ⇄ the blocks editor's items. Each block is one item with a type and a
 * text; inline formatting travels in that text as a small markup: **bold**, *italic*,
 * __underline__, ~~strikethrough~~, `code`, [a link](https://…), and `\` before a marker
 * character keeps it literal. A block the editor did not change is written back as the very
 * node it was read from, so opening and saving an entry never alters its blocks.
 */
type Node = Record<string, any>;

export interface BlockItem {
  key: string;
  kind: 'paragraph' | 'heading' | 'list' | 'quote' | 'code' | 'image' | 'other';
  level?: number;
  format?: 'ordered' | 'unordered';
  language?: string;
  text: string;
  image?: Node | null;
  /** What was read, and its signature: equal signatures write the original back. */
  original?: Node;
  signature?: string;
}

let counter = 0;
const key = () => `b${++counter}`;

export const signature = (b: BlockItem) => JSON.stringify([b.kind, b.level, b.format, b.language, b.text, b.image ?? null]);

const MARKS: [string, string][] = [
  ['code', '`'],
  ['bold', '**'],
  ['italic', '*'],
  ['underline', '__'],
  ['strikethrough', '~~'],
];

const escape = (text: string) => text.replace(/[\\*`[\]]|__|~~/g, (m) => m.split('').map((c) => `\\${c}`).join(''));

function inlineText(children: Node[] = []): string {
  return children
    .map((c) => {
      if (c.type === 'link') return `[${inlineText(c.children)}](${String(c.url ?? '').replace(/[()\\]/g, (m) => `\\${m}`)})`;
      if (c.type !== 'text') return '';
      let s = escape(String(c.text ?? ''));
      if (s === '') return '';
      for (const [mark, marker] of MARKS) if (c[mark]) s = `${marker}${s}${marker}`;
      return s;
    })
    .join('');
}

/** The markup → inline nodes (text with marks, links); at least one text node, as Strapi requires. */
export function parseInline(text: string): Node[] {
  const out: Node[] = [];
  const active: Record<string, boolean> = {};
  let buffer = '';
  const flush = (into: Node[]) => {
    if (!buffer) return;
    const node: Node = { type: 'text', text: buffer };
    for (const [mark] of MARKS) if (active[mark]) node[mark] = true;
    const last = into.at(-1);
    if (last?.type === 'text' && MARKS.every(([m]) => !!last[m] === !!node[m])) last.text += buffer;
    else into.push(node);
    buffer = '';
  };
  const run = (source: string, into: Node[]) => {
    for (let i = 0; i < source.length; i++) {
      const ch = source[i]!;
      if (ch === '\\' && i + 1 < source.length) {
        buffer += source[++i];
        continue;
      }
      if (ch === '[') {
        const link = /^\[((?:\\.|[^\]\\])*)\]\(((?:\\.|[^)\\])*)\)/.exec(source.slice(i));
        if (link) {
          flush(into);
          const children: Node[] = [];
          run(link[1]!, children);
          flush(children);
          into.push({ type: 'link', url: link[2]!.replace(/\\(.)/g, '$1'), children: children.length ? children : [{ type: 'text', text: '' }] });
          i += link[0].length - 1;
          continue;
        }
      }
      const marker = MARKS.find(([mark, m]) => source.startsWith(m, i) && (mark !== 'italic' || !source.startsWith('**', i)));
      if (marker) {
        flush(into);
        active[marker[0]] = !active[marker[0]];
        i += marker[1].length - 1;
        continue;
      }
      buffer += ch;
    }
  };
  run(text, out);
  flush(out);
  return out.length ? out : [{ type: 'text', text: '' }];
}

const plain = (children: Node[] = []): string => children.map((c) => (c.type === 'text' ? String(c.text ?? '') : plain(c.children))).join('');

/** A list's items as lines, two spaces per nesting level. */
function listLines(node: Node, depth = 0): string[] {
  return (node.children ?? []).flatMap((c: Node) => (c.type === 'list' ? listLines(c, depth + 1) : [`${'  '.repeat(depth)}${inlineText(c.children)}`]));
}

function toItem(node: Node): BlockItem {
  const base = { key: key(), original: node };
  let item: BlockItem;
  switch (node?.type) {
    case 'paragraph':
    case 'quote':
      item = { ...base, kind: node.type, text: inlineText(node.children) };
      break;
    case 'heading':
      item = { ...base, kind: 'heading', level: Number(node.level) || 2, text: inlineText(node.children) };
      break;
    case 'list':
      item = { ...base, kind: 'list', format: node.format === 'ordered' ? 'ordered' : 'unordered', text: listLines(node).join('\n') };
      break;
    case 'code':
      item = { ...base, kind: 'code', text: plain(node.children), ...(node.language ? { language: String(node.language) } : {}) };
      break;
    case 'image':
      item = { ...base, kind: 'image', text: String(node.image?.alternativeText ?? ''), image: node.image ?? null };
      break;
    default:
      item = { ...base, kind: 'other', text: JSON.stringify(node) };
  }
  return { ...item, signature: signature(item) };
}

export const fromBlocks = (value: unknown): BlockItem[] => (Array.isArray(value) ? value.map(toItem) : []);

export const newBlock = (kind: BlockItem['kind']): BlockItem => ({
  key: key(),
  kind,
  text: '',
  ...(kind === 'heading' ? { level: 2 } : kind === 'list' ? { format: 'unordered' as const } : {}),
});

function listNode(lines: string[], format: string, depth = 0): Node {
  const children: Node[] = [];
  for (let i = 0; i < lines.length; ) {
    const indent = Math.floor((/^ */.exec(lines[i]!)![0].length) / 2);
    if (indent > depth) {
      // Consecutive deeper lines make one nested list.
      let end = i;
      while (end < lines.length && Math.floor(/^ */.exec(lines[end]!)![0].length / 2) > depth) end++;
      children.push(listNode(lines.slice(i, end), format, depth + 1));
      i = end;
    } else {
      children.push({ type: 'list-item', children: parseInline(lines[i]!.trimStart()) });
      i++;
    }
  }
  return { type: 'list', format, ...(depth ? { indentLevel: depth } : {}), children };
}

function toNode(b: BlockItem): Node | null {
  if (b.original && b.signature === signature(b)) return b.original;
  switch (b.kind) {
    case 'paragraph':
    case 'quote':
      return { type: b.kind, children: parseInline(b.text) };
    case 'heading':
      return { type: 'heading', level: b.level ?? 2, children: parseInline(b.text) };
    case 'list': {
      const lines = b.text.split('\n').filter((l) => l.trim() !== '');
      return listNode(lines.length ? lines : [''], b.format ?? 'unordered');
    }
    case 'code':
      return { type: 'code', ...(b.language ? { language: b.language } : {}), children: [{ type: 'text', text: b.text }] };
    case 'image':
      return b.image ? { type: 'image', image: { ...b.image, alternativeText: b.text || null }, children: [{ type: 'text', text: '' }] } : null;
    default:
      return b.original ?? null;
  }
}

export const toBlocks = (items: BlockItem[]): Node[] => items.map(toNode).filter((n): n is Node => n !== null);
