/**
 * The few browser globals the app touches, typed as far as it uses them. The project's
 * TypeScript settings carry Bun's types, not the DOM library, and a `lib="dom"` reference
 * in one file would change the types of every file in the program (server code and tests).
 */
export interface Control {
  value: string;
  checked: boolean;
  focus(): void;
}

interface Browser {
  document: { getElementById(id: string): (Control & object) | null };
  history: { pushState(state: unknown, title: string, url: string): void; replaceState(state: unknown, title: string, url: string): void };
  location: { href: string };
  scrollTo(x: number, y: number): void;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

export const browser = globalThis as unknown as Browser;

/** A click with a modifier or another button: the browser's own (new tab, new window). */
export interface Click {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  preventDefault(): void;
}

/** The value of the input, select or textarea an event came from. */
export const valueOf = (event: Event) => (event.target as unknown as Control).value;
export const checkedOf = (event: Event) => (event.target as unknown as Control).checked;
