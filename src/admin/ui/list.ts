/**
 * A collection type's entries: search (`_q`), filters in one row that wraps (list-filters.ts),
 * the columns the editor chooses (kept in this browser; the type's view configuration gives
 * the default), sort by a column, pages with a page size, the locale, a status badge per row,
 * bulk Publish / Unpublish / Delete of the selected rows, and an empty state that says what
 * to do. Search, filters, sort, page, page size and locale live in the URL, so a list is a link.
 */
import { checkedOf, valueOf } from './dom';
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { AdminContentType } from '../schema';
import { api, uidPath } from './api';
import { localeLabel, when } from './edit-panel';
import { Filters, filterParams } from './list-filters';
import type { Schema } from './main';
import { Link, navigate } from './router';
import { untitled, words } from './words';

/** Kinds a table cell can show as short text. */
export const LISTABLE = new Set([
  'string',
  'text',
  'email',
  'uid',
  'enumeration',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'date',
  'time',
  'datetime',
  'timestamp',
]);
export const BADGE_TEXT: Record<string, string> = { draft: 'Draft', published: 'Published', modified: 'Modified' };
const PAGE_SIZES = [10, 20, 50, 100];
const TIMESTAMPS: Record<string, string> = { updatedAt: 'Last updated', createdAt: 'Created', publishedAt: 'Published' };

/** A column's heading: the view configuration's label, else the name as words. */
export function columnLabel(name: string, ct: AdminContentType): string {
  const a = ct.attributes.find((x) => x.name === name);
  return a?.label || TIMESTAMPS[name] || words(name);
}

function cell(ct: AdminContentType, name: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  const type = ct.attributes.find((a) => a.name === name)?.type;
  if (type === 'boolean') return value ? 'Yes' : 'No';
  if (type === 'timestamp' && /^\d+$/.test(String(value))) return when(new Date(Number(value)).toISOString());
  if (type === 'datetime' || TIMESTAMPS[name]) return when(String(value));
  const text = String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Columns the editor chose for a type, kept in this browser (localStorage), else the view's. */
const store = globalThis as unknown as {
  localStorage?: { getItem(k: string): string | null; setItem(k: string, v: string): void; removeItem(k: string): void };
};
function chosenColumns(ct: AdminContentType, choices: string[]): string[] {
  try {
    const saved = JSON.parse(store.localStorage?.getItem(`folio.columns.${ct.uid}`) ?? 'null');
    if (Array.isArray(saved)) {
      const kept = saved.filter((c) => typeof c === 'string' && choices.includes(c));
      if (kept.length) return kept;
    }
  } catch {
    // A broken entry: the defaults.
  }
  return (ct.view?.list ?? choices.slice(0, 5)).filter((c) => choices.includes(c));
}

function ColumnsMenu(props: { ct: AdminContentType; choices: string[]; columns: string[]; onChange: (columns: string[]) => void }) {
  const { ct, choices, columns } = props;
  const toggle = (name: string, on: boolean) => {
    const next = on ? choices.filter((c) => c === name || columns.includes(c)) : columns.filter((c) => c !== name);
    if (next.length) props.onChange(next);
  };
  return h('details', { class: 'menu columns-menu' }, [
    h('summary', { class: 'button' }, `Columns (${columns.length})`),
    h('fieldset', { class: 'menu-body' }, [
      h('legend', { class: 'visually-hidden' }, 'Columns to show'),
      ...choices.map((name) =>
        h('div', { class: 'field checkbox', key: name }, [
          h('input', {
            type: 'checkbox',
            id: `column-${name}`,
            checked: columns.includes(name),
            disabled: columns.length === 1 && columns.includes(name),
            onChange: (e: Event) => toggle(name, checkedOf(e)),
          }),
          h('label', { for: `column-${name}` }, columnLabel(name, ct)),
        ]),
      ),
      h('button', { type: 'button', class: 'small', onClick: () => props.onChange([]) }, 'Reset columns'),
    ]),
  ]);
}

export function ListView(props: { schema: Schema; ct: AdminContentType; url: URL; role?: string }) {
  const { ct, url } = props;
  const base = `/admin/content/${encodeURIComponent(ct.uid)}`;
  const choices = [...ct.attributes.filter((a) => LISTABLE.has(a.type)).map((a) => a.name), 'createdAt', 'updatedAt'];
  const [columns, setColumnsState] = useState(() => chosenColumns(ct, choices));
  const setColumns = (next: string[]) => {
    if (next.length) store.localStorage?.setItem(`folio.columns.${ct.uid}`, JSON.stringify(next));
    else store.localStorage?.removeItem(`folio.columns.${ct.uid}`);
    setColumnsState(next.length ? next : chosenColumns(ct, choices));
  };
  const q = url.searchParams.get('q') ?? '';
  const sort = url.searchParams.get('sort') ?? ct.view?.defaultSort ?? '';
  const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
  const asked = Number(url.searchParams.get('pageSize'));
  const pageSize = PAGE_SIZES.includes(asked) ? asked : (ct.view?.pageSize ?? 20);
  const locale = ct.localized ? (url.searchParams.get('locale') ?? props.schema.defaultLocale) : undefined;
  const filters = filterParams(url);
  const [result, setResult] = useState<{ data: any[]; meta: any } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [search, setSearch] = useState(q);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [reload, setReload] = useState(0);
  const [bulk, setBulk] = useState<{ text: string; error?: boolean } | null>(null);
  const [confirming, setConfirming] = useState(false);

  /**
   * One request for every selected entry: the server runs them in one transaction, so either
   * all of them are done or none is (and the message names the entry that stopped it).
   */
  async function runBulk(verb: string, action: 'bulk-delete' | 'bulk-publish' | 'bulk-unpublish') {
    setConfirming(false);
    const documentIds = [...selected];
    try {
      await api('POST', `/content/${uidPath(ct.uid)}/actions/${action}`, { documentIds, ...(locale ? { locale } : {}) });
      setSelected(new Set());
      setBulk({ text: `${verb} ${documentIds.length} ${documentIds.length === 1 ? 'entry' : 'entries'}` });
    } catch (e) {
      setBulk({ text: `Nothing was ${verb.toLowerCase()}: ${(e as Error).message}`, error: true });
    }
    setReload((n) => n + 1);
  }

  /** The same list with some parameters changed (page back to 1 unless it is the change). */
  const withParams = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(url.search);
    if (!('page' in changes)) next.delete('page');
    for (const [k, v] of Object.entries(changes)) v ? next.set(k, v) : next.delete(k);
    const text = next.toString();
    return text ? `${base}?${text}` : base;
  };

  useEffect(() => {
    const params = new URLSearchParams({ 'pagination[page]': String(page), 'pagination[pageSize]': String(pageSize) });
    if (q) params.set('_q', q);
    if (sort) params.set('sort', sort);
    if (locale) params.set('locale', locale);
    for (const [k, v] of filters) params.append(k, v);
    setError(null);
    api('GET', `/content/${uidPath(ct.uid)}?${params}`).then(setResult, (e) => setError((e as Error).message));
  }, [url.search, reload]);
  useEffect(() => setSelected(new Set()), [url.search]);
  useEffect(() => setSearch(q), [q]);

  const [sortField, sortDir] = sort.split(':');
  const header = (name: string, i: number) => {
    const current = sortField === name;
    const nextDir = current && sortDir !== 'desc' ? 'desc' : 'asc';
    return h(
      'th',
      { scope: 'col', key: name, class: i > 0 ? 'col-extra' : undefined, 'aria-sort': current ? (sortDir === 'desc' ? 'descending' : 'ascending') : 'none' },
      h('button', { type: 'button', class: 'sort', onClick: () => navigate(withParams({ sort: `${name}:${nextDir}` })) }, [
        columnLabel(name, ct),
        h('span', { 'aria-hidden': 'true' }, current ? (sortDir === 'desc' ? ' ▼' : ' ▲') : ''),
      ]),
    );
  };

  const newHref = `${base}/new${locale ? `?locale=${locale}` : ''}`;
  const narrowed = !!q || filters.length > 0;
  const pagination = result?.meta.pagination;
  const titleOf = (row: any) => {
    const main = ct.mainField ?? columns[0];
    const value = main ? row[main] : undefined;
    return value === null || value === undefined || value === '' ? untitled(ct.displayName) : String(value);
  };

  return h('div', null, [
    h('div', { class: 'title-row' }, [
      h('div', { class: 'title-main' }, [
        h('h1', null, ct.displayName),
        pagination ? h('span', { class: 'muted' }, `${pagination.total} ${pagination.total === 1 ? 'entry' : 'entries'}`) : null,
      ]),
      h('div', { class: 'row-actions' }, [
        props.role === 'super-admin' ? h(Link, { href: `/admin/configure/${encodeURIComponent(ct.uid)}`, class: 'button' }, 'Configure the view') : null,
        h(Link, { href: newHref, class: 'button primary' }, 'Create new entry'),
      ]),
    ]),
    h('div', { class: 'toolbar list-toolbar' }, [
      h('form', { role: 'search', class: 'search', onSubmit: (e: Event) => (e.preventDefault(), navigate(withParams({ q: search.trim() || undefined }))) }, [
        h('label', { for: 'list-search', class: 'visually-hidden' }, `Search ${ct.displayName}`),
        h('input', {
          id: 'list-search',
          type: 'search',
          placeholder: `Search ${ct.displayName}…`,
          value: search,
          onInput: (e: Event) => setSearch(valueOf(e)),
        }),
        h('button', { type: 'submit' }, 'Search'),
      ]),
      locale
        ? h('div', { class: 'field inline' }, [
            h('label', { for: 'list-locale' }, 'Locale'),
            h(
              'select',
              { id: 'list-locale', value: locale, onChange: (e: Event) => navigate(withParams({ locale: valueOf(e) })) },
              props.schema.locales.map((l) => h('option', { value: l.code }, localeLabel(l))),
            ),
          ])
        : null,
      h(ColumnsMenu, { ct, choices, columns, onChange: setColumns }),
    ]),
    h(Filters, { ct, url, base }),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    bulk ? h('p', { class: bulk.error ? 'error' : 'notice', role: bulk.error ? 'alert' : 'status' }, bulk.text) : null,
    selected.size
      ? h('div', { class: 'toolbar bulk', role: 'toolbar', 'aria-label': 'Bulk actions' }, [
          h('span', null, `${selected.size} selected`),
          ct.draftAndPublish ? h('button', { type: 'button', onClick: () => runBulk('Published', 'bulk-publish') }, 'Publish selected') : null,
          ct.draftAndPublish ? h('button', { type: 'button', onClick: () => runBulk('Unpublished', 'bulk-unpublish') }, 'Unpublish selected') : null,
          h('button', { type: 'button', class: 'danger', onClick: () => setConfirming(true) }, 'Delete selected'),
          confirming
            ? h('div', { role: 'alertdialog', 'aria-label': 'Delete the selected entries?', class: 'confirm' }, [
                h('p', null, `Delete ${selected.size} entries${locale ? ` (their ${locale} versions)` : ''}? This cannot be undone.`),
                h('button', { type: 'button', class: 'danger', onClick: () => runBulk('Deleted', 'bulk-delete') }, 'Confirm delete'),
                h('button', { type: 'button', onClick: () => setConfirming(false) }, 'Cancel'),
              ])
            : null,
        ])
      : null,
    !result
      ? h('p', { role: 'status' }, 'Loading…')
      : result.data.length === 0
        ? h('div', { class: 'empty', role: 'status' }, [
            narrowed
              ? [
                  h(
                    'p',
                    { class: 'empty-title' },
                    q ? `No ${ct.displayName} matches “${q}”${filters.length ? ' with these filters' : ''}.` : `No ${ct.displayName} matches these filters.`,
                  ),
                  h('p', { class: 'muted' }, 'Try other words, or clear the search and filters to see every entry.'),
                  h(
                    'button',
                    { type: 'button', onClick: () => navigate(withParams({ q: undefined, ...Object.fromEntries(filters.map(([k]) => [k, undefined])) })) },
                    'Clear search and filters',
                  ),
                ]
              : [
                  h(
                    'p',
                    { class: 'empty-title' },
                    `No ${ct.displayName} yet${locale ? ` in ${localeLabel(props.schema.locales.find((l) => l.code === locale) ?? { code: locale })}` : ''}.`,
                  ),
                  h(
                    'p',
                    { class: 'muted' },
                    ct.draftAndPublish ? 'Create the first entry: it is saved as a draft until you publish it.' : 'Create the first entry.',
                  ),
                  h(Link, { href: newHref, class: 'button primary' }, `Create the first ${ct.displayName}`),
                ],
          ])
        : h(
            'div',
            { class: 'table-wrap' },
            h('table', { class: 'entries' }, [
              h('caption', { class: 'visually-hidden' }, `${ct.displayName} entries`),
              h(
                'thead',
                null,
                h('tr', null, [
                  h(
                    'th',
                    { scope: 'col', class: 'check' },
                    h('input', {
                      type: 'checkbox',
                      'aria-label': 'Select all entries on this page',
                      checked: result.data.length > 0 && result.data.every((r) => selected.has(r.documentId)),
                      onChange: (e: Event) => setSelected(checkedOf(e) ? new Set(result.data.map((r) => r.documentId as string)) : new Set()),
                    }),
                  ),
                  ...columns.map(header),
                  ct.draftAndPublish ? h('th', { scope: 'col' }, 'Status') : null,
                ]),
              ),
              h(
                'tbody',
                null,
                result.data.map((row) => {
                  const href = `${base}/${encodeURIComponent(row.documentId)}${locale ? `?locale=${locale}` : ''}`;
                  const badge = result.meta.status?.[`${row.documentId}:${row.locale ?? ''}`];
                  const name = titleOf(row);
                  return h('tr', { key: row.documentId }, [
                    h(
                      'td',
                      { class: 'check' },
                      h('input', {
                        type: 'checkbox',
                        'aria-label': `Select ${name}`,
                        checked: selected.has(row.documentId),
                        onChange: (e: Event) =>
                          setSelected((old) => {
                            const next = new Set(old);
                            checkedOf(e) ? next.add(row.documentId) : next.delete(row.documentId);
                            return next;
                          }),
                      }),
                    ),
                    ...columns.map((c, i) => {
                      const text = cell(ct, c, row[c]);
                      return h('td', { key: c, class: i > 0 ? 'col-extra' : undefined }, i === 0 ? h(Link, { href }, text === '—' ? name : text) : text);
                    }),
                    ct.draftAndPublish ? h('td', null, h('span', { class: `badge badge-${badge}` }, BADGE_TEXT[badge] ?? '')) : null,
                  ]);
                }),
              ),
            ]),
          ),
    pagination && pagination.total > 0
      ? h('nav', { 'aria-label': 'Pagination', class: 'pager' }, [
          h('button', { type: 'button', disabled: page <= 1, onClick: () => navigate(withParams({ page: String(page - 1) })) }, 'Previous page'),
          h('span', null, `Page ${pagination.page} of ${Math.max(1, pagination.pageCount)}`),
          h('button', { type: 'button', disabled: page >= pagination.pageCount, onClick: () => navigate(withParams({ page: String(page + 1) })) }, 'Next page'),
          h('div', { class: 'field inline' }, [
            h('label', { for: 'list-page-size' }, 'Entries per page'),
            h(
              'select',
              { id: 'list-page-size', value: String(pageSize), onChange: (e: Event) => navigate(withParams({ pageSize: valueOf(e) })) },
              PAGE_SIZES.map((n) => h('option', { value: String(n) }, String(n))),
            ),
          ]),
        ])
      : null,
  ]);
}
