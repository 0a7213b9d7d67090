/**
 * What the transfers running in this process would have to undo if it were stopped now. A
 * command that can be interrupted (cli/command.ts interruptible) runs them, synchronously,
 * from its signal handler before it exits; each transfer registers its undo when it starts and
 * releases it when it has ended, either way.
 */
const undos = new Set<() => void>();

export function undoOnInterrupt(undo: () => void): () => void {
  undos.add(undo);
  return () => undos.delete(undo);
}

/** Runs (newest first) and forgets every registered undo; how many there were. */
export function undoInterrupted(): number {
  const pending = [...undos].reverse();
  undos.clear();
  for (const undo of pending) {
    try {
      undo();
    } catch {
      // The others still run.
    }
  }
  return pending.length;
}
