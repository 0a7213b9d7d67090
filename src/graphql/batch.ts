/**
 * Batching for the fields that are not read through populate (Strapi's own plugin fields: a
 * user's role, a role's permissions and users): each call while graphql-js resolves a level
 * waits, and the keys of the whole level are read together once every resolver of the level
 * has been called (the scheduling DataLoader uses: after the promise jobs queued so far, then
 * the next tick). One read per field and level, never one per row.
 */
import type { GraphqlContext } from './types';

interface Pending<K, V> {
  keys: Set<K>;
  waiters: { key: K; resolve(value: V | undefined): void; reject(error: unknown): void }[];
}

const resolved = Promise.resolve();

/**
 * The value of `key`, read with every other key asked under `name` in this request at the same
 * time: `load` gets the distinct keys once and answers a map (a key it leaves out: undefined).
 */
export function batched<K, V>(context: GraphqlContext, name: string, key: K, load: (keys: K[]) => Promise<Map<K, V>>): Promise<V | undefined> {
  const batches = (context.batches ??= new Map()) as Map<string, Pending<K, V>>;
  let pending = batches.get(name);
  if (!pending) {
    const batch: Pending<K, V> = (pending = { keys: new Set(), waiters: [] });
    batches.set(name, batch);
    resolved.then(() =>
      process.nextTick(() => {
        batches.delete(name);
        resolved
          .then(() => load([...batch.keys]))
          .then(
            (values) => {
              for (const w of batch.waiters) w.resolve(values.get(w.key));
            },
            (error) => {
              for (const w of batch.waiters) w.reject(error);
            },
          );
      }),
    );
  }
  const batch = pending;
  batch.keys.add(key);
  return new Promise<V | undefined>((resolve, reject) => batch.waiters.push({ key, resolve, reject }));
}
