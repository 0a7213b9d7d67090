/**
 * The account flows of Strapi 5.54's users-permissions plugin, as domain functions: login,
 * register, forgot / reset / change password, e-mail confirmation. The HTTP routes
 * (http/routes/auth.ts) and GraphQL call these; neither holds a rule of its own. Answers and
 * errors are Strapi's; bodies arrive parsed (an object) and are checked here.
 *
 * Secrets (passwords, reset codes, confirmation tokens) never leave in an answer, an error or a
 * log line: codes travel in mails only, and are stored hashed.
 */
import type { Actor } from '../documents/write/context';
import { FolioError, NotFoundError, UnauthorizedError, ValidationError } from '../errors';
import type { EmailSender } from './email';
import { resetPasswordMail, templateMail } from './account-mail';
import type { Jwt } from './jwt';
import type { Roles } from './roles';
import { deviceIdOf, deviceIdOrNew, isSessionId, type SessionEntry, type Sessions } from './sessions';
import type { UsersPermissionsSettings } from './settings';
import {
  checkAccountFields,
  checkChangePasswordBody,
  checkCredentials,
  checkEmail,
  checkNoUnknown,
  checkRegisterBody,
  checkResetPasswordBody,
  FieldErrors,
} from './user-fields';
import type { User, Users } from './users';

type Body = Record<string, unknown>;

/** What a successful login, registration or password change answers (`refreshToken` in refresh mode only). */
export interface AuthAnswer {
  jwt: string;
  refreshToken?: string;
  user: User;
}

/** What a request tells a flow beyond its body: for session metadata (refresh mode). */
export interface FlowContext {
  userAgent?: string | null;
  /** Who asks (the audit log records it with account changes): the caller and its address. */
  actor?: Actor;
}

/** How `POST /api/auth/logout` chooses what to end (Strapi's body: `scope`, `deviceId`, `refreshToken`). */
export interface LogoutRequest {
  /** `all`: every session of the user. */
  scope?: unknown;
  deviceId?: unknown;
  /** The refresh token of the session to end (from the body or the cookie). */
  refreshToken?: unknown;
}

const application = (message: string) => new FolioError(400, 'ApplicationError', message);

export interface AccountFlowsDeps {
  users: Users;
  roles: Roles;
  jwt: Jwt;
  sessions: Sessions;
  settings: UsersPermissionsSettings;
  /** The mail sender, read at send time: it is replaceable on a running instance. */
  mail: () => EmailSender;
}

export class AccountFlows {
  constructor(private deps: AccountFlowsDeps) {}

  /**
   * The answer of a login: in legacy-support mode a JWT carrying the user's token version; in
   * refresh mode a new session's access and refresh tokens (under `deviceId`, the client's label).
   */
  private async signedIn(user: User, version: number, context: FlowContext, deviceId?: string, metadata = true): Promise<AuthAnswer> {
    if (this.deps.settings.plugin.jwtManagement === 'refresh') {
      const { jwt, refreshToken } = await this.deps.sessions.create(user.id, { deviceId, userAgent: context.userAgent, metadata });
      return { jwt, refreshToken, user };
    }
    return { jwt: await this.deps.jwt.issue(user.id, version), user };
  }

  /**
   * Signs a user in who proved who they are another way (a provider): a JWT of the account's
   * current token version, or a new session in refresh mode.
   */
  async issue(user: User, context: FlowContext = {}): Promise<AuthAnswer> {
    const version = (await this.deps.users.principal(user.id))?.tokenVersion ?? 0;
    return this.signedIn(user, version, context);
  }

  /** Refresh mode's routes are 404 in legacy-support mode, as Strapi's. */
  private requireRefreshMode() {
    if (this.deps.settings.plugin.jwtManagement !== 'refresh') throw new NotFoundError();
  }

  /** Links in mails: Strapi's `server.absoluteUrl` and `admin.absoluteUrl`. */
  private urls() {
    const server = this.deps.settings.publicUrl;
    return { SERVER_URL: server, ADMIN_URL: `${server}/admin` };
  }

  /**
   * `POST /api/auth/local`: the password is checked first, then the confirmation (when
   * `email_confirmation` is on), then whether the account is blocked.
   */
  async login(body: Body, context: FlowContext = {}): Promise<AuthAnswer> {
    const { advanced, grant } = await this.deps.settings.values();
    if (!grant.email?.enabled) throw application('This provider is disabled');
    const { identifier, password } = checkCredentials(body);
    const found = await this.deps.users.authenticate(identifier, password);
    if (!found) throw new ValidationError('Invalid identifier or password');
    if (advanced.email_confirmation && !found.user.confirmed) throw application('Your account email is not confirmed');
    if (found.user.blocked) throw application('Your account has been blocked by an administrator');
    return this.signedIn(found.user, found.tokenVersion, context, deviceIdOf(body));
  }

  /**
   * `POST /api/auth/local/register`: `{ username, email, password }` and the names of
   * `register.allowedFields`. With `email_confirmation` on, the account starts unconfirmed, a
   * confirmation mail goes out and the answer is `{ user }` without a JWT.
   */
  async register(body: Body, context: FlowContext = {}): Promise<AuthAnswer | { user: User }> {
    const { advanced } = await this.deps.settings.values();
    if (!advanced.allow_register) throw application('Register action is currently disabled');
    const { allowedFields } = this.deps.settings.plugin.register;
    const allowed = ['username', 'password', 'email', ...allowedFields];
    const invalid = Object.keys(body).filter((key) => !allowed.includes(key));
    if (invalid.length) throw new ValidationError(`Invalid parameters: ${invalid.join(', ')}`);
    const { email, username, password } = checkRegisterBody(body);
    // The account's own rules (lengths, no NUL) before any lookup: PostgreSQL cannot even compare a NUL.
    checkAccountFields({ email, username, password }, ['email', 'username', 'password']);
    const role = await this.deps.roles.find(advanced.default_role);
    if (!role) throw application('Impossible to find the default role');
    if (await this.deps.users.registrationConflict(email, username, 'local')) throw application('Email or Username are already taken');
    if (advanced.unique_email && (await this.deps.users.registrationConflict(email, username))) throw application('Email or Username are already taken');
    // Allowed fields beyond the three are the project's own attributes of the user (its extension).
    const extra = Object.fromEntries(allowedFields.filter((f) => this.deps.users.extensionNames.includes(f) && f in body).map((f) => [f, body[f]]));
    const user = await this.deps.users.create({ ...extra, username, email, password, role: role.type, confirmed: !advanced.email_confirmation }, context.actor);
    if (advanced.email_confirmation) {
      await this.sendConfirmation(user);
      return { user };
    }
    // A new account's token version is 0.
    return this.signedIn(user, 0, context, deviceIdOrNew(body));
  }

  /**
   * `POST /api/auth/forgot-password`: `{ ok: true }` whatever the address, so the answer tells
   * nothing about which accounts exist; a blocked account gets no mail either. A new code
   * replaces the last one.
   */
  async forgotPassword(body: Body): Promise<{ ok: true }> {
    checkNoUnknown(body, ['email']);
    const email = checkEmail(body.email);
    const user = await this.deps.users.findByEmail(email);
    if (!user || user.blocked) return { ok: true };
    const { advanced, email: templates } = await this.deps.settings.values();
    const code = await this.deps.users.createResetCode(user.id);
    await this.deps
      .mail()
      .send(resetPasswordMail(templates.reset_password.options, user.email, { URL: advanced.email_reset_password, ...this.urls(), USER: user, TOKEN: code }));
    return { ok: true };
  }

  /** `POST /api/auth/reset-password`: every check of the body (the 72-byte limit among them) before the code is looked up. */
  async resetPassword(body: Body, context: FlowContext = {}): Promise<AuthAnswer> {
    const { code, password } = checkResetPasswordBody(body);
    const user = await this.deps.users.findByResetCode(code);
    if (!user) throw new ValidationError('Incorrect code provided');
    // setPassword ended every session of the account; the answer opens a new one.
    return this.signedIn(user, await this.deps.users.setPassword(user.id, password, context.actor), context, deviceIdOrNew(body), false);
  }

  /** `POST /api/auth/change-password` for the signed-in `user`. */
  async changePassword(user: User, body: Body, context: FlowContext = {}): Promise<AuthAnswer> {
    const { currentPassword, password } = checkChangePasswordBody(body);
    if (!(await this.deps.users.checkPassword(user.id, currentPassword))) throw new ValidationError('The provided current password is invalid');
    if (currentPassword === password) throw new ValidationError('Your new password must be different than your current password');
    // The answer's JWT carries the new version (or opens a new session); every earlier one stops working.
    return this.signedIn(user, await this.deps.users.setPassword(user.id, password, context.actor), context, deviceIdOrNew(body), false);
  }

  /**
   * `POST /api/auth/refresh`: a new access token and refresh token for a live refresh token
   * (which then stops working). 400 without one, 401 for any other.
   */
  async refresh(refreshToken: unknown): Promise<{ jwt: string; refreshToken: string }> {
    this.requireRefreshMode();
    if (typeof refreshToken !== 'string' || refreshToken === '') throw new FolioError(400, 'BadRequestError', 'Missing refresh token');
    const rotated = await this.deps.sessions.refresh(refreshToken);
    if (!rotated) throw new UnauthorizedError('Invalid refresh token');
    return { jwt: rotated.jwt, refreshToken: rotated.refreshToken };
  }

  /**
   * `POST /api/auth/logout` for the signed-in `user`: every session with `scope: 'all'`, a
   * device's with `deviceId`, otherwise the one of the refresh token given, or the one of the
   * access token used; failing all of these, every session (Strapi's order).
   */
  async logout(user: User, currentSessionId: string | undefined, request: LogoutRequest): Promise<{ ok: true }> {
    this.requireRefreshMode();
    const { sessions } = this.deps;
    if (request.scope === 'all') await sessions.revokeAll(user.id);
    else if (deviceIdOf({ deviceId: request.deviceId })) await sessions.revokeAll(user.id, deviceIdOf({ deviceId: request.deviceId }));
    else {
      const given = typeof request.refreshToken === 'string' && request.refreshToken !== '' ? await sessions.ofRefreshToken(request.refreshToken) : undefined;
      const session = given?.userId === user.id ? given.sessionId : currentSessionId;
      if (session) await sessions.revoke(user.id, session);
      else await sessions.revokeAll(user.id);
    }
    return { ok: true };
  }

  /** `GET /api/auth/sessions`: the user's live sessions, the current one first. */
  async listSessions(user: User, currentSessionId: string | undefined): Promise<{ data: SessionEntry[] }> {
    this.requireRefreshMode();
    return { data: await this.deps.sessions.list(user.id, currentSessionId) };
  }

  /** `DELETE /api/auth/sessions/:sessionId`: ends one of the user's sessions; 404 when it has none by that id. */
  async revokeSession(user: User, sessionId: string): Promise<{ data: Record<string, never> }> {
    this.requireRefreshMode();
    if (!isSessionId(sessionId) || !(await this.deps.sessions.revoke(user.id, sessionId))) throw new NotFoundError('Session not found');
    return { data: {} };
  }

  /**
   * `GET /api/auth/email-confirmation?confirmation=…`: confirms the account and answers where
   * to redirect (`email_confirmation_redirection`, or `/`). A token works once.
   */
  async emailConfirmation(confirmation: unknown): Promise<{ redirect: string; user: User }> {
    const errors = new FieldErrors();
    if (errors.string('confirmation', confirmation, { required: true, max: 256 }) && confirmation === '') {
      errors.add('confirmation', 'confirmation is a required field', '');
    }
    errors.throwIfAny();
    const user = await this.deps.users.confirmByToken(confirmation as string);
    if (!user) throw new ValidationError('Invalid token');
    const { advanced } = await this.deps.settings.values();
    return { redirect: advanced.email_confirmation_redirection || '/', user };
  }

  /**
   * `POST /api/auth/send-email-confirmation { email }`: a new mail (its token replaces the
   * last one). An unknown address answers the same, without a mail.
   */
  async sendEmailConfirmation(body: Body): Promise<{ email: string; sent: true }> {
    const email = checkEmail(body.email);
    const user = await this.deps.users.findByEmail(email);
    if (!user) return { email, sent: true };
    if (user.confirmed) throw application('Already confirmed');
    if (user.blocked) throw application('User blocked');
    await this.sendConfirmation(user);
    return { email: user.email, sent: true };
  }

  /**
   * The confirmation mail: a new token, linked as `<public url>/api/auth/email-confirmation?confirmation=<token>`
   * by Strapi's template. Project code calls it too (the user service's `sendConfirmationEmail`).
   */
  async sendConfirmation(user: User): Promise<void> {
    const { email } = await this.deps.settings.values();
    const token = await this.deps.users.createConfirmationToken(user.id);
    const URL = `${this.deps.settings.publicUrl}/api/auth/email-confirmation`;
    await this.deps.mail().send(templateMail(email.email_confirmation.options, user.email, { URL, ...this.urls(), USER: user, CODE: token }, [token]));
  }
}
