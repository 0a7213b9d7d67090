/**
 * A collection type's entries: columns from its attributes, search (`_q`), filters
 * (attribute + operator + value, the API's `filters[attr][$op]`), sort by column, pagination
 * and locale, all in the URL (so a list view is a link too), a badge per row, and bulk
 * Delete and Publish of the selected rows.
 */
import { checkedOf, valueOf } from './dom';
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { AdminContentType } from '../schema';
import { api, uidPath } from './api';
import type { Schema } from './main';
import { Link, navigate } from './router';
import { Filters, filterParams } from './list-filters';
import { localeLabel, when } from './edit-panel';
import { words } from './words';

/** Kinds a table cell can show as short text. */
export const LISTABLE = new Set(['string', 'text', 'email', 'uid', 'enumeration', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'date', 'time', 'datetime']);
export const BADGE_TEXT: Record<string, string> = { draft: 'Draft', published: 'Published', modified: 'Modified' };

const SYSTEM_COLUMNS: Record<string, string> = { updatedAt: 'Last updated', createdAt: 'Created', publishedAt: 'Published', documentId: 'ID' };

function columnLabel(name: string, ct?: AdminContentType): string {
  const a = ct?.attributes.find((x) => x.name === name);
  return a?.label || SYSTEM_COLUMNS[name] || words(name);
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '—';
  const text = String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

export function ListView(props: { schema: Schema; ct: AdminContentType; url: URL }) {
  const { ct, url } = props;
  const base = `/admin/content/${encodeURIComponent(ct.uid)}`;
  const columns = ct.attributes.filter((a) => LISTABLE.has(a.type)).slice(0, 4).map((a) => a.name);
  const q = url.searchParams.get('q') ?? '';
  const sort = url.searchParams.get('sort') ?? '';
  const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
  const locale = ct.localized ? (url.searchParams.get('locale') ?? props.schema.defaultLocale) : undefined;
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
      setBulk({ text: `${verb} ${documentIds.length} entries` });
    } catch (e) {
      setBulk({ text: `Nothing was ${verb.toLowerCase()}: ${(e as Error).message}`, error: true });
    }
    setReload((n) => n + 1);
  }
  const publishSelected = () => runBulk('Published', 'bulk-publish');
  const unpublishSelected = () => runBulk('Unpublished', 'bulk-unpublish');
  const deleteSelected = () => runBulk('Deleted', 'bulk-delete');

  /** The same list with some parameters changed (page back to 1 unless it is the change). */
  const withParams = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(url.search);
    if (!('page' in changes)) next.delete('page');
    for (const [k, v] of Object.entries(changes)) v ? next.set(k, v) : next.delete(k);
    const text = next.toString();
    return text ? `${base}?${text}` : base;
  };

  useEffect(() => {
    const params = new URLSearchParams({ 'pagination[page]': String(page), 'pagination[pageSize]': '20' });
    if (q) params.set('_q', q);
    if (sort) params.set('sort', sort);
    if (locale) params.set('locale', locale);
    for (const [k, v] of filterParams(url)) params.append(k, v);
    setError(null);
    api('GET', `/content/${uidPath(ct.uid)}?${params}`).then(setResult, (e) => setError((e as Error).message));
  }, [url.search, reload]);
  useEffect(() => setSelected(new Set()), [url.search]);

  const [sortField, sortDir] = sort.split(':');
  const header = (name: string, i: number) => {
    const current = sortField === name;
    const nextDir = current && sortDir !== 'desc' ? 'desc' : 'asc';
    return h(
      'th',
      { scope: 'col', class: i > 0 ? 'col-extra' : undefined, 'aria-sort': current ? (sortDir === 'desc' ? 'descending' : 'ascending') : 'none' },
      h('button', { type: 'button', class: 'sort', onClick: () => navigate(withParams({ sort: `${name}:${nextDir}` })) }, [
        columnLabel(name, ct),
        h('span', { 'aria-hidden': 'true' }, current ? (sortDir === 'desc' ? ' ▼' : ' ▲') : ''),
      ]),
    );
  };

  const pagination = result?.meta.pagination;
  return h('div', null, [
    h('div', { class: 'title-row' }, [h('h1', null, ct.displayName), h(Link, { href: `${base}/new${locale ? `?locale=${locale}` : ''}`, class: 'button primary' }, 'Create new entry')]),
    h('div', { class: 'toolbar' }, [
      h(
        'form',
        { role: 'search', onSubmit: (e: Event) => (e.preventDefault(), navigate(withParams({ q: search.trim() || undefined }))) },
        [
          h('label', { for: 'list-search' }, 'Search'),
          h('input', { id: 'list-search', type: 'search', value: search, onInput: (e: Event) => setSearch(valueOf(e)) }),
          h('button', { type: 'submit' }, 'Search'),
        ],
      ),
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
    ]),
    h(Filters, { ct, url, base }),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    bulk ? h('p', { class: bulk.error ? 'error' : 'notice', role: bulk.error ? 'alert' : 'status' }, bulk.text) : null,
    selected.size
      ? h('div', { class: 'toolbar bulk', role: 'toolbar', 'aria-label': 'Bulk actions' }, [
          h('span', null, `${selected.size} selected`),
          ct.draftAndPublish ? h('button', { type: 'button', onClick: publishSelected }, 'Publish selected') : null,
          ct.draftAndPublish ? h('button', { type: 'button', onClick: unpublishSelected }, 'Unpublish selected') : null,
          h('button', { type: 'button', class: 'danger', onClick: () => setConfirming(true) }, 'Delete selected'),
          confirming
            ? h('div', { role: 'alertdialog', 'aria-label': 'Delete the selected entries?', class: 'confirm' }, [
                h('p', null, `Delete ${selected.size} entries${locale ? ` (their ${locale} versions)` : ''}? This cannot be undone.`),
                h('button', { type: 'button', class: 'danger', onClick: deleteSelected }, 'Confirm delete'),
                h('button', { type: 'button', onClick: () => setConfirming(false) }, 'Cancel'),
              ])
            : null,
        ])
      : null,
    !result
      ? h('p', { role: 'status' }, 'Loading…')
      : result.data.length === 0
        ? h('p', { role: 'status' }, q ? `No entry matches "${q}".` : 'No entries yet.')
        : h('div', { class: 'table-wrap' }, h('table', { class: 'entries' }, [
            h('caption', { class: 'visually-hidden' }, `${ct.displayName} entries`),
            h(
              'thead',
              null,
              h('tr', null, [
                h(
                  'th',
                  { scope: 'col' },
                  h('input', {
                    type: 'checkbox',
                    'aria-label': 'Select all entries on this page',
                    checked: result.data.length > 0 && result.data.every((r) => selected.has(r.documentId)),
                    onChange: (e: Event) => setSelected(checkedOf(e) ? new Set(result.data.map((r) => r.documentId as string)) : new Set()),
                  }),
                ),
                ...columns.map(header),
                header('updatedAt', 1),
                ct.draftAndPublish ? h('th', { scope: 'col' }, 'Status') : null,
              ]),
            ),
            h(
              'tbody',
              null,
              result.data.map((row) => {
                const href = `${base}/${encodeURIComponent(row.documentId)}${locale ? `?locale=${locale}` : ''}`;
                const badge = result.meta.status?.[`${row.documentId}:${row.locale ?? ''}`];
                const name = columns[0] && cell(row[columns[0]]) !== '—' ? cell(row[columns[0]]) : row.documentId;
                return h('tr', { key: row.documentId }, [
                  h(
                    'td',
                    null,
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
                  ...columns.map((c, i) => h('td', { class: i > 0 ? 'col-extra' : undefined }, i === 0 ? h(Link, { href }, cell(row[c]) === '—' ? `(${row.documentId})` : cell(row[c])) : cell(row[c]))),
                  h('td', { class: 'col-extra' }, when(row.updatedAt)),
                  ct.draftAndPublish ? h('td', null, h('span', { class: `badge badge-${badge}` }, BADGE_TEXT[badge] ?? '')) : null,
                ]);
              }),
            ),
          ])),
    pagination && pagination.pageCount > 1
      ? h('nav', { 'aria-label': 'Pagination', class: 'pager' }, [
          h('button', { type: 'button', disabled: page <= 1, onClick: () => navigate(withParams({ page: String(page - 1) })) }, 'Previous page'),
          h('span', null, `Page ${pagination.page} of ${pagination.pageCount} (${pagination.total} entries)`),
          h('button', { type: 'button', disabled: page >= pagination.pageCount, onClick: () => navigate(withParams({ page: String(page + 1) })) }, 'Next page'),
        ])
      : pagination
        ? h('p', { class: 'muted' }, `${pagination.total} entries`)
        : null,
  ]);
}
