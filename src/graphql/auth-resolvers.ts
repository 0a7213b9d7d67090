/**
 * The users-permissions plugin's GraphQL: `me` and the mutations login, register,
 * forgotPassword, resetPassword, changePassword and emailConfirmation, answering
 * `UsersPermissionsLoginPayload { jwt user }` as Strapi does (`user.role` is null there: only
 * `me` fills it). They call the same domain services as /api/auth/* (auth/users.ts, jwt.ts,
 * user-fields.ts), count against the same rate limit per client, and report the same errors,
 * as BAD_USER_INPUT / STRAPI_APPLICATION_ERROR / FORBIDDEN.
 */
import { actorOf } from '../auth/access';
import { Users, type User } from '../auth/users';
import { checkCredentials, checkEmail, PASSWORD_MAX_LENGTH, RESET_CODE_MAX_LENGTH } from '../auth/user-fields';
import { resetPasswordText } from '../auth/mail-format';
import { FolioError, UnauthorizedError, ValidationError } from '../errors';
import { GraphqlForbiddenError } from './errors';
import type { ResolverMap } from './resolvers';
import type { GraphqlContext, GraphqlDeps } from './types';

type Args = Record<string, any>;
const ACTION = (name: string) => `plugin::users-permissions.${name}`;

/** What `me` and a login's `user` show of an account. */
const meOf = (user: User, role: unknown = null) => ({
  id: user.id, documentId: user.documentId, username: user.username, email: user.email,
  confirmed: user.confirmed, blocked: user.blocked, role,
});

function passwordField(name: string, value: unknown, max = PASSWORD_MAX_LENGTH): string {
  if (typeof value !== 'string' || value === '') throw new ValidationError(`${name} is a required field`);
  if (value.length > max) throw new ValidationError(`${name} must be at most ${max} characters`);
  return value;
}

export function authResolvers(deps: GraphqlDeps): ResolverMap {
  const { users, jwt } = deps;
  const allow = (context: GraphqlContext, action: string) => {
    if (!context.caller.can(ACTION(action))) throw new GraphqlForbiddenError();
  };
  /** The same budget as /api/auth/*: per client and operation. */
  const limit = async (context: GraphqlContext, operation: string) => {
    if (deps.authLimiter) await deps.authLimiter.hit(context.caller.client ?? 'unknown', `/graphql/${operation}`);
  };
  const withJwt = async (user: User, version: number) => ({ jwt: await jwt.issue(user.id, version), user: meOf(user) });

  return {
    Query: {
      me: async (_p: unknown, _a: Args, context: GraphqlContext) => {
        const { principal } = context.caller;
        if (principal.kind !== 'user') throw new GraphqlForbiddenError();
        allow(context, 'user.me');
        const role = await users.role(principal.user.id);
        return meOf(principal.user, role ?? null);
      },
    },
    Mutation: {
      login: async (_p: unknown, { input }: Args, context: GraphqlContext) => {
        await limit(context, 'login');
        allow(context, 'auth.callback');
        const { identifier, password } = checkCredentials(input ?? {});
        const found = await users.authenticate(identifier, password);
        if (!found) throw new ValidationError('Invalid identifier or password');
        if (found.user.blocked) throw new FolioError(400, 'ApplicationError', 'Your account has been blocked by an administrator');
        return withJwt(found.user, found.tokenVersion);
      },
      register: async (_p: unknown, { input }: Args, context: GraphqlContext) => {
        await limit(context, 'register');
        allow(context, 'auth.register');
        if (deps.allowRegister === false) throw new FolioError(400, 'ApplicationError', 'Register action is currently disabled');
        const user = await users.create({ username: input.username, email: input.email, password: input.password }, actorOf(context.caller.principal, context.caller.client));
        return withJwt(user, 0);
      },
      forgotPassword: async (_p: unknown, { email }: Args, context: GraphqlContext) => {
        await limit(context, 'forgotPassword');
        allow(context, 'auth.forgotPassword');
        const address = checkEmail(email);
        const code = await users.createResetCode(address);
        if (code && deps.sendMail) await deps.sendMail({ to: address.toLowerCase(), subject: 'Reset password', text: resetPasswordText(code, deps.resetPasswordUrl) });
        return { ok: true };
      },
      resetPassword: async (_p: unknown, args: Args, context: GraphqlContext) => {
        await limit(context, 'resetPassword');
        allow(context, 'auth.resetPassword');
        const code = passwordField('code', args.code, RESET_CODE_MAX_LENGTH);
        const password = passwordField('password', args.password);
        if (password !== passwordField('passwordConfirmation', args.passwordConfirmation)) throw new ValidationError('Passwords do not match');
        Users.checkFields({ password });
        const user = await users.findByResetCode(code);
        if (!user) throw new ValidationError('Incorrect code provided');
        return withJwt(user, await users.setPassword(user.id, password, actorOf(context.caller.principal, context.caller.client)));
      },
      changePassword: async (_p: unknown, args: Args, context: GraphqlContext) => {
        await limit(context, 'changePassword');
        const { principal } = context.caller;
        if (principal.kind !== 'user') throw new GraphqlForbiddenError();
        allow(context, 'auth.changePassword');
        const current = passwordField('currentPassword', args.currentPassword);
        const password = passwordField('password', args.password);
        if (password !== passwordField('passwordConfirmation', args.passwordConfirmation)) throw new ValidationError('Passwords do not match');
        Users.checkFields({ password });
        if (!(await users.checkPassword(principal.user.id, current))) throw new ValidationError('The provided current password is invalid');
        if (current === password) throw new ValidationError('Your new password must be different than your current password');
        return withJwt(principal.user, await users.setPassword(principal.user.id, password, actorOf(principal, context.caller.client)));
      },
      emailConfirmation: async (_p: unknown, args: Args, context: GraphqlContext) => {
        await limit(context, 'emailConfirmation');
        // Folio does not send confirmation mails yet: no code is ever valid.
        if (typeof args.confirmation !== 'string' || args.confirmation === '') throw new ValidationError('confirmation is a required field');
        throw new ValidationError('Invalid token');
      },
    },
  };
}

export { UnauthorizedError };
