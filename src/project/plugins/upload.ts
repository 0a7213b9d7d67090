/**
 * `strapi.plugin('upload').service('upload')`: the basics of Strapi's upload service on Folio's
 * (`instance.uploads`, which keeps its type policy, size limit and image formats), with actor
 * `project`:
 *
 *   upload({ data: { fileInfo, ref, refId, field }, files })   (files: ctx.request.files items,
 *     or Strapi's `{ filepath, originalFilename, mimetype }`; one or a list)
 *   findOne(id), findMany(params), updateFileInfo(id, { name, alternativeText, caption }), remove(file)
 */
import type { Instance } from '../../instance';
import { PROJECT_ACTOR } from '../documents';
import { ApplicationError } from '../strapi-errors';
import type { PluginParts } from './plugin';

type Obj = Record<string, any>;

/** A file as project code hands it over → a File. */
function toFile(item: Obj): File {
  if (item instanceof File) return item;
  if (item?.file instanceof Blob)
    return item.file instanceof File ? item.file : new File([item.file], item.originalFilename ?? item.name ?? 'file', { type: item.mimetype ?? item.type });
  const path = item?.filepath ?? item?.path;
  if (typeof path === 'string') {
    const blob = Bun.file(path);
    return new File([blob], item.originalFilename ?? item.name ?? path.split('/').pop()!, { type: item.mimetype ?? item.type ?? blob.type });
  }
  throw new ApplicationError('A file to upload must be a ctx.request.files item or { filepath, originalFilename, mimetype }');
}

export function uploadPlugin(instance: Instance): PluginParts {
  return {
    services: {
      upload: () => ({
        async upload({ data = {}, files }: Obj = {}) {
          const list = (Array.isArray(files) ? files : files ? [files] : []).map(toFile);
          const infos = Array.isArray(data.fileInfo) ? data.fileInfo : list.map(() => data.fileInfo ?? {});
          const attach =
            data.ref || data.refId || data.field ? { ref: data.ref, refId: data.refId === undefined ? undefined : String(data.refId), field: data.field } : {};
          return instance.uploads.upload(list, infos, attach, PROJECT_ACTOR);
        },
        findOne: async (id: string | number) => (await instance.uploads.findOne(id)) ?? null,
        findMany: (params: Obj = {}) => instance.uploads.findMany(params),
        updateFileInfo: (id: string | number, info: Obj = {}) => instance.uploads.updateInfo(String(id), info, PROJECT_ACTOR),
        async remove(file: Obj | string | number) {
          const id = typeof file === 'object' && file !== null ? file.id : file;
          return (await instance.uploads.remove(String(id), PROJECT_ACTOR)) ?? null;
        },
      }),
    },
  };
}
