/** Number formatting for the report, and the machine a run measured. */
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

export const round = (n: number, digits = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : NaN);
export const fmtMs = (ms: number) =>
  !Number.isFinite(ms) ? '–' : ms < 10 ? `${ms.toFixed(2)} ms` : ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`;
export const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
export const fmtRatio = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '' : n >= 10 ? `${n.toFixed(0)}×` : n.toFixed(2));

export function machine() {
  const cpuModel =
    readFileSync('/proc/cpuinfo', 'utf8')
      .match(/^model name\s*:\s*(.+)$/m)?.[1]
      ?.trim() ??
    cpus()[0]?.model ??
    'unknown';
  let os = process.platform as string;
  try {
    os = readFileSync('/etc/os-release', 'utf8').match(/^PRETTY_NAME="?([^"\n]+)"?/m)?.[1] ?? os;
  } catch {
    // not Linux
  }
  return { nproc: cpus().length, cpuModel, memoryGiB: Math.round(totalmem() / 1024 ** 3), os, bun: Bun.version };
}
