/**
 * A view fetched the first time it is shown: its module is a chunk of its own (bundle.ts
 * splits the app at each dynamic import), so what every page loads first stays small. The
 * Releases page, the History dialog and the audit log load so; the rich-text editor has its
 * own loader (fields/blocks.ts).
 */
import { h, type ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function lazy<P extends object>(what: string, load: () => Promise<ComponentType<P>>): (props: P) => ReturnType<typeof h> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  return function Lazy(props: P) {
    const [View, setView] = useState<ComponentType<P> | null>(() => loaded);
    const [error, setError] = useState<string | null>(null);
    useEffect(() => {
      if (View) return;
      (loading ??= load().then((view) => (loaded = view))).then(
        (view) => setView(() => view),
        (e) => {
          loading = null;
          setError(`The ${what} did not load (${(e as Error).message}): reload the page to try again.`);
        },
      );
    }, []);
    if (View) return h(View as ComponentType<any>, props);
    return error ? h('p', { class: 'error', role: 'alert' }, error) : h('p', { class: 'muted', role: 'status' }, `Loading the ${what}…`);
  };
}
