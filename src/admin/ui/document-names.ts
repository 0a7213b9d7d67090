/**
 * What editors call documents: the value of each one's main field (its title), asked of the
 * content manager's list (GET /admin/api/content/:uid, filtered by documentId, only the main
 * field), 100 at a time. For the History view (linked entries of a past version) and the
 * Releases page (its entries). A document whose main field is empty is "Untitled (Article)";
 * a document no longer there has no name: callers show its id.
 */
import { api, uidPath } from './api';
import type { Schema } from './main';
import { untitled } from './words';

/** `uid`, `documentId`, `locale` → the key of a name in the map `documentNames` answers. */
export const nameKey = (uid: string, documentId: string, locale?: string | null) => `${uid}\u0000${documentId}\u0000${locale ?? ''}`;

export interface NameRequest {
  uid: string;
  documentId: string;
  /** The locale whose version names it (localized types); the draft is read. */
  locale?: string | null;
}

/** The names of the documents asked for, by `nameKey` (those found; single types and types the admin does not manage are skipped). */
export async function documentNames(schema: Schema, wanted: NameRequest[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const groups = new Map<string, { uid: string; locale: string; ids: Set<string> }>();
  for (const w of wanted) {
    const ct = schema.contentTypes.find((c) => c.uid === w.uid);
    if (!ct || ct.kind === 'singleType') continue;
    const locale = ct.localized ? w.locale || schema.defaultLocale : '';
    const key = `${w.uid}\u0000${locale}`;
    if (!groups.has(key)) groups.set(key, { uid: w.uid, locale, ids: new Set() });
    groups.get(key)!.ids.add(w.documentId);
  }
  await Promise.all(
    [...groups.values()].flatMap(({ uid, locale, ids }) => {
      const ct = schema.contentTypes.find((c) => c.uid === uid)!;
      const all = [...ids];
      const batches: string[][] = [];
      for (let i = 0; i < all.length; i += 100) batches.push(all.slice(i, i + 100));
      return batches.map(async (batch) => {
        const params = new URLSearchParams({ 'pagination[pageSize]': String(batch.length) });
        batch.forEach((id, i) => params.set(`filters[documentId][$in][${i}]`, id));
        if (locale) params.set('locale', locale);
        if (ct.mainField) params.set('fields[0]', ct.mainField);
        const r = await api<{ data: Record<string, unknown>[] }>('GET', `/content/${uidPath(uid)}?${params}`).catch(() => ({ data: [] }));
        for (const d of r.data) {
          const value = ct.mainField ? d[ct.mainField] : null;
          names.set(
            nameKey(uid, String(d.documentId), locale),
            value === null || value === undefined || value === '' ? untitled(ct.displayName) : String(value),
          );
        }
      });
    }),
  );
  return names;
}

/** The name `documentNames` found, for a request as it was asked. */
export function nameOf(schema: Schema, names: Map<string, string>, w: NameRequest): string | undefined {
  const ct = schema.contentTypes.find((c) => c.uid === w.uid);
  // A single type's one document is called by the type's name.
  if (ct?.kind === 'singleType') return ct.displayName;
  const locale = ct?.localized ? w.locale || schema.defaultLocale : '';
  return names.get(nameKey(w.uid, w.documentId, locale));
}
