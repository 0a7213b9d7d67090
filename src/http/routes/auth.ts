/**
 * /api/auth/*: login, registration and passwords. Rate-limited per client address and path
 * (instance.authLimiter) before anything else runs, authentication included: guessing
 * passwords or reset codes is the threat here.
 */
import { Elysia } from 'elysia';
import { resetPasswordText } from '../../auth/mail-format';
import { Users } from '../../auth/users';
import { checkCredentials, checkEmail, FieldErrors, PASSWORD_MAX_LENGTH, RESET_CODE_MAX_LENGTH } from '../../auth/user-fields';
import { FolioError, ValidationError } from '../../errors';
import type { Instance } from '../../instance';
import { readJsonBody } from '../body';
import { writerOf, type Guard } from '../guard';
import { clientAddress } from '../rate-limit';
import { json } from '../respond';
import { objectBody, pluginGuard, userOf, type Body } from './users-permissions';

/** Required strings of a password route, capped before anything hashes them; yup's field errors otherwise. */
function passwords(input: Body, fields: Record<string, number>): Record<string, string> {
  const errors = new FieldErrors();
  for (const [name, max] of Object.entries(fields)) {
    if (errors.string(name, input[name], { required: true, max }) && input[name] === '') errors.add(name, `${name} is a required field`, null);
  }
  errors.throwIfAny();
  return input as Record<string, string>;
}

export function authRoutes(instance: Instance, allow: Guard) {
  const { users, jwt, config, authLimiter } = instance;
  const guarded = pluginGuard(allow);
  const body = (request: Request, allowed: string[]) => objectBody(request, config.bodyLimit, allowed);
  /** The answer of a login: a JWT carrying the user's token version, and the user. */
  const withJwt = async (user: { id: number }, version: number) => ({ jwt: await jwt.issue(user.id, version), user });

  return new Elysia({ name: 'users-permissions:auth' })
    .onBeforeHandle(async ({ request, server, path }) => {
      if (path.startsWith('/api/auth/')) await authLimiter.hit(clientAddress(request, server?.requestIP(request)?.address, config.trustProxy), path);
    })
    .post(
      '/api/auth/local',
      async ({ request }) => {
        await guarded(request, 'auth.callback');
        // No body, or not an object, is a login without its fields: yup's two "required" errors, as Strapi's.
        const data = await readJsonBody(request, config.bodyLimit);
        const { identifier, password } = checkCredentials(data && typeof data === 'object' && !Array.isArray(data) ? (data as Body) : {});
        const found = await users.authenticate(identifier, password);
        if (!found) throw new ValidationError('Invalid identifier or password');
        if (found.user.blocked) throw new FolioError(400, 'ApplicationError', 'Your account has been blocked by an administrator');
        return json(await withJwt(found.user, found.tokenVersion));
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/local/register',
      async ({ request, server }) => {
        const by = writerOf(await guarded(request, 'auth.register'), request, server, config.trustProxy);
        if (!config.allowRegister) throw new FolioError(400, 'ApplicationError', 'Register action is currently disabled');
        const { username, email, password } = await body(request, ['username', 'email', 'password']);
        const user = await users.create({ username: username as string, email: email as string, password: password as string }, by);
        // A new account's token version is 0.
        return json(await withJwt(user, 0));
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/change-password',
      async ({ request, server }) => {
        const caller = await guarded(request, 'auth.changePassword');
        const user = userOf(caller.principal);
        const input = passwords(await body(request, ['currentPassword', 'password', 'passwordConfirmation']), {
          currentPassword: PASSWORD_MAX_LENGTH, password: PASSWORD_MAX_LENGTH, passwordConfirmation: PASSWORD_MAX_LENGTH,
        });
        if (input.password !== input.passwordConfirmation) throw new ValidationError('Passwords do not match');
        Users.checkFields({ password: input.password });
        if (!(await users.checkPassword(user.id, input.currentPassword!))) throw new ValidationError('The provided current password is invalid');
        if (input.currentPassword === input.password) throw new ValidationError('Your new password must be different than your current password');
        // The answer's JWT carries the new version; every earlier one stops working.
        return json(await withJwt(user, await users.setPassword(user.id, input.password!, writerOf(caller, request, server, config.trustProxy))));
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/forgot-password',
      async ({ request }) => {
        await guarded(request, 'auth.forgotPassword');
        const email = checkEmail((await body(request, ['email'])).email);
        const code = await users.createResetCode(email);
        // The same answer whether or not the address exists, so it cannot be used to probe accounts.
        if (code) {
          // Read at send time: the sender is replaceable on a running instance.
          await instance.email.send({
            to: email.toLowerCase(),
            subject: 'Reset password',
            text: resetPasswordText(code, config.resetPasswordUrl),
          });
        }
        return json({ ok: true });
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/reset-password',
      async ({ request, server }) => {
        const caller = await guarded(request, 'auth.resetPassword');
        const input = passwords(await body(request, ['code', 'password', 'passwordConfirmation']), {
          code: RESET_CODE_MAX_LENGTH, password: PASSWORD_MAX_LENGTH, passwordConfirmation: PASSWORD_MAX_LENGTH,
        });
        if (input.password !== input.passwordConfirmation) throw new ValidationError('Passwords do not match');
        Users.checkFields({ password: input.password });
        const user = await users.findByResetCode(input.code!);
        if (!user) throw new ValidationError('Incorrect code provided');
        return json(await withJwt(user, await users.setPassword(user.id, input.password!, writerOf(caller, request, server, config.trustProxy))));
      },
      { parse: 'none' },
    );
}
