/**
 * The users-permissions plugin's GraphQL: `me` and the mutations login, register,
 * forgotPassword, resetPassword, changePassword and emailConfirmation, answering
 * `UsersPermissionsLoginPayload { jwt user }` as Strapi does (`user.role` is null there: only
 * `me` fills it). They run the account flows /api/auth/* runs (auth/account-flows.ts: the same
 * settings, confirmation, sessions, mails and errors), count against the same rate limit per
 * client, and report the same errors, as BAD_USER_INPUT / STRAPI_APPLICATION_ERROR / FORBIDDEN.
 */
import { actorOf } from '../auth/access';
import type { User } from '../auth/users';
import { UnauthorizedError } from '../errors';
import { GraphqlForbiddenError } from './errors';
import type { ResolverMap } from './resolvers';
import type { GraphqlContext, GraphqlDeps } from './types';

type Args = Record<string, any>;
const ACTION = (name: string) => `plugin::users-permissions.${name}`;

/** What `me` and a login's `user` show of an account. */
const meOf = (user: User, role: unknown = null) => ({
  id: user.id,
  documentId: user.documentId,
  username: user.username,
  email: user.email,
  confirmed: user.confirmed,
  blocked: user.blocked,
  role,
});

/** A login payload: the access JWT (none while the account awaits its confirmation) and the user. */
const payload = (answer: { jwt?: string; user: User }) => ({ jwt: answer.jwt ?? null, user: meOf(answer.user) });

export function authResolvers(deps: GraphqlDeps): ResolverMap {
  const { users, accounts } = deps;
  const allow = (context: GraphqlContext, action: string) => {
    if (!context.caller.can(ACTION(action))) throw new GraphqlForbiddenError();
  };
  /** The same budget as /api/auth/*: per client and operation. */
  const limit = async (context: GraphqlContext, operation: string) => {
    if (deps.authLimiter) await deps.authLimiter.hit(context.caller.client ?? 'unknown', `/graphql/${operation}`);
  };
  /** Who asks, for the audit log of account changes. */
  const flow = (context: GraphqlContext) => ({ actor: actorOf(context.caller.principal, context.caller.client) });
  const signedIn = (context: GraphqlContext) => {
    const { principal } = context.caller;
    if (principal.kind !== 'user') throw new GraphqlForbiddenError();
    return principal.user;
  };

  return {
    Query: {
      me: async (_p: unknown, _a: Args, context: GraphqlContext) => {
        const user = signedIn(context);
        allow(context, 'user.me');
        return meOf(user, (await users.role(user.id)) ?? null);
      },
    },
    Mutation: {
      login: async (_p: unknown, { input }: Args, context: GraphqlContext) => {
        await limit(context, 'login');
        allow(context, 'auth.callback');
        return payload(await accounts.login(input ?? {}));
      },
      register: async (_p: unknown, { input }: Args, context: GraphqlContext) => {
        await limit(context, 'register');
        allow(context, 'auth.register');
        return payload(await accounts.register(input ?? {}, flow(context)));
      },
      forgotPassword: async (_p: unknown, { email }: Args, context: GraphqlContext) => {
        await limit(context, 'forgotPassword');
        allow(context, 'auth.forgotPassword');
        return accounts.forgotPassword({ email });
      },
      resetPassword: async (_p: unknown, args: Args, context: GraphqlContext) => {
        await limit(context, 'resetPassword');
        allow(context, 'auth.resetPassword');
        return payload(await accounts.resetPassword(args, flow(context)));
      },
      changePassword: async (_p: unknown, args: Args, context: GraphqlContext) => {
        await limit(context, 'changePassword');
        const user = signedIn(context);
        allow(context, 'auth.changePassword');
        return payload(await accounts.changePassword(user, args, flow(context)));
      },
      emailConfirmation: async (_p: unknown, { confirmation }: Args, context: GraphqlContext) => {
        await limit(context, 'emailConfirmation');
        allow(context, 'auth.emailConfirmation');
        const { user } = await accounts.emailConfirmation(confirmation);
        return payload(await accounts.issue(user));
      },
    },
  };
}

export { UnauthorizedError };
