/**
 * A uid: an editable text input with a "Regenerate" button that asks the server for a free
 * value made from the target field (slugified as Strapi does, `-1`, `-2`… if taken). While
 * the entry is new and the uid was not typed by hand, edit.ts keeps it following its target.
 */
import { h } from 'preact';
import { labelOf } from '../words';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { FieldControl } from '../fields';
import { fieldId, useEditor, type FieldProps } from './field';

export function UidField(props: FieldProps) {
  const a = props.attribute;
  const editor = useEditor();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function regenerate() {
    setBusy(true);
    setError(null);
    try {
      const target = a.targetField ? { [a.targetField]: props.siblings[a.targetField] } : {};
      const r = await api('POST', '/uid', {
        contentType: editor.ct.uid,
        field: a.name,
        data: target,
        locale: editor.locale,
        documentId: editor.documentId ?? undefined,
      });
      props.onChange(r.data);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return h(FieldControl, {
    attribute: a,
    id: fieldId(props.path),
    value: props.value as string,
    error: props.errors[props.path] ?? error ?? undefined,
    onChange: props.onChange,
    beside: h('button', { type: 'button', disabled: busy, 'aria-label': `Regenerate ${labelOf(a)}`, onClick: regenerate }, 'Regenerate'),
  });
}
