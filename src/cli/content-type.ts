/**
 * TYPE in every command that takes one (`import`, `history`, `release`): a content type's
 * plural API id (`articles`), its singular API id (`article`) or its uid
 * (`api::article.article`). Strapi's own types are not documents and are not named here.
 */
import type { ContentType, Registry } from '../registry/types';
import { UsageError } from './command';

export function contentTypeArg(registry: Registry, name: string): ContentType {
  const types = registry.contentTypes.filter((c) => !c.system);
  const ct = types.find((c) => c.pluralName === name || c.singularName === name || c.uid === name);
  if (!ct) throw new UsageError(`Unknown content type "${name}" (one of: ${types.map((c) => c.pluralName).join(', ')}; or a uid such as ${types[0]?.uid ?? 'api::article.article'})`);
  return ct;
}
