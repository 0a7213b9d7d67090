/**
 * The module host: a project's own files run as they are, through Bun's loader (CommonJS and
 * ES modules, TypeScript transpiled on import, project-relative imports and the project's own
 * `node_modules`, from source and from the compiled binary alike). `@strapi/strapi` and
 * `@strapi/utils` are modules of Folio's own (a Bun plugin's virtual modules, which win over a
 * copy in the project's node_modules): their exports are filled in by strapi-modules.ts.
 *
 * A file that fails to load is a ProjectLoadError naming the file, the line and the cause.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';

export class ProjectLoadError extends Error {
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(message);
    this.name = 'ProjectLoadError';
  }
}

/** What `require('@strapi/strapi')` and `require('@strapi/utils')` answer (the same objects for every project in the process). */
export const STRAPI_MODULE: Record<string, unknown> = {};
export const UTILS_MODULE: Record<string, unknown> = {};

let installed = false;

/** Registers the virtual modules once per process (Bun.plugin is process-wide). */
export function installModuleHost(): void {
  if (installed) return;
  installed = true;
  Bun.plugin({
    name: 'folio-project-modules',
    setup(build) {
      build.module('@strapi/strapi', () => ({ exports: STRAPI_MODULE, loader: 'object' }));
      build.module('@strapi/utils', () => ({ exports: UTILS_MODULE, loader: 'object' }));
    },
  });
}

/** The extensions of a project's code files, in the order one name is looked for (a `.ts` before a `.js`). */
export const CODE_EXTENSIONS = ['.ts', '.js', '.cjs', '.mjs'];

/** The one code file `<dir>/<name>.<ext>` (`src/index`, a type's `lifecycles`, a plugin's `strapi-server`), if any. */
export function codeFileOf(dir: string, name: string): string | undefined {
  for (const ext of CODE_EXTENSIONS) if (existsSync(join(dir, name + ext))) return join(dir, name + ext);
  return undefined;
}

/** A module's default export as Strapi reads it: `export default`, compiled TS (`__esModule`), or `module.exports`. */
export function importDefault(mod: unknown): unknown {
  if (mod && typeof mod === 'object') {
    const m = mod as Record<string | symbol, unknown>;
    if ('default' in m && (m.__esModule || m[Symbol.toStringTag] === 'Module')) return m.default;
  }
  return mod;
}

/** Where an error points in project code: the first stack frame in `root`. */
function locate(error: unknown, root: string): string | undefined {
  const position = (error as { position?: { file?: string; line?: number; column?: number } }).position;
  if (position?.file) return `${relative(root, position.file)}:${position.line}:${position.column}`;
  const stack = (error as Error)?.stack ?? '';
  for (const line of stack.split('\n')) {
    const match = /\(?((?:\/|[A-Za-z]:\\)[^():]+):(\d+):(\d+)\)?\s*$/.exec(line.trim());
    if (match && match[1]!.startsWith(root)) return `${relative(root, match[1]!)}:${match[2]}:${match[3]}`;
  }
  return undefined;
}

/** The message of any thrown value (Bun's build and resolve messages included). */
export const messageOf = (error: unknown): string =>
  error instanceof Error
    ? error.message
    : typeof (error as { message?: unknown })?.message === 'string'
      ? (error as { message: string }).message
      : String(error);

/**
 * Loads a project file (synchronously: Bun's `require` takes ES modules and TypeScript too)
 * and answers its default export. `fresh`: drop a cached copy first (reload in development).
 */
export function loadFile(file: string, root: string): unknown {
  installModuleHost();
  try {
    return importDefault(require(file));
  } catch (error) {
    const where = locate(error, root) ?? relative(root, file);
    const message = messageOf(error).replace(/\nRequire stack:[\s\S]*$/, '');
    const unknownImport = /^Cannot find (?:module|package) '([^']+)'/.exec(message);
    const cause = unknownImport
      ? `unknown import "${unknownImport[1]}" (not installed in the project's node_modules, and not a module Folio provides)`
      : message;
    const error2 = new ProjectLoadError(`Could not load ${relative(root, file)} (${where}): ${cause}`, file);
    (error2 as { cause?: unknown }).cause = error;
    throw error2;
  }
}

/**
 * Forgets every cached module of the project's own under `root` (reload: the next `require`
 * reads the files again). Its `node_modules` stay loaded: packages do not change while it runs.
 */
export function forgetModules(root: string): void {
  const dependencies = `${root}/node_modules/`;
  for (const key of Object.keys(require.cache)) if (key.startsWith(`${root}/`) && !key.startsWith(dependencies)) delete require.cache[key];
}
