#!/usr/bin/env bun
/** Entry point of `bun src/cli.ts …` and of the compiled `dist/folio`. */
import { main } from './cli/main';

process.exitCode = await main(process.argv.slice(2));
