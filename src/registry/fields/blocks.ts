/**
 * Rich text (`blocks`) values, checked node by node with the rules of Strapi 5's blocks
 * validator: known node types only, their required keys, non-empty children where Strapi
 * requires them, text leaves with boolean marks. Folio adds what a stored document must
 * never carry: links and image URLs with a script-running scheme (`javascript:`, `vbscript:`,
 * `data:`, read as a browser reads them) and text that cannot be stored as sent. The walk
 * is iterative and capped in depth and node count, so no value can stall or overflow it.
 */
import { unstorableText } from '../../text';
import { isObject } from '../../json';

/** Nodes nested deeper than this (a list in a list in a list…) are refused. */
export const BLOCKS_MAX_DEPTH = 32;
/** More nodes than this in one value are refused: the walk stays short whatever the input. */
export const BLOCKS_MAX_NODES = 50_000;

export type Path = (string | number)[];

/** The first problem found, with its path from the attribute (`[0, 'children', 1]`) and the value there. */
export interface BlocksProblem {
  path: Path;
  message: string;
  value: unknown;
}

/** What a node may be, given where it sits. */
type Slot = 'block' | 'inline' | 'text' | 'list-child';

const BLOCK_TYPES = ['paragraph', 'heading', 'quote', 'list', 'image', 'code'];
const SLOT_TYPES: Record<Slot, string[]> = {
  block: BLOCK_TYPES,
  inline: ['text', 'link'],
  text: ['text'],
  'list-child': ['list-item', 'list'],
};
/** Per node type: what its children may be and whether it needs at least one (as Strapi). */
const CHILDREN: Record<string, { slot: Slot; min: number }> = {
  paragraph: { slot: 'inline', min: 1 },
  heading: { slot: 'inline', min: 1 },
  quote: { slot: 'inline', min: 1 },
  code: { slot: 'text', min: 1 },
  list: { slot: 'list-child', min: 1 },
  'list-item': { slot: 'inline', min: 0 },
  image: { slot: 'inline', min: 0 },
  link: { slot: 'text', min: 0 },
};
const MARKS = ['bold', 'italic', 'underline', 'strikethrough', 'code'];

/** Strapi's image node carries the media library's file object; these keys are required. */
const IMAGE_STRINGS = ['name', 'url', 'hash', 'ext', 'mime', 'provider', 'createdAt', 'updatedAt'];
const IMAGE_NUMBERS = ['width', 'height', 'size'];
const IMAGE_NULLABLE_STRINGS = ['alternativeText', 'caption', 'previewUrl'];

const BLOCKED_SCHEMES = ['javascript:', 'vbscript:', 'data:'];

/**
 * Whether a URL would run as script in a browser. Reads the scheme as the WHATWG URL parser
 * does: leading C0 controls and spaces are dropped, tabs and newlines anywhere are ignored,
 * case does not matter. Looks at a dozen characters at most.
 */
export function hasBlockedScheme(url: string): boolean {
  let i = 0;
  while (i < url.length && url.charCodeAt(i) <= 0x20) i++;
  let scheme = '';
  for (; i < url.length && scheme.length < 11; i++) {
    const c = url[i]!;
    if (c !== '\t' && c !== '\n' && c !== '\r') scheme += c.toLowerCase();
  }
  return BLOCKED_SCHEMES.some((s) => scheme.startsWith(s));
}

const oneOf = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]!);

/** `body[0].children[1]`, the same labels input.ts gives attribute paths. */
const labelOf = (label: string, path: Path) => path.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : `${out}.${p}`), label);

/** Checks an array of block nodes; `label` names the attribute in messages. */
export function checkBlocks(value: unknown[], label: string): BlocksProblem | undefined {
  const at = (path: Path) => labelOf(label, path);
  const valueAt = (path: Path) => path.reduce<unknown>((v, p) => (v as Record<string | number, unknown> | undefined)?.[p], value);
  const problem = (path: Path, why: string): BlocksProblem => ({ path, message: `${at(path)} ${why}`, value: valueAt(path) ?? null });
  // Strings that are stored and shown as text must come back exactly as sent.
  const text = (node: Record<string, unknown>, key: string, path: Path, optional = false): BlocksProblem | undefined => {
    const v = node[key];
    if (optional && (v === undefined || v === null)) return undefined;
    if (typeof v !== 'string') return problem([...path, key], optional ? 'must be a string or null' : 'must be a string');
    const why = unstorableText(v);
    return why ? problem([...path, key], why) : undefined;
  };

  function checkImage(node: Record<string, unknown>, path: Path): BlocksProblem | undefined {
    const image = node.image;
    const where = [...path, 'image'];
    if (!isObject(image)) return problem(where, 'must be an object (the image file)');
    for (const key of IMAGE_STRINGS) {
      const bad = text(image, key, where);
      if (bad) return bad;
      if (image[key] === '') return problem([...where, key], 'must not be empty');
    }
    for (const key of IMAGE_NUMBERS) {
      if (typeof image[key] !== 'number' || !Number.isFinite(image[key])) return problem([...where, key], 'must be a number');
    }
    for (const key of IMAGE_NULLABLE_STRINGS) {
      const bad = text(image, key, where, true);
      if (bad) return bad;
    }
    if (image.formats !== undefined && image.formats !== null && !isObject(image.formats)) return problem([...where, 'formats'], 'must be an object or null');
    const urls: [string, Path][] = [[image.url as string, [...where, 'url']]];
    if (typeof image.previewUrl === 'string') urls.push([image.previewUrl, [...where, 'previewUrl']]);
    if (isObject(image.formats)) {
      for (const [name, format] of Object.entries(image.formats)) {
        if (isObject(format) && typeof format.url === 'string') urls.push([format.url, [...where, 'formats', name, 'url']]);
      }
    }
    for (const [url, urlPath] of urls) if (hasBlockedScheme(url)) return problem(urlPath, 'must not use a javascript:, vbscript: or data: URL');
    return undefined;
  }

  function checkLink(node: Record<string, unknown>, path: Path): BlocksProblem | undefined {
    const bad = text(node, 'url', path);
    if (bad) return bad;
    const url = node.url as string;
    if (hasBlockedScheme(url)) return problem([...path, 'url'], 'must not use a javascript:, vbscript: or data: URL');
    // Strapi's rule: an absolute URL, or a path from the site's root.
    if (!URL.canParse(url.startsWith('/') ? `https://example.invalid${url}` : url)) return problem([...path, 'url'], 'must be a valid link');
    return undefined;
  }

  /** Checks one node's own keys (not its children); undefined when they are fine. */
  function checkNode(node: Record<string, unknown>, type: string, path: Path): BlocksProblem | undefined {
    switch (type) {
      case 'text': {
        const bad = text(node, 'text', path);
        if (bad) return bad;
        const mark = MARKS.find((m) => node[m] !== undefined && typeof node[m] !== 'boolean');
        return mark ? problem([...path, mark], 'must be a boolean') : undefined;
      }
      case 'heading':
        return [1, 2, 3, 4, 5, 6].includes(node.level as number)
          ? undefined
          : problem([...path, 'level'], 'must be one of the following values: 1, 2, 3, 4, 5, 6');
      case 'list':
        return node.format === 'ordered' || node.format === 'unordered'
          ? undefined
          : problem([...path, 'format'], 'must be one of the following values: ordered, unordered');
      case 'code':
        return text(node, 'language', path, true);
      case 'link':
        return checkLink(node, path);
      case 'image':
        return checkImage(node, path);
      default:
        return undefined;
    }
  }

  // Depth-first in document order, with an explicit stack: nothing recurses per level.
  const stack: { node: unknown; slot: Slot; path: Path; depth: number }[] = [];
  const pushChildren = (children: unknown[], slot: Slot, path: Path, depth: number) => {
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], slot, path: [...path, i], depth });
  };
  pushChildren(value, 'block', [], 1);
  let count = 0;
  while (stack.length) {
    const { node, slot, path, depth } = stack.pop()!;
    if (++count > BLOCKS_MAX_NODES) return { path: [], message: `${label} has too many nodes (at most ${BLOCKS_MAX_NODES})`, value: null };
    if (depth > BLOCKS_MAX_DEPTH) return problem(path, `is nested too deeply (at most ${BLOCKS_MAX_DEPTH} levels)`);
    const allowed = SLOT_TYPES[slot];
    if (!isObject(node)) return problem(path, `must be an object (a ${oneOf(allowed)} node)`);
    const type = node.type;
    if (typeof type !== 'string' || !allowed.includes(type)) return problem(path, `must be a ${oneOf(allowed)} node`);
    const bad = checkNode(node, type, path);
    if (bad) return bad;
    const rule = CHILDREN[type];
    if (!rule) continue;
    const children = node.children;
    if (!Array.isArray(children)) return problem([...path, 'children'], 'must be an array');
    if (children.length < rule.min) return problem([...path, 'children'], `must have at least ${rule.min} ${oneOf(SLOT_TYPES[rule.slot])} node`);
    pushChildren(children, rule.slot, [...path, 'children'], depth + 1);
  }
  return undefined;
}
