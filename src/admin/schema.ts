/**
 * What the admin app knows of a content type: enough to build its list and edit views
 * (names, kind, draft & publish, i18n, each attribute's kind and constraints). Private
 * attributes are shown too: the admin manages them, as Strapi's admin does.
 */
import type { ContentType } from '../registry/types';

export interface AdminAttribute {
  name: string;
  /** The scalar type (`string`, `integer`…) or the kind (`relation`, `media`, `component`, `dynamiczone`). */
  type: string;
  required: boolean;
  localized: boolean;
  enum?: string[];
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  targetField?: string;
  customField?: string;
  /** Relation target, component uid(s). */
  target?: string;
  multiple?: boolean;
}

export interface AdminContentType {
  uid: string;
  kind: 'collectionType' | 'singleType';
  displayName: string;
  singularName: string;
  pluralName: string;
  draftAndPublish: boolean;
  localized: boolean;
  attributes: AdminAttribute[];
}

export function schemaOf(ct: ContentType): AdminContentType {
  const attributes = Object.values(ct.attributes).map((a): AdminAttribute => {
    const base = { name: a.name, required: a.required, localized: a.localized };
    switch (a.kind) {
      case 'scalar':
        return {
          ...base,
          type: a.type,
          ...(a.enum ? { enum: a.enum } : {}),
          ...(a.min !== undefined ? { min: a.min } : {}),
          ...(a.max !== undefined ? { max: a.max } : {}),
          ...(a.minLength !== undefined ? { minLength: a.minLength } : {}),
          ...(a.maxLength !== undefined ? { maxLength: a.maxLength } : {}),
          ...(a.targetField ? { targetField: a.targetField } : {}),
          ...(a.customField ? { customField: a.customField } : {}),
        };
      case 'relation':
        return { ...base, type: 'relation', target: a.target, multiple: a.toMany };
      case 'media':
        return { ...base, type: 'media', multiple: a.multiple };
      case 'component':
        return { ...base, type: 'component', target: a.component, multiple: a.repeatable };
      case 'dynamiczone':
        return { ...base, type: 'dynamiczone', target: a.components.join(',') };
      default:
        return { ...base, type: 'unknown' };
    }
  });
  return {
    uid: ct.uid,
    kind: ct.kind,
    displayName: ct.displayName,
    singularName: ct.singularName,
    pluralName: ct.pluralName,
    draftAndPublish: ct.draftAndPublish,
    localized: ct.localized,
    attributes,
  };
}
