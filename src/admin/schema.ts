/**
 * What the admin app knows of a content type: enough to build its list and edit views
 * (names, kind, draft & publish, i18n, each attribute's kind and constraints). Private
 * attributes are shown too: the admin manages them, as Strapi's admin does.
 */
import type { AnyModel, Attribute, Component, ContentType, Registry } from '../registry/types';

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
  /** The schema's default (a new entry's form starts with it). */
  default?: unknown;
  /** Relation target, component uid(s). */
  target?: string;
  multiple?: boolean;
  /** Media: `images`, `videos`, `audios`, `files` (any when absent). */
  allowedTypes?: string[];
  /** From the type's view configuration: the edit form's label, description, placeholder, width (of 12). */
  label?: string;
  description?: string;
  placeholder?: string;
  size?: number;
  /** Relation: the inverse side of a link another type owns (written from there too, as in Strapi). */
  mappedBy?: string;
}

export interface AdminComponent {
  uid: string;
  displayName: string;
  category: string;
  attributes: AdminAttribute[];
}

/** A type's view as the app applies it (src/admin/views.ts: its configuration over the defaults). */
export interface EffectiveView {
  mainField: string | null;
  /** `field:asc` or `field:desc`. */
  defaultSort: string;
  pageSize: number;
  /** The list's columns, in order. */
  list: string[];
  /** The edit form's fields in order, each with its width out of 12. */
  edit: { name: string; size: number }[];
  /** Whether an admin configured it (else these are the defaults). */
  configured: boolean;
}

export interface AdminContentType {
  uid: string;
  kind: 'collectionType' | 'singleType';
  displayName: string;
  singularName: string;
  pluralName: string;
  draftAndPublish: boolean;
  localized: boolean;
  /** The attribute that names an entry in lists and relation pickers (Strapi's `mainField`). */
  mainField: string | null;
  attributes: AdminAttribute[];
  /** Given by GET /admin/api/schema. */
  view?: EffectiveView;
}

const NAMING = new Set(['string', 'uid', 'email', 'text', 'enumeration']);

/** Strapi's default main field: the first short text attribute, else the documentId. */
function mainFieldOf(model: AnyModel): string | null {
  const first = Object.values(model.attributes).find((a) => a.kind === 'scalar' && NAMING.has(a.type) && !a.private);
  return first?.name ?? null;
}

function attributesOf(model: AnyModel): AdminAttribute[] {
  return Object.values(model.attributes).map((a: Attribute): AdminAttribute => {
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
          ...(a.default !== undefined && a.type !== 'password' ? { default: a.default } : {}),
        };
      case 'relation':
        return { ...base, type: 'relation', target: a.target, multiple: a.toMany, ...(a.mappedBy ? { mappedBy: a.mappedBy } : {}) };
      case 'media':
        return { ...base, type: 'media', multiple: a.multiple, ...(a.allowedTypes ? { allowedTypes: a.allowedTypes } : {}) };
      case 'component':
        return { ...base, type: 'component', target: a.component, multiple: a.repeatable };
      case 'dynamiczone':
        return { ...base, type: 'dynamiczone', target: a.components.join(',') };
      default:
        return { ...base, type: 'unknown' };
    }
  });
}

export function schemaOf(ct: ContentType): AdminContentType {
  return {
    uid: ct.uid,
    kind: ct.kind,
    displayName: ct.displayName,
    singularName: ct.singularName,
    pluralName: ct.pluralName,
    draftAndPublish: ct.draftAndPublish,
    localized: ct.localized,
    mainField: mainFieldOf(ct),
    attributes: attributesOf(ct),
  };
}

export const componentOf = (c: Component): AdminComponent => ({ uid: c.uid, displayName: c.displayName, category: c.category, attributes: attributesOf(c) });

/** Components nest at most this deep in what the edit view reads (Strapi's own editor stops near here too). */
const MAX_DEPTH = 6;

/**
 * The populate an edit view needs: every relation, media, component and dynamic zone of the
 * model, and the same inside components, so the form shows (and saves back) the whole entry.
 */
export function editPopulate(registry: Registry, model: AnyModel, depth = 1): Record<string, unknown> {
  const populate: Record<string, unknown> = {};
  for (const a of Object.values(model.attributes)) {
    if (a.kind === 'relation' || a.kind === 'media') populate[a.name] = true;
    else if (a.kind === 'component') {
      const nested = depth < MAX_DEPTH ? editPopulate(registry, a.componentModel, depth + 1) : {};
      populate[a.name] = Object.keys(nested).length ? { populate: nested } : true;
    } else if (a.kind === 'dynamiczone') {
      const on: Record<string, unknown> = {};
      for (const component of a.componentModels) {
        const nested = depth < MAX_DEPTH ? editPopulate(registry, component, depth + 1) : {};
        on[component.uid] = Object.keys(nested).length ? { populate: nested } : true;
      }
      populate[a.name] = { on };
    }
  }
  return populate;
}
