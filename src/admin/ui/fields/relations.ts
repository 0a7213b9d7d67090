/**
 * A relation: the linked entries (each a link that opens it; to-many: in order, reorderable by
 * drag and keyboard) and a combobox (the ARIA 1.2 pattern, named by the field's label) that
 * searches the target type by `_q`: typing or ArrowDown opens its listbox, ArrowUp/ArrowDown
 * move through the options, Enter links the active one, Escape closes. Saving writes `set` in
 * the list's order.
 */
import { h } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { labelOf } from '../words';
import { api, uidPath } from '../api';
import { Link } from '../router';
import { FieldGroup, fieldId, useEditor, type FieldProps } from './field';
import { SortableList } from './sortable';
import { docLabel, type DocRef } from './values';

export function RelationField(props: FieldProps) {
  const a = props.attribute;
  const editor = useEditor();
  const target = editor.schema.contentTypes.find((c) => c.uid === a.target);
  const selected = props.value as DocRef[];
  const [q, setQ] = useState('');
  const [results, setResults] = useState<DocRef[] | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  const id = fieldId(props.path);
  const listId = `${id}-listbox`;

  if (!target) return h(FieldGroup, { ...props }, h('p', { class: 'muted' }, `Links to ${a.target}, which the admin does not manage.`));

  const hrefOf = (d: DocRef) =>
    `/admin/content/${encodeURIComponent(target.uid)}/${encodeURIComponent(d.documentId)}${target.localized && editor.locale ? `?locale=${encodeURIComponent(editor.locale)}` : ''}`;
  const taken = new Set(selected.map((d) => d.documentId));
  const options = (results ?? []).filter((d) => !taken.has(d.documentId));
  const optionId = (d: DocRef) => `${id}-option-${d.documentId}`;

  /** Latest-wins: a slow answer to an older query never replaces a newer one. */
  async function search(text: string) {
    const ticket = ++latest.current;
    const params = new URLSearchParams({ 'pagination[pageSize]': '10' });
    if (text.trim()) params.set('_q', text.trim());
    if (target!.localized && editor.locale) params.set('locale', editor.locale);
    try {
      const r = await api('GET', `/content/${uidPath(target!.uid)}?${params}`);
      if (ticket !== latest.current) return;
      setError(null);
      setResults(r.data.map((d: Record<string, unknown>) => ({ documentId: String(d.documentId), label: docLabel(d, target!.mainField) })));
      setActive(-1);
    } catch (e) {
      if (ticket === latest.current) setError((e as Error).message);
    }
  }

  const show = (text: string) => {
    setOpen(true);
    void search(text);
  };
  const pick = (doc: DocRef) => {
    props.onChange(a.multiple ? [...selected, doc] : [doc]);
    setActive(-1);
    if (!a.multiple) setOpen(false);
  };

  function keydown(e: KeyboardEvent) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) return show(q);
      if (!options.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + options.length) % options.length);
    } else if (e.key === 'Enter') {
      // Enter picks; it never submits the form from here.
      e.preventDefault();
      if (open && options[active]) pick(options[active]!);
    } else if (e.key === 'Escape') {
      if (open) e.preventDefault(), e.stopPropagation(), setOpen(false);
      else if (q) setQ('');
    }
  }

  const label = labelOf(a);
  const listed = a.multiple
    ? selected.length
      ? h(SortableList<DocRef>, {
          id,
          label: `${label}: linked entries`,
          items: selected,
          keyOf: (d) => d.documentId,
          nameOf: (d) => d.label,
          linkOf: hrefOf,
          render: () => null,
          onChange: props.onChange,
          className: 'relations',
        })
      : h('p', { class: 'muted' }, 'No linked entries.')
    : selected[0]
      ? h('p', { class: 'relation-one' }, [
          h('span', { 'data-testid': `${id}-value` }, h(Link, { href: hrefOf(selected[0]) }, selected[0].label)),
          ' ',
          h('button', { type: 'button', class: 'small', 'aria-label': `Remove ${selected[0].label}`, onClick: () => props.onChange([]) }, 'Remove'),
        ])
      : h('p', { class: 'muted' }, 'None.');

  return h(FieldGroup, { ...props }, [
    listed,
    h('div', { class: 'combo' }, [
      h('input', {
        id,
        type: 'text',
        role: 'combobox',
        autocomplete: 'off',
        'aria-labelledby': `${id}-label`,
        'aria-describedby': `${id}-hint`,
        'aria-autocomplete': 'list',
        'aria-expanded': open ? 'true' : 'false',
        'aria-controls': listId,
        'aria-activedescendant': open && options[active] ? optionId(options[active]!) : undefined,
        placeholder: `Search ${target.displayName}…`,
        value: q,
        onInput: (e: any) => (setQ(e.target.value), show(e.target.value)),
        onClick: () => !open && show(q),
        onKeyDown: keydown,
        onBlur: () => setOpen(false),
      }),
      h('span', { id: `${id}-hint`, class: 'visually-hidden' }, `Type to search ${target.displayName}, then choose with the arrow keys and Enter.`),
      h(
        'ul',
        { id: listId, role: 'listbox', 'aria-label': `${target.displayName} to link to ${label}`, class: 'listbox', hidden: !open || !options.length },
        options.map((d, i) =>
          h(
            'li',
            {
              key: d.documentId,
              id: optionId(d),
              role: 'option',
              'aria-selected': i === active ? 'true' : 'false',
              class: i === active ? 'active' : undefined,
              // Chosen on mousedown, before the input's blur closes the list.
              onMouseDown: (e: Event) => (e.preventDefault(), pick(d)),
            },
            d.label,
          ),
        ),
      ),
      open && (results === null || !options.length)
        ? h(
            'p',
            { class: 'combo-note muted' },
            results === null ? 'Searching…' : q.trim() ? `No ${target.displayName} matches “${q.trim()}”.` : 'Nothing (more) to link.',
          )
        : null,
      error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    ]),
  ]);
}
