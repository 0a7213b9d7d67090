/**
 * CPU time from /proc, for the in-process benches (write-cpu.ts, pg-create-cpu.ts,
 * pg-create-ab.ts): schedstat counts nanoseconds (stat's ticks are 10 ms, too coarse for a
 * burst of writes).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU µs a process (or `self/task/N`) has run; 0 once it is gone. */
export function cpuMicros(pid: number | string): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return 0;
  }
}

/** CPU µs so far of this process's threads, by thread name (threads of one name summed). */
export function threadMicros(): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const task of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      cpu.set(name, (cpu.get(name) ?? 0) + cpuMicros(`self/task/${task}`));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return cpu;
}
