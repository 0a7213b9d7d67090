/**
 * The list view's filters: attribute + operator + value, kept in the URL exactly as the API
 * takes them (`filters[title][$containsi]=news`), so a filtered list is a link and the
 * list's request passes them on untouched; the API validates them (a 400 shows as an error).
 */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import type { AdminContentType } from '../schema';
import { LISTABLE } from './list';
import { navigate } from './router';
import { words } from './words';

const SYSTEM: Record<string, string> = { createdAt: 'Created', updatedAt: 'Last updated' };

const OPERATORS: [string, string][] = [
  ['$eq', 'is'],
  ['$ne', 'is not'],
  ['$containsi', 'contains'],
  ['$notContainsi', 'does not contain'],
  ['$startsWithi', 'starts with'],
  ['$gt', 'is greater than'],
  ['$lt', 'is less than'],
  ['$null', 'is empty'],
  ['$notNull', 'is not empty'],
];
const NO_VALUE = new Set(['$null', '$notNull']);
const FILTER = /^filters\[([^\]]+)\]\[(\$[A-Za-z]+)\]$/;

/** The URL's filter parameters, in order. */
export const filterParams = (url: URL) => [...url.searchParams].filter(([k]) => k.startsWith('filters['));

export function Filters(props: { ct: AdminContentType; url: URL; base: string }) {
  const attributes = [...props.ct.attributes.filter((a) => LISTABLE.has(a.type)).map((a) => a.name), 'createdAt', 'updatedAt'];
  const [field, setField] = useState(attributes[0] ?? '');
  const [operator, setOperator] = useState('$eq');
  const [value, setValue] = useState('');
  const active = filterParams(props.url);
  const nameOf = (name: string) => props.ct.attributes.find((a) => a.name === name)?.label || SYSTEM[name] || words(name);

  const go = (params: URLSearchParams) => {
    params.delete('page');
    const text = params.toString();
    navigate(text ? `${props.base}?${text}` : props.base);
  };
  const add = (event: Event) => {
    event.preventDefault();
    if (!field || (!NO_VALUE.has(operator) && value === '')) return;
    const params = new URLSearchParams(props.url.search);
    params.append(`filters[${field}][${operator}]`, NO_VALUE.has(operator) ? 'true' : value);
    setValue('');
    go(params);
  };
  const remove = (index: number) => {
    const params = new URLSearchParams(props.url.search);
    for (const [k] of active) params.delete(k);
    active.forEach(([k, v], i) => i !== index && params.append(k, v));
    go(params);
  };
  const describe = ([k, v]: [string, string]) => {
    const [, name, op] = FILTER.exec(k) ?? [undefined, k, ''];
    const said = OPERATORS.find(([o]) => o === op)?.[1] ?? op;
    return NO_VALUE.has(op!) ? `${nameOf(name!)} ${said}` : `${nameOf(name!)} ${said} "${v}"`;
  };

  return h('div', { class: 'filters' }, [
    h('form', { class: 'toolbar', 'aria-label': 'Filters', onSubmit: add }, [
      h('label', { for: 'filter-field' }, 'Filter'),
      h(
        'select',
        { id: 'filter-field', 'aria-label': 'Filter attribute', value: field, onChange: (e: any) => setField(e.target.value) },
        attributes.map((a) => h('option', { value: a }, nameOf(a))),
      ),
      h(
        'select',
        { 'aria-label': 'Filter operator', value: operator, onChange: (e: any) => setOperator(e.target.value) },
        OPERATORS.map(([o, words]) => h('option', { value: o }, words)),
      ),
      NO_VALUE.has(operator) ? null : h('input', { 'aria-label': 'Filter value', value, onInput: (e: any) => setValue(e.target.value) }),
      h('button', { type: 'submit' }, 'Add filter'),
    ]),
    active.length
      ? h(
          'ul',
          { class: 'chips', 'aria-label': 'Active filters' },
          active.map((f, i) =>
            h('li', { key: `${f[0]}=${f[1]}` }, [
              h('span', null, describe(f)),
              h('button', { type: 'button', class: 'small', 'aria-label': `Remove filter ${describe(f)}`, onClick: () => remove(i) }, '×'),
            ]),
          ),
        )
      : null,
  ]);
}
