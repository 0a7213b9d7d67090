/**
 * Inverse sides that point at nothing. A relation with `mappedBy` reads the links its owning
 * attribute (the target's attribute of that name, with `inversedBy` pointing back) stores. When
 * that attribute does not exist, is no relation, or points elsewhere, Strapi 5 still starts: its
 * database layer gives the side no join table of its own, so the attribute is never populated
 * (left out of the answer, `populate=*` included), a value written to it is accepted and ignored,
 * and a filter or sort through it fails. Public projects ship such schemas (foodadvisor's user
 * extension declares `articles` with `mappedBy: "author"` while the article has no `author`).
 *
 * Folio starts too: the side is left out of the model with a warning naming the file and the
 * attribute, a write may carry it (its value is ignored), populate leaves it out as Strapi does,
 * and a filter or sort through it is a 400 (Strapi's 500 there is an accident, not an answer).
 * An `inversedBy` naming nothing still stops start-up, as it stops Strapi's.
 */
import type { ContentType, IgnoredAttribute, RelationAttribute, Registry } from './types';

/** Why a mappedBy side reads no links, or undefined when its owning attribute points back. */
function danglingReason(model: ContentType, a: RelationAttribute, target: ContentType): string | undefined {
  const name = a.mappedBy!;
  const partner = target.attributes[name];
  if (!partner) return `${target.uid} (${target.file}) has no attribute "${name}"`;
  if (partner.kind !== 'relation') return `${target.uid} attribute "${name}" (${target.file}) is not a relation`;
  if (partner.target !== model.uid) return `${target.uid} attribute "${name}" (${target.file}) targets "${partner.target}", not ${model.uid}`;
  if (partner.inversedBy !== a.name) {
    return `${target.uid} attribute "${name}" (${target.file}) ${partner.inversedBy ? `has inversedBy "${partner.inversedBy}"` : 'has no inversedBy'}, not "${a.name}"`;
  }
  return undefined;
}

/**
 * Takes the dangling mappedBy sides out of these models (and their compiled fields), recording
 * each in `ignored` and `warnings`. Runs before the cross-file checks, which then see only
 * inverse sides that have an owner. A side whose target type does not exist is left for those
 * checks to refuse.
 */
export function dropDanglingInverses(models: ContentType[], ignored: IgnoredAttribute[], warnings: string[]): void {
  const byUid = new Map(models.map((m) => [m.uid, m]));
  for (const model of models) {
    for (const a of Object.values(model.attributes)) {
      if (a.kind !== 'relation' || a.mappedBy === undefined) continue;
      const target = byUid.get(a.target);
      if (!target) continue;
      const why = danglingReason(model, a, target);
      if (!why) continue;
      delete model.attributes[a.name];
      delete model.fields[a.name];
      ignored.push({ uid: model.uid, file: model.file, attribute: a.name, target: a.target, dangling: true });
      warnings.push(
        `${model.file} (attribute "${a.name}"): mappedBy "${a.mappedBy}": ${why}, so this side has no links to read. ` +
          'It is left out as Strapi leaves it out: never populated, a value written to it is ignored, filters and sorts cannot use it',
      );
    }
  }
}

/** Whether `name` is a dangling mappedBy side of the model `uid` (a write may carry it; populate leaves it out). */
export function isDangling(registry: Pick<Registry, 'ignored'>, uid: string, name: string): boolean {
  return registry.ignored.some((i) => i.dangling === true && i.uid === uid && i.attribute === name);
}
