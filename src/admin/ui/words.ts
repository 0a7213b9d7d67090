/**
 * Attribute names as words, the way an editor reads them: `publishDate` → "Publish date",
 * `meta_title` → "Meta title", `seo` → "SEO". A view configuration's own label wins over this
 * (labels.ts); this is the default Strapi's admin would show, with known acronyms upper-cased.
 */
import type { AdminAttribute } from '../schema';

const ACRONYMS = new Set([
  'id',
  'url',
  'uri',
  'seo',
  'api',
  'html',
  'css',
  'json',
  'xml',
  'sku',
  'faq',
  'cta',
  'uid',
  'ip',
  'pdf',
  'og',
  'rss',
  'sms',
  'vat',
  'isbn',
  'gps',
]);

export function words(name: string): string {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])(\d)/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter(Boolean);
  if (parts.length === 0) return name;
  return parts
    .map((part, i) => {
      const lower = part.toLowerCase();
      if (ACRONYMS.has(lower)) return lower.toUpperCase();
      if (/^[A-Z0-9]{2,}$/.test(part)) return part;
      return i === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
    })
    .join(' ');
}

/** An attribute's label: the view configuration's, else its name as words. */
export const labelOf = (a: Pick<AdminAttribute, 'name' | 'label'>) => a.label || words(a.name);

/** What a document without a title (its main field empty) is called: "Untitled (Article)", never its documentId. */
export const untitled = (typeName: string) => `Untitled (${typeName})`;
