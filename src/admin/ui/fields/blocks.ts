/**
 * A rich-text (`blocks`) field. The editor itself (rich-editor.ts, on ProseMirror) is most of
 * the app's weight, so it is a chunk of its own: fetched from /admin/assets the first time a
 * form shows rich text, then kept. Lists, settings and the Media Library never load it.
 */
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { FieldGroup, type FieldProps } from './field';

type Editor = (props: FieldProps) => any;
let loaded: Editor | null = null;
let loading: Promise<Editor> | null = null;

const load = () => (loading ??= import('./rich-editor').then((m) => (loaded = m.RichTextEditor)));

export function BlocksField(props: FieldProps) {
  const [Editor, setEditor] = useState<Editor | null>(() => loaded);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (Editor) return;
    load().then(
      (editor) => setEditor(() => editor),
      (e) => {
        loading = null;
        setError(`The editor did not load (${(e as Error).message}): reload the page to try again.`);
      },
    );
  }, []);
  if (Editor) return h(Editor, props);
  return h(
    FieldGroup,
    { ...props },
    error ? h('p', { class: 'error', role: 'alert' }, error) : h('p', { class: 'muted', role: 'status' }, 'Loading the editor…'),
  );
}
