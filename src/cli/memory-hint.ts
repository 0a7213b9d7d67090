/**
 * How much memory the server's garbage collector sizes itself for.
 *
 * JavaScriptCore lets its heap grow in proportion to the machine's RAM: on a 24 GiB machine it
 * lets a heap double before collecting, so a server whose live heap is ~10 MiB sat at 136–147 MiB
 * RSS under the benchmark's uncached reads. Told the machine has 256 MiB (JSC's `forceRAMSize`),
 * it collects sooner: 114–116 MiB peak with the same throughput (bench, 64 connections; 128 MiB
 * gave 107 MiB but cost up to 20 % on some reads). It is a hint, not a limit: a larger live heap
 * still grows, only in smaller steps.
 *
 * JSC reads its options when the runtime starts, before any of Folio's code, so `folio serve`
 * replaces itself once with the option set (execve: same process id, same arguments and open
 * files), first thing in src/cli.ts: before the rest of the program is loaded (the build
 * splits the entry from it), which keeps the cost to ~3 ms of cold start (after loading it,
 * the second start added ~30 ms). A `BUN_JSC_forceRAMSize` already in the environment is the
 * operator's and is kept; FOLIO_MEMORY_HINT_MB=0 leaves the runtime's default.
 * Where the platform has no execve (Windows) the server runs on unchanged. This module reads
 * process.env itself (not config.ts) because it runs before the rest of the program is loaded.
 */
import { sameCommandLine } from './self';

export const RUNTIME_OPTION = 'BUN_JSC_forceRAMSize';
export const DEFAULT_HINT_MB = 256;

/** The environment to re-execute with, or undefined when this process already runs as it should. */
export function hintedEnvironment(env: Record<string, string | undefined>, hintMB: number): Record<string, string> | undefined {
  if (hintMB === 0 || env[RUNTIME_OPTION] !== undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  out[RUNTIME_OPTION] = String(hintMB * 1024 * 1024);
  return out;
}

/**
 * FOLIO_MEMORY_HINT_MB as a number of MiB; undefined when it is not a non-negative integer
 * (`folio serve` then stops with a usage error, once the program is loaded).
 */
export function memoryHintMB(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return DEFAULT_HINT_MB;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** What is wrong with FOLIO_MEMORY_HINT_MB, for `folio serve`'s usage error; undefined when nothing. */
export function memoryHintError(): string | undefined {
  const raw = process.env.FOLIO_MEMORY_HINT_MB;
  return memoryHintMB(raw) === undefined ? `FOLIO_MEMORY_HINT_MB must be a non-negative integer (MiB), got "${raw}"` : undefined;
}

/** Re-executes `folio serve` with the memory hint set; returns only when it does not (already set, off, no execve). */
export function applyMemoryHint(): void {
  const hintMB = memoryHintMB(process.env.FOLIO_MEMORY_HINT_MB);
  const env = hintMB === undefined ? undefined : hintedEnvironment(process.env, hintMB);
  if (!env || typeof process.execve !== 'function') return;
  const [file, ...rest] = sameCommandLine();
  try {
    process.execve(file!, [file!, ...rest], env);
  } catch {
    // execve failed (a seccomp filter, an exotic platform): run as we are, with the default sizing.
  }
}
