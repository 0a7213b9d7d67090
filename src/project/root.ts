/**
 * Where a Strapi project is. Folio is pointed at a folder (`--content-types DIR`, or
 * `--project DIR`); a Strapi project is recognised from its root (a `package.json` or a
 * `config/` folder beside `src/`) or from its `src/` (whose parent holds them). A folder of
 * plain schema files is no project: it runs no code.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export interface ProjectRoot {
  /** The project's root: `config/`, `.env`, `package.json`, `node_modules/`, `public/`. */
  root: string;
  /** Its code and schemas: `<root>/src` (or `dist/src`-less layouts: the folder given). */
  src: string;
}

const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();
const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
const looksLikeRoot = (dir: string) => isFile(join(dir, 'package.json')) || isDir(join(dir, 'config'));

/** The project a folder belongs to, or undefined when it is a plain schema folder. */
export function findProjectRoot(dir: string): ProjectRoot | undefined {
  const folder = resolve(dir);
  if (!isDir(folder)) return undefined;
  if (isDir(join(folder, 'src')) && looksLikeRoot(folder)) return { root: folder, src: join(folder, 'src') };
  if (basename(folder) === 'src' && looksLikeRoot(dirname(folder))) return { root: dirname(folder), src: folder };
  return undefined;
}
