/**
 * The `$file` of a seed (library/seed.ts): a file read from disk, relative to a folder (the
 * seed file's for `folio seed`, the working folder for startFolio), uploaded through the
 * upload service as POST /api/upload would take it.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Actor } from '../actor';
import type { Instance } from '../instance';
import { typeOfName } from '../upload/storage';
import type { SeedFile, SeedFiles } from './seed';

/** A seed's files, read from paths relative to `baseDir`, stored (and removed) through the upload service. */
export function seedFiles(instance: Pick<Instance, 'uploads'>, baseDir: string, actor?: Actor): SeedFiles {
  return {
    async upload(file: SeedFile): Promise<number> {
      const path = resolve(baseDir, file.path);
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(path);
      } catch {
        throw new Error(`cannot read the file "${file.path}" (${path})`);
      }
      try {
        return await uploadBytes(instance, basename(path), bytes, file, actor);
      } catch (error) {
        throw new Error(`"${file.path}": ${(error as Error).message}`, { cause: error });
      }
    },
    async remove(id: number): Promise<void> {
      await instance.uploads.remove(String(id), actor);
    },
  };
}

/** Stores bytes as a new file (what a seed's `$file` and the example content's images become); returns its id. */
export async function uploadBytes(
  instance: Pick<Instance, 'uploads'>,
  name: string,
  bytes: Uint8Array,
  info: Omit<SeedFile, 'path'> = {},
  actor?: Actor,
): Promise<number> {
  const [stored] = await instance.uploads.upload(
    [new File([bytes], name, { type: typeOfName(name) })],
    [{ alternativeText: info.alternativeText ?? null, caption: info.caption ?? null }],
    {},
    actor,
  );
  return Number(stored!.id);
}
