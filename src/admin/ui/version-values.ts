/**
 * A kept version's content (docs/admin.md "Content history": values as a write body gives
 * them) in an editor's words, attribute by attribute: text as it is, Yes/No, rich text as its
 * words, linked entries by their titles, files by their number in the Media Library, components as their
 * fields' lines. And which attributes differ between two versions. Pure: no DOM, no request
 * (the titles of linked entries are asked for first: `linkedDocuments`).
 */
import type { AdminAttribute, AdminComponent } from '../schema';
import { labelOf } from './words';

type Components = Record<string, AdminComponent>;

/** A linked document of a version: its type, id, and the locale it is linked in (when pinned). */
export interface Linked {
  uid: string;
  documentId: string;
  locale?: string | null;
}

/** Names of linked documents; undefined: unknown (the id is shown). */
export type NameOf = (link: Linked) => string | undefined;

export const EMPTY = '(empty)';

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** Every linked document a version's data holds (relations, inside components and dynamic zones too). */
export function linkedDocuments(attributes: AdminAttribute[], data: Record<string, unknown>, components: Components): Linked[] {
  const found: Linked[] = [];
  const walk = (attrs: AdminAttribute[], values: Record<string, unknown>) => {
    for (const a of attrs) {
      const v = values?.[a.name];
      if (isEmpty(v)) continue;
      if (a.type === 'relation' && a.target) {
        for (const link of Array.isArray(v) ? v : [v]) {
          if (link && typeof link === 'object' && typeof (link as Linked).documentId === 'string') {
            found.push({ uid: a.target, documentId: (link as Linked).documentId, locale: (link as Linked).locale ?? null });
          }
        }
      } else if (a.type === 'component' && a.target) {
        const c = components[a.target];
        if (c) for (const item of Array.isArray(v) ? v : [v]) if (item && typeof item === 'object') walk(c.attributes, item as Record<string, unknown>);
      } else if (a.type === 'dynamiczone' && Array.isArray(v)) {
        for (const item of v) {
          const c = item && typeof item === 'object' ? components[(item as { __component?: string }).__component ?? ''] : undefined;
          if (c) walk(c.attributes, item as Record<string, unknown>);
        }
      }
    }
  };
  walk(attributes, data);
  return found;
}

/** Rich text (Strapi's blocks) as its words, a line per block, list items and code included. */
export function blocksText(value: unknown): string {
  const inline = (nodes: unknown): string =>
    Array.isArray(nodes)
      ? nodes.map((n: any) => (n?.type === 'text' ? String(n.text ?? '') : n?.type === 'link' ? inline(n.children) : inline(n?.children))).join('')
      : '';
  const lines: string[] = [];
  const block = (b: any, depth = 0) => {
    if (!b || typeof b !== 'object') return;
    if (b.type === 'list') {
      (Array.isArray(b.children) ? b.children : []).forEach((item: any, i: number) => {
        if (item?.type === 'list') return block(item, depth + 1);
        lines.push(`${'  '.repeat(depth)}${b.format === 'ordered' ? `${i + 1}.` : '•'} ${inline(item?.children)}`);
      });
    } else if (b.type === 'image') {
      lines.push(`[Image: ${b.image?.alternativeText || b.image?.name || 'no description'}]`);
    } else {
      lines.push(inline(b.children));
    }
  };
  if (Array.isArray(value)) for (const b of value) block(b);
  return lines.join('\n').trim();
}

/** One value of an attribute, as text (several lines for components and rich text). */
export function valueText(a: AdminAttribute, value: unknown, components: Components, nameOf: NameOf): string {
  if (isEmpty(value)) return EMPTY;
  switch (a.type) {
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'relation': {
      const links = (Array.isArray(value) ? value : [value]).filter(
        (l): l is Linked => !!l && typeof l === 'object' && typeof (l as Linked).documentId === 'string',
      );
      return (
        links.map((l) => nameOf({ uid: a.target ?? '', documentId: l.documentId, locale: l.locale ?? null }) ?? `an entry (${l.documentId})`).join(', ') ||
        EMPTY
      );
    }
    case 'media':
      return (Array.isArray(value) ? value : [value]).map((id) => `file #${id}`).join(', ');
    case 'blocks':
      return blocksText(value) || EMPTY;
    case 'json':
      return JSON.stringify(value, null, 2);
    case 'component': {
      const c = a.target ? components[a.target] : undefined;
      const items = Array.isArray(value) ? value : [value];
      const text = items.map((item, i) => {
        const body = c ? fieldsText(c.attributes, item as Record<string, unknown>, components, nameOf) : JSON.stringify(item);
        return a.multiple ? `${i + 1}. ${indent(body)}` : body;
      });
      return text.join('\n');
    }
    case 'dynamiczone':
      return (value as Record<string, unknown>[])
        .map((item, i) => {
          const c = components[String(item?.__component ?? '')];
          const body = c ? fieldsText(c.attributes, item, components, nameOf) : '';
          return `${i + 1}. ${c?.displayName ?? String(item?.__component)}${body && body !== EMPTY ? `\n   ${indent(body)}` : ''}`;
        })
        .join('\n');
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

const indent = (text: string) => text.replace(/\n/g, '\n   ');

/** A component's fields that hold a value, a line each ("Meta title: Spring"). */
function fieldsText(attributes: AdminAttribute[], values: Record<string, unknown>, components: Components, nameOf: NameOf): string {
  const lines = attributes.filter((a) => !isEmpty(values?.[a.name])).map((a) => `${labelOf(a)}: ${indent(valueText(a, values[a.name], components, nameOf))}`);
  return lines.length ? lines.join('\n') : EMPTY;
}

/** The attributes a version's data shows (an inverse relation side is the other documents'). */
export const shownAttributes = (attributes: AdminAttribute[]) => attributes.filter((a) => !a.mappedBy && a.type !== 'password');

/** The attributes whose values differ between two versions' data, in the type's order. */
export function differences(attributes: AdminAttribute[], a: Record<string, unknown>, b: Record<string, unknown>): AdminAttribute[] {
  const same = (x: unknown, y: unknown) => (isEmpty(x) && isEmpty(y)) || JSON.stringify(x ?? null) === JSON.stringify(y ?? null);
  return shownAttributes(attributes).filter((attr) => !same(a[attr.name], b[attr.name]));
}
