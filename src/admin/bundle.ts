/**
 * Bundles the admin app (src/admin/ui/main.ts and Preact) into one minified browser script.
 * Imported as a Bun macro (assets.ts), so it runs when the importing module is transpiled:
 * at start-up from source, and inside `bun build --compile`, which leaves the finished text
 * in the binary (nothing is read from disk at run time there). Bun.build cannot run inside a
 * macro while the bundler waits on it, so this runs Bun's CLI as a child process.
 */
export function adminBundle(): string {
  const entry = `${import.meta.dir}/ui/main.ts`;
  const result = Bun.spawnSync([process.execPath, 'build', entry, '--format=esm', '--minify', '--target=browser']);
  if (result.exitCode !== 0) throw new Error(`The admin app did not bundle:\n${result.stderr.toString()}`);
  return result.stdout.toString();
}
