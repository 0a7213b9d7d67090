/**
 * History-API routing: every view has its own URL under /admin (the server answers the
 * app for any of them), so a view can be bookmarked, reloaded and shared.
 */
import { h, type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { browser, type Click } from './dom';

const listeners = new Set<() => void>();

/** Asked before leaving a view in place (an edit view with unsaved changes sets it); false stays. */
let leaveGuard: (() => boolean) | null = null;
export const setLeaveGuard = (guard: (() => boolean) | null) => {
  leaveGuard = guard;
};

export function navigate(to: string, replace = false) {
  if (!replace && leaveGuard && !leaveGuard()) return;
  if (replace) browser.history.replaceState(null, '', to);
  else browser.history.pushState(null, '', to);
  for (const listener of listeners) listener();
  if (!replace) browser.scrollTo(0, 0);
}

/** The current location; re-renders on navigation and on the browser's back and forward. */
export function useLocation(): URL {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((n) => n + 1);
    listeners.add(update);
    browser.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      browser.removeEventListener('popstate', update);
    };
  }, []);
  return new URL(browser.location.href);
}

/** A real link (open in a new tab works) that navigates in place on a plain click. */
export function Link(props: { href: string; class?: string; children?: ComponentChildren; 'aria-current'?: 'page' | undefined }) {
  return h(
    'a',
    {
      ...props,
      onClick: (event: Click) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(props.href);
      },
    },
    props.children,
  );
}
