/**
 * `strapi.plugin('email').service('email')`: Strapi's email service over Folio's sender
 * (`instance.email`: SMTP when FOLIO_SMTP_URL, or the project's nodemailer / sendmail
 * provider options, say where — project/config.ts emailSmtpUrl; else the log).
 *
 *   send({ to, from, cc, bcc, replyTo, subject, text, html })
 *   sendTemplatedEmail({ to, … }, { subject, text, html }, data)   (`<%= user.name %>`)
 *   getProviderSettings()
 *
 * `from` and `replyTo` default to the plugin's `settings.defaultFrom` / `defaultReplyTo`, as
 * Strapi's providers do. Folio's sender delivers one message per recipient: each address of
 * `to`, `cc` and `bcc` gets its own, addressed to it (Strapi sends one message to all). A
 * failed delivery is logged, not thrown (Folio's sender never tells a caller whether an
 * address exists).
 */
import { parseMailbox } from '../../auth/mail-format';
import type { EmailMessage } from '../../auth/email';
import type { Instance } from '../../instance';
import { ApplicationError } from '../strapi-errors';
import type { PluginParts } from './plugin';
import type { ProjectStrapi } from '../strapi';

type Obj = Record<string, any>;

/** Strapi's default email configuration (plugin::email). */
export const EMAIL_DEFAULTS = { provider: 'sendmail', providerOptions: {}, settings: { defaultFrom: 'Strapi <no-reply@strapi.io>' } };

/** `a@x.org, B <b@y.org>` or a list of them → the addresses. */
function addresses(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const list = Array.isArray(value) ? value : String(value).split(',');
  return list
    .flatMap((item) => (typeof item === 'object' && item && 'address' in item ? [String((item as Obj).address)] : [String(item)]))
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => /<([^>]+)>/.exec(s)?.[1] ?? s);
}

/** The text of an HTML body, for a message sent without `text`. */
function textOf(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/h\d|\/li)\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
}

/** Every path of `data` (`user`, `user.name`…), as @strapi/utils keysDeep lists them. */
function keysDeep(data: unknown, prefix = ''): string[] {
  if (!data || typeof data !== 'object') return [];
  return Object.entries(data as Obj).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return [path, ...keysDeep(value, path)];
  });
}

/** `<%= path %>` for the paths `data` has (Strapi's strict interpolation: other text is left as it is). */
export function fillTemplate(template: string, data: Obj): string {
  const allowed = new Set(keysDeep(data));
  return template.replace(/<%=\s*([\w$.[\]]+?)\s*%>/g, (whole, path: string) => {
    if (!allowed.has(path)) return whole;
    const value = path.split('.').reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Obj)[key] : undefined), data);
    return value === undefined || value === null ? '' : String(value);
  });
}

export function emailPlugin(instance: Instance, log: ProjectStrapi['log']): PluginParts {
  return {
    config: EMAIL_DEFAULTS,
    services: {
      email: ({ strapi }) => {
        const settings = () => (strapi.config.get('plugin::email.settings', {}) ?? {}) as Obj;
        const send = async (options: Obj = {}) => {
          const { from, to, cc, bcc, replyTo, subject, text, html } = options;
          const recipients = [...new Set([...addresses(to), ...addresses(cc), ...addresses(bcc)])];
          if (recipients.length === 0) throw new Error('No recipients defined');
          const sender = from ?? settings().defaultFrom;
          let mailbox: ReturnType<typeof parseMailbox> | undefined;
          try {
            mailbox = sender ? parseMailbox(String(sender), 'from') : undefined;
          } catch (error) {
            throw new ApplicationError((error as Error).message);
          }
          for (const recipient of recipients) {
            // html, from and replyTo are carried for the senders that take them.
            const message: EmailMessage & Obj = {
              to: recipient,
              subject: String(subject ?? ''),
              text: typeof text === 'string' ? text : typeof html === 'string' ? textOf(html) : '',
              ...(typeof html === 'string' ? { html } : {}),
              ...(mailbox ? { from: mailbox } : {}),
              ...((replyTo ?? settings().defaultReplyTo) ? { replyTo: String(replyTo ?? settings().defaultReplyTo) } : {}),
            };
            await instance.email.send(message);
          }
        };
        return {
          getProviderSettings: () => strapi.config.get('plugin::email'),
          send,
          async sendTemplatedEmail(emailOptions: Obj = {}, emailTemplate: Obj = {}, data: Obj = {}) {
            const attributes = ['subject', 'text', 'html'];
            const missing = attributes.filter((a) => !(a in emailTemplate));
            if (missing.length) throw new Error(`Following attributes are missing from your email template : ${missing.join(', ')}`);
            const filled: Obj = {};
            for (const a of attributes) if (emailTemplate[a]) filled[a] = fillTemplate(String(emailTemplate[a]), data);
            return send({ ...emailOptions, ...filled });
          },
        };
      },
    },
    bootstrap: ({ strapi }) => {
      const provider = String(strapi.config.get('plugin::email.provider', 'sendmail'));
      if (!instance.config.smtpUrl && strapi.config.has('plugins.email'))
        log.warn(`[email]: the "${provider}" provider's options name no SMTP server Folio can use; mails are written to the log (set FOLIO_SMTP_URL)`);
    },
  };
}
