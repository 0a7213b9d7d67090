/**
 * Managing webhooks (what `folio webhook` calls): checked input, rows through
 * db/store/webhooks.ts, the attempt log, and a test send outside the queue. With
 * FOLIO_WEBHOOK_DENY_PRIVATE a URL whose host is a loopback, private, link-local… address
 * literal is refused here; a host name is checked where it is resolved, at each send (send.ts).
 */
import { BY_SYSTEM, NO_AUDIT, type AuditTrail } from '../audit-trail';
import type { Actor } from '../actor';
import type { Database } from '../db/database';
import {
  deleteWebhook,
  findWebhook,
  insertAttempt,
  insertWebhook,
  listAttempts,
  listWebhooks,
  queuedDeliveries,
  setWebhookEnabled,
  updateWebhook,
  type AttemptRow,
  type WebhookRow,
} from '../db/store/webhooks';
import { ValidationError } from '../errors';
import { unstorableText } from '../text';
import { EVENT_NAMES, TEST_EVENT } from './names';
import { literalAddress, refuseNonPublic } from './private-address';
import { sendWebhook, type SendResult } from './send';

export interface WebhookInput {
  name: string;
  url: string;
  events: string[];
  secret?: string;
  /** `Name: value` lines, as curl's -H takes them. */
  headers?: string[];
}

/** A webhook as listed: never its secret, and only the names of its headers (their values may be credentials). */
export interface WebhookSummary {
  name: string;
  url: string;
  events: string[];
  signed: boolean;
  headerNames: string[];
  /** False: nothing is queued for it, nor sent (`folio webhook enable NAME`); a restored or imported copy's webhooks start so. */
  enabled: boolean;
  createdAt: string;
}

/** What a webhook still has to send: its pending deliveries and when the next try is due (ISO time). */
export interface WebhookQueue {
  pending: number;
  nextDueAt: string | null;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the deliverer sets itself or that would break the request. */
const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'host', 'transfer-encoding', 'x-folio-event', 'x-folio-signature']);

function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    const name = at < 0 ? '' : line.slice(0, at).trim();
    const value = at < 0 ? '' : line.slice(at + 1).trim();
    if (!HEADER_NAME.test(name)) throw new ValidationError(`Invalid header "${line}" (expected 'Name: value')`);
    if (RESERVED_HEADERS.has(name.toLowerCase())) throw new ValidationError(`Header "${name}" is set by Folio and cannot be given`);
    if (/[\r\n\0]/.test(value)) throw new ValidationError(`Header "${name}" has a line break or NUL in its value`);
    headers[name] = value;
  }
  return headers;
}

/** A 400 naming the `url` field (the admin's form shows it there; the CLI prints the message). */
const urlError = (message: string, value: string) => ValidationError.fromFieldErrors([{ path: ['url'], message, name: 'ValidationError', value }]);

function checkUrl(raw: string, denyPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw urlError(`Invalid URL "${raw}"`, raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw urlError(`Webhook URLs must be http:// or https://, got "${raw}"`, raw);
  const literal = denyPrivate ? literalAddress(url.hostname) : undefined;
  const why = literal && refuseNonPublic(literal);
  if (why) throw urlError(`Webhook URLs may not point at ${literal}, ${why}`, raw);
  return url.toString();
}

export interface WebhooksOptions {
  /** Per test send (default 10 s). */
  timeoutMs?: number;
  /** FOLIO_WEBHOOK_DENY_PRIVATE: refuse loopback, private, link-local… addresses (URLs given, and at each send). */
  denyPrivate?: boolean;
}

/** A URL as the audit log names it: without the user and password it may carry. */
function urlShown(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return '';
  }
}

/** What the audit log says of a webhook: never its secret or header values. */
const described = (hook: WebhookSummary) => ({
  name: hook.name,
  url: urlShown(hook.url),
  events: hook.events,
  signed: hook.signed,
  headers: hook.headerNames,
  enabled: hook.enabled,
});

export class Webhooks {
  /** Where webhook changes are recorded (the composition root sets the audit log); never a secret or a header value. */
  audit: AuditTrail = NO_AUDIT;
  private readonly timeoutMs: number;
  private readonly denyPrivate: boolean;

  constructor(
    private db: Database,
    options: WebhooksOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.denyPrivate = options.denyPrivate ?? false;
  }

  async create(input: WebhookInput, by: Actor = BY_SYSTEM): Promise<WebhookSummary> {
    const { name, url, events, secret, headers } = checked(input, this.denyPrivate);
    if (await findWebhook(this.db, name)) throw new ValidationError(`A webhook named "${name}" already exists`);
    await insertWebhook(this.db, { name, url, events, secret, headers, now: new Date().toISOString() });
    const hook = (await this.get(name))!;
    await this.audit.record({ action: 'webhook.create', actor: by, type: 'webhook', details: described(hook) });
    return hook;
  }

  /**
   * Changes a webhook's url, events and, when given, its secret and headers (absent keeps
   * them: the admin never shows them back). Its queued deliveries and attempt log stay.
   */
  async update(name: string, input: Omit<WebhookInput, 'name'>, by: Actor = BY_SYSTEM): Promise<WebhookSummary | undefined> {
    const row = await findWebhook(this.db, name);
    if (!row) return undefined;
    const next = checked({ ...input, name }, this.denyPrivate);
    await updateWebhook(this.db, row.id, {
      url: next.url,
      events: next.events,
      secret: input.secret === undefined ? row.secret : next.secret,
      headers: input.headers === undefined ? row.headers : next.headers,
      now: new Date().toISOString(),
    });
    const hook = await this.get(name);
    if (hook) {
      const changed = [...(input.secret === undefined ? [] : ['secret']), ...(input.headers === undefined ? [] : ['headers'])];
      await this.audit.record({
        action: 'webhook.update',
        actor: by,
        type: 'webhook',
        details: { ...described(hook), ...(changed.length ? { replaced: changed } : {}) },
      });
    }
    return hook;
  }

  async list(): Promise<WebhookSummary[]> {
    return (await listWebhooks(this.db)).map(summary);
  }

  async get(name: string): Promise<WebhookSummary | undefined> {
    const row = await findWebhook(this.db, name);
    return row && summary(row);
  }

  /** False when there is no such webhook. */
  async delete(name: string, by: Actor = BY_SYSTEM): Promise<boolean> {
    const deleted = await deleteWebhook(this.db, name);
    if (deleted) await this.audit.record({ action: 'webhook.delete', actor: by, type: 'webhook', details: { name } });
    return deleted;
  }

  /**
   * Enables or disables a webhook; undefined when there is no such webhook. Disabled, nothing
   * is queued for it and what was queued waits; enabled again, what waits is sent (`queue`
   * says how much).
   */
  async setEnabled(name: string, enabled: boolean, by: Actor = BY_SYSTEM): Promise<WebhookSummary | undefined> {
    const before = await findWebhook(this.db, name);
    if (!before) return undefined;
    await setWebhookEnabled(this.db, name, enabled, new Date().toISOString());
    const hook = await this.get(name);
    if (hook && before.enabled !== enabled)
      await this.audit.record({ action: enabled ? 'webhook.enable' : 'webhook.disable', actor: by, type: 'webhook', details: { name } });
    return hook;
  }

  /** What the webhook still has to send; undefined when there is no such webhook. */
  async queue(name: string): Promise<WebhookQueue | undefined> {
    const row = await findWebhook(this.db, name);
    if (!row) return undefined;
    const { pending, nextDueAt } = await queuedDeliveries(this.db, row.id);
    return { pending, nextDueAt: nextDueAt === null ? null : new Date(nextDueAt).toISOString() };
  }

  /** Every attempt to reach the webhook, oldest first; undefined when there is no such webhook. */
  async deliveries(name: string): Promise<AttemptRow[] | undefined> {
    const row = await findWebhook(this.db, name);
    return row && listAttempts(this.db, row.id);
  }

  /** Sends a `trigger-test` event now (as Strapi's trigger button does) and records the attempt. */
  async test(name: string): Promise<SendResult | undefined> {
    const row = await findWebhook(this.db, name);
    if (!row) return undefined;
    const createdAt = new Date().toISOString();
    const body = JSON.stringify({ event: TEST_EVENT, createdAt });
    const result = await sendWebhook(row, TEST_EVENT, body, { timeoutMs: this.timeoutMs, refuseAddress: this.denyPrivate ? refuseNonPublic : undefined });
    await insertAttempt(this.db, {
      webhookId: row.id,
      deliveryId: null,
      event: TEST_EVENT,
      attempt: 1,
      status: result.status,
      error: result.error,
      durationMs: result.durationMs,
      at: createdAt,
    });
    return result;
  }
}

/** The input checked and normalised, every problem a 400. */
function checked(input: WebhookInput, denyPrivate: boolean) {
  const name = input.name.trim();
  if (!name || unstorableText(name) || name.length > 200) throw new ValidationError('A webhook name is 1 to 200 characters of text');
  const url = checkUrl(input.url, denyPrivate);
  const events = [...new Set(input.events.map((e) => e.trim()).filter(Boolean))];
  if (events.length === 0) throw new ValidationError(`Name at least one event (${EVENT_NAMES.join(', ')})`);
  const unknown = events.filter((e) => !EVENT_NAMES.includes(e));
  if (unknown.length) throw new ValidationError(`Unknown event "${unknown[0]}" (one of: ${EVENT_NAMES.join(', ')})`);
  const secret = input.secret === undefined || input.secret === '' ? null : input.secret;
  if (secret !== null && unstorableText(secret)) throw new ValidationError('The secret cannot hold NUL or lone surrogate characters');
  const headers = parseHeaders(input.headers ?? []);
  return { name, url, events, secret, headers };
}

function summary(row: WebhookRow): WebhookSummary {
  return {
    name: row.name,
    url: row.url,
    events: row.events,
    signed: row.secret !== null,
    headerNames: Object.keys(row.headers),
    enabled: row.enabled,
    createdAt: row.createdAt,
  };
}
