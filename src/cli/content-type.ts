/**
 * TYPE in every command that takes one (`import`, `history`, `release`, `seed`): a content
 * type's plural API id (`articles`), its singular API id (`article`) or its uid
 * (`api::article.article`). Actions (`permissions`, `token create --actions`) take TYPE.ACTION
 * the same way (auth/actions.ts resolveActions), `migrate --rename` MODEL too (db/schema-rename.ts).
 * Strapi's own types are not documents and are not named here.
 */
import type { ContentType, Registry } from '../registry/types';
import { UsageError } from './command';

export function findContentType(registry: Registry, name: string): ContentType | undefined {
  return registry.contentTypes.filter((c) => !c.system).find((c) => c.pluralName === name || c.singularName === name || c.uid === name);
}

export function contentTypeArg(registry: Registry, name: string): ContentType {
  const ct = findContentType(registry, name);
  if (ct) return ct;
  const types = registry.contentTypes.filter((c) => !c.system);
  throw new UsageError(
    `Unknown content type "${name}" (one of: ${types.map((c) => c.pluralName).join(', ')}; or a uid such as ${types[0]?.uid ?? 'api::article.article'})`,
  );
}
