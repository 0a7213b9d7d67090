/**
 * The linked model: once every schema is read and checked, each relation attribute holds its
 * target content type (and the other side's attribute), each morphOne/morphMany side its
 * target, each component attribute its component, each dynamic zone its components. The rest
 * of Folio follows these links instead of looking targets up by name. They are not
 * enumerable, so a model still prints, compares and serialises as the schemas describe it
 * (and two installations in one process never share them: each loads its own models).
 */
import type { Attribute, Component, ContentType } from './types';

function link<A extends Attribute, K extends keyof A>(attribute: A, key: K, value: A[K]): void {
  Object.defineProperty(attribute, key, { value, enumerable: false, configurable: true, writable: false });
}

/** Links every attribute of these models; checkRegistry has made sure every target and component exists. */
export function linkModels(contentTypes: ContentType[], components: Component[]): void {
  const types = new Map(contentTypes.map((ct) => [ct.uid, ct]));
  const parts = new Map(components.map((c) => [c.uid, c]));
  for (const model of [...contentTypes, ...components]) {
    for (const attribute of Object.values(model.attributes)) {
      switch (attribute.kind) {
        case 'relation': {
          const target = types.get(attribute.target)!;
          link(attribute, 'targetType', target);
          const other = attribute.inversedBy ?? attribute.mappedBy;
          const inverse = other ? target.attributes[other] : undefined;
          if (inverse?.kind === 'relation') link(attribute, 'inverse', inverse);
          break;
        }
        case 'morph':
          if (attribute.target) link(attribute, 'targetType', types.get(attribute.target));
          break;
        case 'component':
          link(attribute, 'componentModel', parts.get(attribute.component)!);
          break;
        case 'dynamiczone':
          link(
            attribute,
            'componentModels',
            attribute.components.map((uid) => parts.get(uid)!),
          );
          break;
      }
    }
  }
}
