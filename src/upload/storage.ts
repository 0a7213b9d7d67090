/**
 * The local provider: files live flat in the uploads dir (default `<dataDir>/uploads/`) under names we generate
 * (`<hash><ext>`, `<format>_<hash><ext>`), and are served from `/uploads/<name>`.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';

export class LocalStorage {
  readonly dir: string;

  constructor(uploadsDir: string) {
    this.dir = resolve(uploadsDir);
    mkdirSync(this.dir, { recursive: true });
  }

  /**
   * The path of a stored file, or undefined for anything that is not a plain name inside
   * the folder (separators, `..`, NUL, hidden files): requests cannot reach outside it.
   */
  pathOf(name: string): string | undefined {
    if (!name || name !== basename(name) || name.startsWith('.') || /[\\/\0]/.test(name)) return undefined;
    const path = join(this.dir, name);
    return path.startsWith(this.dir + sep) ? path : undefined;
  }

  /** The path of an existing regular file, for serving. */
  existing(name: string): string | undefined {
    const path = this.pathOf(name);
    if (!path) return undefined;
    try {
      return statSync(path).isFile() ? path : undefined;
    } catch {
      return undefined;
    }
  }

  async write(name: string, bytes: Uint8Array): Promise<void> {
    const path = this.pathOf(name);
    if (!path) throw new Error(`Refusing to store a file named ${JSON.stringify(name)}`);
    await writeFile(path, bytes);
  }

  /** Moves a staged file over its final name (atomic on one file system). */
  rename(from: string, to: string): void {
    const a = this.pathOf(from);
    const b = this.pathOf(to);
    if (a && b) renameSync(a, b);
  }

  /** Removes files that may or may not exist; never throws for a missing one. */
  remove(names: Iterable<string>): void {
    for (const name of names) {
      const path = this.pathOf(name);
      if (path && existsSync(path)) rmSync(path, { force: true });
    }
  }
}
