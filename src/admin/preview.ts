/**
 * The edit view's "Preview" link. With a Strapi project whose `config/admin` has Strapi 5's
 * preview (`preview: { enabled: true, config: { handler(uid, { documentId, locale, status }) } }`),
 * its handler answers the URL (or null: no preview for that document), as in Strapi. Otherwise
 * FOLIO_PREVIEW_URL, a template whose {uid}, {pluralApiId}, {documentId}, {locale} and {status}
 * are filled (each value URL-encoded) for the document being edited.
 */
import type { Instance } from '../instance';
import type { ContentType } from '../registry/types';

export interface PreviewTarget {
  documentId: string;
  /** '' for types without i18n. */
  locale: string;
  status: 'draft' | 'published';
}

type Handler = (uid: string, params: { documentId: string; locale?: string; status: string }) => unknown;

/** The project's preview handler, when its config/admin turns preview on with one. */
function projectHandler(instance: Instance): Handler | undefined {
  const preview = instance.project?.strapi.config.get('admin.preview') as { enabled?: unknown; config?: { handler?: unknown } } | undefined;
  if (!preview || preview.enabled === false || typeof preview.config?.handler !== 'function') return undefined;
  return preview.config.handler as Handler;
}

/** Whether the admin shows a Preview link at all. */
export function previewEnabled(instance: Instance): boolean {
  return !!projectHandler(instance) || !!instance.config.previewUrl;
}

/** FOLIO_PREVIEW_URL filled for a document. */
export function fillPreviewTemplate(template: string, ct: ContentType, target: PreviewTarget): string {
  const values: Record<string, string> = {
    uid: ct.uid,
    pluralApiId: ct.pluralName,
    documentId: target.documentId,
    locale: target.locale,
    status: target.status,
  };
  return template.replace(/\{(uid|pluralApiId|documentId|locale|status)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
}

/** The preview URL of a document, or null (no preview configured, or the handler has none for it; a failing handler is logged). */
export async function previewUrl(instance: Instance, ct: ContentType, target: PreviewTarget): Promise<string | null> {
  const handler = projectHandler(instance);
  if (handler) {
    try {
      const url = await handler(ct.uid, { documentId: target.documentId, ...(target.locale ? { locale: target.locale } : {}), status: target.status });
      return typeof url === 'string' && url ? url : null;
    } catch (error) {
      instance.log.error("the project's preview handler failed", { error, uid: ct.uid, documentId: target.documentId });
      return null;
    }
  }
  return instance.config.previewUrl ? fillPreviewTemplate(instance.config.previewUrl, ct, target) : null;
}
