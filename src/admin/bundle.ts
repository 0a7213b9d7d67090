/**
 * Bundles the admin app (src/admin/ui/main.ts and Preact) into minified browser scripts: the
 * app and the chunks it imports (a shared one at once, the rich-text editor when a form needs
 * it), each named by Bun after its content's hash. Imported as a Bun macro (assets.ts), so it runs when
 * the importing module is transpiled: at start-up from source, and inside
 * `bun build --compile`, which leaves the finished texts in the binary (nothing is read from
 * disk at run time there). Bun.build cannot run inside a macro while the bundler waits on it,
 * so this runs Bun's CLI as a child process, into a temporary folder it then removes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** File name → script text; the entry is `app-<hash>.js`, the chunks `<name>-<hash>.js` (names that never need a query string to bust a cache). */
export function adminBundle(): Record<string, string> {
  const entry = `${import.meta.dir}/ui/main.ts`;
  const out = mkdtempSync(join(tmpdir(), 'folio-admin-bundle-'));
  try {
    const result = Bun.spawnSync([
      process.execPath,
      'build',
      entry,
      '--format=esm',
      '--minify',
      '--target=browser',
      '--splitting',
      '--entry-naming=app-[hash].[ext]',
      '--outdir',
      out,
    ]);
    if (result.exitCode !== 0) throw new Error(`The admin app did not bundle:\n${result.stderr.toString()}`);
    const files: Record<string, string> = {};
    for (const name of readdirSync(out)) files[name] = readFileSync(join(out, name), 'utf8');
    if (!Object.keys(files).some((name) => name.startsWith('app-'))) throw new Error('The admin app did not bundle: no entry');
    return files;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
