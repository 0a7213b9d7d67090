/**
 * A relation: the linked entries (to-many: in order, reorderable by drag and keyboard) and a
 * search of the target type by `_q` to link more. Saving writes `set` in the list's order.
 */
import { h } from 'preact';
import { labelOf } from '../words';
import { useRef, useState } from 'preact/hooks';
import { api, uidPath } from '../api';
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
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  const id = fieldId(props.path);

  if (!target) return h(FieldGroup, { ...props }, h('p', { class: 'muted' }, `Links to ${a.target}, which the admin does not manage.`));

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
    } catch (e) {
      if (ticket === latest.current) setError((e as Error).message);
    }
  }

  const pick = (doc: DocRef) => {
    props.onChange(a.multiple ? [...selected, doc] : [doc]);
    if (!a.multiple) setResults(null);
  };
  const taken = new Set(selected.map((d) => d.documentId));

  return h(FieldGroup, { ...props }, [
    a.multiple
      ? selected.length
        ? h(SortableList<DocRef>, {
            id,
            label: `${labelOf(a)}: linked entries`,
            items: selected,
            keyOf: (d) => d.documentId,
            nameOf: (d) => d.label,
            render: () => null,
            onChange: props.onChange,
            className: 'relations',
          })
        : h('p', { class: 'muted' }, 'No linked entries.')
      : selected[0]
        ? h('p', { class: 'relation-one' }, [
            h('span', { 'data-testid': `${id}-value` }, selected[0].label),
            ' ',
            h('button', { type: 'button', class: 'small', 'aria-label': `Remove ${selected[0].label}`, onClick: () => props.onChange([]) }, 'Remove'),
          ])
        : h('p', { class: 'muted' }, 'None.'),
    h('div', { class: 'picker' }, [
      h('input', {
        id,
        type: 'search',
        'aria-label': `Search ${target.displayName} to link to ${labelOf(a)}`,
        placeholder: `Search ${target.displayName}…`,
        value: q,
        onInput: (e: any) => (setQ(e.target.value), void search(e.target.value)),
        onFocus: () => results === null && void search(q),
      }),
      error ? h('p', { class: 'error', role: 'alert' }, error) : null,
      results
        ? h(
            'ul',
            { class: 'results', 'aria-label': `${target.displayName} matching the search` },
            results.filter((d) => !taken.has(d.documentId)).length
              ? results
                  .filter((d) => !taken.has(d.documentId))
                  .map((d) => h('li', { key: d.documentId }, h('button', { type: 'button', class: 'small', onClick: () => pick(d) }, `${a.multiple ? 'Add' : 'Choose'} ${d.label}`)))
              : h('li', { class: 'muted' }, 'Nothing (more) to link.'),
          )
        : null,
    ]),
  ]);
}
