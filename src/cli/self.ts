/** This running program: the compiled `dist/folio`, or `bun src/cli.ts` from source. */

/** The compiled binary's entry lives in its embedded file system (`/$bunfs/…`, `B:\~BUN\…` on Windows). */
export const isCompiled = () => Bun.main.startsWith('/$bunfs/') || /^[A-Z]:[\\/]~BUN[\\/]/.test(Bun.main);

/**
 * The command line that starts this same program again with the same arguments: the compiled
 * binary takes them after its path; a source run needs Bun's own flags and the script first.
 */
export function sameCommandLine(): string[] {
  const args = process.argv.slice(2);
  return isCompiled() ? [process.execPath, ...args] : [process.execPath, ...process.execArgv, Bun.main, ...args];
}
