/**
 * What the settings pages share: loading a resource with its error, a labelled field, the
 * status line screen readers hear after each action, and error text from the API's envelope
 * (field errors by their path, so a form can show them at the control).
 */
import { h, type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';

/** Loads on mount and when `key` changes; `reload` loads again (after a write). */
export function useLoad<T>(load: () => Promise<T>, key = ''): { data: T | null; error: string | null; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (d) => live && (setData(d), setError(null)),
      (e) => live && setError((e as Error).message),
    );
    return () => {
      live = false;
    };
  }, [key, tick]);
  return { data, error, reload: () => setTick((n) => n + 1) };
}

/** An API error as one sentence: its field errors if any, else its message. */
export function errorText(e: unknown): string {
  const errors = e instanceof ApiError ? e.details.errors : undefined;
  return errors?.length ? errors.map((x) => x.message).join('. ') : (e as Error).message;
}

export interface Notice {
  text: string;
  error?: boolean;
}

/** The outcome of the last action: a polite live region for success, an alert for errors. */
export function NoticeLine(props: { notice: Notice | null }) {
  const n = props.notice;
  return h('div', null, [
    h('div', { role: 'status', 'aria-live': 'polite', class: n && !n.error ? 'notice' : 'visually-hidden' }, n && !n.error ? n.text : ''),
    n?.error ? h('p', { class: 'error', role: 'alert' }, n.text) : null,
  ]);
}

/** Runs an action, reporting it in a notice: `done` on success, the API's error otherwise (then undefined). */
export function useAction() {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  async function run<T>(done: string, action: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setNotice(null);
    try {
      const result = await action();
      setNotice({ text: done });
      // A 204's null becomes true: callers test the answer for success.
      return (result ?? true) as T;
    } catch (e) {
      setNotice({ text: errorText(e), error: true });
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  return { notice, busy, run, setNotice };
}

/** A label and its control, side by side in the markup (the control gets `id`). */
export function Field(props: { id: string; label: string; hint?: string; children?: ComponentChildren }) {
  return h('div', { class: 'field' }, [
    h('label', { for: props.id }, props.label),
    props.hint ? h('p', { class: 'muted hint', id: `${props.id}-hint` }, props.hint) : null,
    props.children,
  ]);
}

export const enc = encodeURIComponent;

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
