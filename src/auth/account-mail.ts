/**
 * The account mails (reset password, address confirmation) from users-permissions' e-mail
 * templates, as Strapi 5.54 fills them: `<%= NAME %>` for the variables it knows (`URL`,
 * `SERVER_URL`, `ADMIN_URL`, `USER` and its keys, `TOKEN`, `CODE`), `null` as nothing, any
 * other text left as it is. Pure: the flows (account-flows.ts) send what this builds.
 *
 * Where Folio differs, on purpose:
 * - values are HTML-escaped in the HTML part (Strapi inserts a username as it is);
 * - a template holding HTML goes out as multipart/alternative with a text part made from it
 *   (tags dropped), where Strapi sends the HTML in both parts;
 * - Strapi's placeholder sender (`Administration Panel <no-reply@strapi.io>`, the default
 *   templates') is not used: the configured sender (FOLIO_EMAIL_FROM) is;
 * - the reset mail of Strapi's default template, which links to `null?code=…` when no reset
 *   page is set, is Folio's own text (resetPasswordText) while the template is the default.
 */
import type { EmailMessage } from './email';
import { resetPasswordText } from './mail-format';
import { DEFAULT_EMAIL, STRAPI_PLACEHOLDER_FROM, type EmailTemplate } from './settings-values';

export type TemplateData = Record<string, unknown>;

/** The value at a dotted path (`USER.email`), and whether the path exists at all. */
function lookup(data: TemplateData, path: string): { found: boolean; value?: unknown } {
  let node: unknown = data;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return { found: false };
    node = (node as Record<string, unknown>)[part];
  }
  return { found: true, value: node };
}

/** lodash's interpolation: null and undefined print nothing, anything else as String() makes it. */
const print = (value: unknown) => (value === null || value === undefined ? '' : String(value));

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Fills `<%= NAME %>` with the data's values; a name the data does not hold stays as written (Strapi's strict pattern skips it). */
export function renderTemplate(layout: string, data: TemplateData, escape: (text: string) => string = (t) => t): string {
  return layout.replace(/<%=\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*%>/g, (whole, path: string) => {
    const { found, value } = lookup(data, path);
    return found ? escape(print(value)) : whole;
  });
}

const looksLikeHtml = (text: string) => /<\/?[a-z][^>]*>/i.test(text.replace(/<%=[\s\S]*?%>/g, ''));

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** The text of an HTML template, its `<%= … %>` kept: tags dropped, paragraphs and breaks as line ends, entities decoded. */
export function htmlTemplateToText(layout: string): string {
  const placeholders: string[] = [];
  const marked = layout.replace(/<%=[\s\S]*?%>/g, (p) => `\u0000${placeholders.push(p) - 1}\u0000`);
  const text = marked
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (entity, name: string) => {
      if (ENTITIES[name.toLowerCase()] !== undefined) return ENTITIES[name.toLowerCase()]!;
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16) || 0xfffd);
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)) || 0xfffd);
      return entity;
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text.replace(/\u0000(\d+)\u0000/g, (_, i: string) => placeholders[Number(i)]!);
}

/**
 * A mail from a template: subject from `object` (with `USER`), body from `message` (with
 * every variable), sender and reply address from the template. `secrets` are the codes it
 * carries, kept out of the log sender's line.
 */
export function templateMail(template: EmailTemplate, to: string, data: TemplateData, secrets: string[]): EmailMessage {
  const subject = renderTemplate(template.object, { USER: data.USER })
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const html = looksLikeHtml(template.message);
  const from =
    template.from?.email && template.from.email !== STRAPI_PLACEHOLDER_FROM.email
      ? { name: template.from.name || undefined, address: template.from.email }
      : undefined;
  return {
    to,
    subject,
    text: renderTemplate(html ? htmlTemplateToText(template.message) : template.message, data),
    ...(html ? { html: renderTemplate(template.message, data, escapeHtml) } : {}),
    ...(from ? { from } : {}),
    ...(template.response_email ? { replyTo: template.response_email } : {}),
    secrets,
  };
}

/** The reset-password mail: Folio's text while the template is Strapi's default, the template otherwise. */
export function resetPasswordMail(
  template: EmailTemplate,
  to: string,
  data: { URL: string | null; SERVER_URL: string; ADMIN_URL: string; USER: object; TOKEN: string },
): EmailMessage {
  if (template.message === DEFAULT_EMAIL.reset_password.options.message) {
    const mail = templateMail({ ...template, message: '' }, to, data, [data.TOKEN]);
    return { ...mail, text: resetPasswordText(data.TOKEN, data.URL ?? undefined) };
  }
  return templateMail(template, to, data, [data.TOKEN]);
}
