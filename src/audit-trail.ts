/**
 * The one small interface through which services that are not document writes record what
 * they change in the audit log: settings (permissions, roles, API tokens, webhooks, locales,
 * users, admin users) and admin logins. src/audit/ implements it; the composition root
 * (instance.ts) hands it to each service (`service.audit = …`), so no service imports audit/.
 * Document writes reach the audit log as a listener of the write pipeline instead.
 *
 * `details` names what changed (the granted actions, the fields updated): never a secret. A
 * password, an access key, a reset code or a webhook secret is never passed here.
 */
import { SYSTEM_ACTOR, type Actor } from './actor';

export interface AuditEvent {
  /** `permissions.grant`, `role.create`, `api-token.regenerate`, `admin.login-failed`… */
  action: string;
  /** Who did it; the actor's `ip` is the row's. */
  actor: Actor;
  /** What kind of thing it is about: a content type's uid, `role`, `api-token`, `webhook`, `locale`… */
  type?: string;
  documentId?: string;
  locale?: string;
  details?: Record<string, unknown>;
}

export interface AuditTrail {
  /** Records one row (after the change it describes has committed). Never throws for a failed write of the log itself. */
  record(event: AuditEvent): Promise<void>;
}

/** Records nothing: a service's default until the composition root gives it the audit log. */
export const NO_AUDIT: AuditTrail = { record: async () => {} };

/** Who a service call is by when the caller says nothing: Folio itself. */
export const BY_SYSTEM: Actor = SYSTEM_ACTOR;
