#!/usr/bin/env bun
/** Entry point of `bun src/cli.ts …` and of the compiled `dist/folio`. */
import { applyMemoryHint } from './cli/memory-hint';

// First, before the program is loaded: `serve` may replace this process with one whose
// garbage collector is sized by FOLIO_MEMORY_HINT_MB (src/cli/memory-hint.ts).
if (process.argv[2] === 'serve') applyMemoryHint();
if (process.argv[2] === '__node-host') {
  // The package's Node entry runs Folio here, in a child process (src/node-host.ts); not a command.
  const { runNodeHost } = await import('./node-host');
  process.exit(await runNodeHost());
}
const { main } = await import('./cli/main');
process.exitCode = await main(process.argv.slice(2));
