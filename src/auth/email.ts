/**
 * Outgoing e-mail (password resets, address confirmations). The default sender writes the
 * message to the log, its codes and links redacted; with FOLIO_SMTP_URL it goes out over SMTP
 * (smtp.ts). Another sender can be plugged in (instance.email).
 */
import { readFileSync } from 'node:fs';
import { createLogger, type LogFormat, type Logger, type LogLevel } from '../log';
import { defaultFrom, parseMailbox, parseSmtpUrl, type Mailbox, type SmtpSettings } from './mail-format';
import { sendMail } from './smtp';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML version (the mail is then multipart/alternative). */
  html?: string;
  /** The sender, instead of the configured one (a template's `from`). */
  from?: Mailbox;
  /** Where replies go (a template's `response_email`). */
  replyTo?: string;
  /** Codes and tokens the mail carries: never written to the log (see `redact`). */
  secrets?: string[];
}

/** The text with every secret replaced, for a log line. */
export const redact = (text: string, secrets: string[] = []) =>
  secrets.filter((s) => s.length >= 8).reduce((out, secret) => out.split(secret).join('[redacted]'), text);

export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}

/**
 * Writes each message to the log (one line; as JSON under FOLIO_LOG_FORMAT=json), with its
 * codes and tokens redacted: a log is read by more people than the mailbox it was meant for.
 */
export function logSender(log: Logger = createLogger()): EmailSender {
  return {
    async send(message) {
      log.info(`email to ${message.to}: ${message.subject}`, {
        to: message.to,
        subject: message.subject,
        text: redact(message.text, message.secrets),
      });
    },
  };
}

/** `?ca=FILE` read once, when the sender is made: a missing file stops start-up instead of the first mail. */
function withCa(settings: SmtpSettings): SmtpSettings {
  if (settings.caFile === undefined) return settings;
  try {
    return { ...settings, ca: readFileSync(settings.caFile, 'utf8') };
  } catch (error) {
    throw new Error(`FOLIO_SMTP_URL option ca: cannot read "${settings.caFile}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/**
 * Sends over SMTP. A failure is logged (the server's reply, never the password, the
 * message or its reset code) and swallowed: the caller's answer does not change, so
 * forgot-password still cannot tell which addresses exist.
 */
export function smtpSender(url: string, from: Mailbox | undefined, log: Logger): EmailSender {
  const settings = withCa(parseSmtpUrl(url));
  const sender = from ?? defaultFrom(settings.host);
  const server = `${settings.secure ? 'smtps' : 'smtp'}://${settings.host}:${settings.port}`;
  return {
    async send(message) {
      try {
        await sendMail(settings, {
          from: message.from ?? sender,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          replyTo: message.replyTo,
        });
        log.info('email sent', { to: message.to, subject: message.subject, server });
      } catch (error) {
        log.error('email not sent', { to: message.to, subject: message.subject, server, reason: (error as Error).message });
      }
    },
  };
}

/** The sender a configuration asks for: SMTP when FOLIO_SMTP_URL is set, the log otherwise. */
/** The mail settings of the configuration (src/config.ts reads them): an SMTP URL, a sender, and how to log when there is none. */
export interface EmailSettings {
  smtpUrl?: string;
  emailFrom?: string;
  logLevel?: LogLevel;
  logFormat?: LogFormat;
}

export function emailSenderFor(config: EmailSettings, log?: Logger): EmailSender {
  const logger = log ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const from = config.emailFrom ? parseMailbox(config.emailFrom) : undefined;
  return config.smtpUrl ? smtpSender(config.smtpUrl, from, logger) : logSender(logger);
}
