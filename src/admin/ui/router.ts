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

/** The URL the app shows: where the browser's Back returns to when the guard says stay. */
let shown = browser.location.href;

export function navigate(to: string, replace = false) {
  if (!replace && leaveGuard && !leaveGuard()) return;
  if (replace) browser.history.replaceState(null, '', to);
  else browser.history.pushState(null, '', to);
  shown = browser.location.href;
  for (const listener of listeners) listener();
  if (!replace) browser.scrollTo(0, 0);
}

/**
 * The browser's Back and Forward: the address has already changed when popstate fires, so
 * staying (the guard says no) puts the view's URL back as a new entry; the view, never
 * re-rendered, keeps its edits. One listener for the app, so the guard asks once.
 */
const withoutHash = (href: string) => href.split('#')[0];
browser.addEventListener('popstate', () => {
  // The skip link's `#main` (and Back over it) moves focus, not the view: no question.
  if (withoutHash(browser.location.href) === withoutHash(shown)) return void (shown = browser.location.href);
  if (leaveGuard && !leaveGuard()) {
    browser.history.pushState(null, '', shown);
    return;
  }
  shown = browser.location.href;
  for (const listener of listeners) listener();
});

/** The current location; re-renders on navigation and on the browser's back and forward. */
export function useLocation(): URL {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((n) => n + 1);
    listeners.add(update);
    return () => void listeners.delete(update);
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
