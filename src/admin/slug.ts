/**
 * Strapi's uid slug: `@sindresorhus/slugify` with its defaults (transliterate, `&` → "and",
 * split camelCase, lowercase, runs of anything else → one `-`, none at either end). Pure,
 * so the server (a free uid) and the browser (a uid that follows its target field) agree.
 */
const REPLACEMENTS: [RegExp, string][] = [
  [/&/g, ' and '],
  [/♥/g, ' love '],
  [/🦄/g, ' unicorn '],
  [/ß/g, 'ss'],
  [/[æÆ]/g, 'ae'],
  [/[œŒ]/g, 'oe'],
  [/[øØ]/g, 'o'],
  [/[đĐ]/g, 'd'],
  [/[łŁ]/g, 'l'],
  [/[þÞ]/g, 'th'],
];

export function slugify(text: string): string {
  let s = text;
  for (const [pattern, to] of REPLACEMENTS) s = s.replace(pattern, to);
  // Accents come off as their own code points after canonical decomposition.
  s = s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  // decamelize: "fooBar" → "foo Bar", "XMLHttp" → "XML Http".
  s = s
    .replace(/([A-Z]+)([A-Z][a-rt-z\d]+)/g, '$1 $2')
    .replace(/([a-z\d]+)([A-Z]{2,})/g, '$1 $2')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2');
  return s
    .toLowerCase()
    .replace(/[^a-z\d]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The first of `base`, `base-1`, `base-2`… that `taken` does not hold (Strapi's findUniqueUID). */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  let i = 1;
  while (taken.has(`${base}-${i}`)) i += 1;
  return `${base}-${i}`;
}
