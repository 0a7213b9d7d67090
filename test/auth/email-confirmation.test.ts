/**
 * E-mail confirmation (users-permissions `advanced.email_confirmation`), with Strapi 5.54's
 * answers: register answers `{ user }` without a JWT and mails a link
 * `<public url>/api/auth/email-confirmation?confirmation=<40 hex>`; the link confirms and
 * redirects (302) once; login waits for it (after the password, before the blocked check);
 * send-email-confirmation sends a new token in place of the old; an unconfirmed account's
 * JWT is refused. Mails go to a real SMTP server started here; the token never shows in an
 * answer or a log line, and is stored hashed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createHash } from 'node:crypto';
import { createLogger } from '../../src/log';
import { parseMail } from '../helpers/mail';
import { startServer, type TestServer } from '../helpers/server';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';

const PUBLIC_URL = 'https://cms.example.com';
const REDIRECT = 'https://front.example/confirmed';
let smtp: TestSmtpServer;
let server: TestServer;
/** Every answer body and log line of the file, searched for secrets at the end. */
const seen: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startServer({
    publicAccess: false,
    config: {
      smtpUrl: smtp.url(),
      emailFrom: 'Folio <cms@example.com>',
      publicUrl: PUBLIC_URL,
      authRateLimit: { max: 10_000, windowMs: 60_000 },
      usersPermissions: { advanced: { email_confirmation: true, email_confirmation_redirection: REDIRECT } },
    },
  });
});
afterAll(async () => {
  await server.stop();
  await smtp.close();
});

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await server.call(method, path, { body, headers });
  seen.push(JSON.stringify(res.body));
  return res;
};
const register = (name: string, password = 'Passw0rd!') => call('POST', '/api/auth/local/register', { username: name, email: `${name}@Example.com`, password });
const login = (identifier: string, password = 'Passw0rd!') => call('POST', '/api/auth/local', { identifier, password });
const resend = (email: string) => call('POST', '/api/auth/send-email-confirmation', { email });
/** GET without following the redirect. */
const open = async (pathAndQuery: string) => {
  const res = await fetch(server.url + pathAndQuery, { redirect: 'manual' });
  const text = await res.text();
  seen.push(text);
  return {
    status: res.status,
    location: res.headers.get('location'),
    body: text ? (res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) : null,
  };
};

/** The next mail to arrive, parsed, and the confirmation link in it. */
async function nextMail(before: number) {
  const [mail] = (await smtp.waitFor(before + 1)).slice(before);
  const parsed = parseMail(mail!);
  const link = parsed.text.match(/https:\/\/cms\.example\.com\/\S+/)?.[0];
  return { mail: mail!, parsed, link, token: link ? new URL(link).searchParams.get('confirmation') : null };
}

describe('registering with confirmation on', () => {
  it('answers { user } without a jwt, unconfirmed, and mails Strapi’s confirmation link', async () => {
    const before = smtp.received.length;
    const res = await register('alice');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['user']);
    expect(res.body.user).toMatchObject({ username: 'alice', email: 'alice@example.com', provider: 'local', confirmed: false, blocked: false });
    const { mail, parsed, link, token } = await nextMail(before);
    expect(mail.to).toEqual(['alice@example.com']);
    expect(parsed.headers.get('subject')).toBe('Account confirmation');
    // Strapi's placeholder sender (no-reply@strapi.io) is not used: the configured one is.
    expect(parsed.headers.get('from')).toBe('Folio <cms@example.com>');
    expect(link).toMatch(/^https:\/\/cms\.example\.com\/api\/auth\/email-confirmation\?confirmation=[0-9a-f]{40}$/);
    // Strapi's template is HTML: an HTML part, and a text part made from it.
    expect(parsed.html).toContain(`<p>${link}</p>`);
    expect(parsed.text).toStartWith('Thank you for registering!\n\nYou have to confirm your email address. Please click on the link below.\n\n');
    // Stored hashed: the database holds SHA-256 of the token, never the token.
    const row = await server.instance.db.get<{ confirmationToken: string }>('SELECT "confirmationToken" FROM folio_users WHERE "username" = ?', ['alice']);
    expect(row!.confirmationToken).toBe(createHash('sha256').update(token!).digest('hex'));
  });

  it('refuses login before confirmation, after checking the password', async () => {
    expect(await login('alice', 'Wrong-pass1')).toMatchObject({
      status: 400,
      body: { error: { name: 'ValidationError', message: 'Invalid identifier or password' } },
    });
    expect(await login('alice')).toMatchObject({ status: 400, body: { error: { name: 'ApplicationError', message: 'Your account email is not confirmed' } } });
  });

  it('confirms through the link once: 302 to the configured page, then 400 Invalid token', async () => {
    const before = smtp.received.length;
    await register('bob');
    const { link } = await nextMail(before);
    const path = link!.slice(PUBLIC_URL.length);
    const first = await open(path);
    expect(first).toMatchObject({ status: 302, location: REDIRECT });
    const again = await open(path);
    expect(again).toMatchObject({ status: 400, body: { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid token', details: {} } } });
    const res = await login('bob');
    expect(res.status).toBe(200);
    expect(res.body.jwt).toBeString();
    expect(res.body.user.confirmed).toBe(true);
  });

  it('answers a missing or malformed confirmation as Strapi’s schema does', async () => {
    expect((await open('/api/auth/email-confirmation')).body.error).toMatchObject({ name: 'ValidationError', message: 'confirmation is a required field' });
    expect((await open('/api/auth/email-confirmation?confirmation=')).body.error).toMatchObject({
      name: 'ValidationError',
      message: 'confirmation is a required field',
    });
    expect((await open('/api/auth/email-confirmation?confirmation[0]=a')).body.error).toMatchObject({
      name: 'ValidationError',
      message: 'confirmation must be a `string` type',
    });
    expect((await open(`/api/auth/email-confirmation?confirmation=${'0'.repeat(40)}`)).status).toBe(400);
  });

  it('sends a new code in place of the old with send-email-confirmation; unknown addresses get the same answer and no mail', async () => {
    const before = smtp.received.length;
    await register('carol');
    const first = await nextMail(before);
    const again = await resend('CAROL@example.com');
    expect(again).toMatchObject({ status: 200, body: { email: 'carol@example.com', sent: true } });
    const second = await nextMail(before + 1);
    expect(second.token).not.toBe(first.token);
    expect((await open(first.link!.slice(PUBLIC_URL.length))).body.error.message).toBe('Invalid token');
    expect((await open(second.link!.slice(PUBLIC_URL.length))).status).toBe(302);

    const count = smtp.received.length;
    expect(await resend('Nobody@Example.com')).toMatchObject({ status: 200, body: { email: 'Nobody@Example.com', sent: true } });
    expect(await resend('carol@example.com')).toMatchObject({ status: 400, body: { error: { name: 'ApplicationError', message: 'Already confirmed' } } });
    expect(await resend('not-an-address')).toMatchObject({ status: 400, body: { error: { name: 'ValidationError', message: 'email must be a valid email' } } });
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.received.length).toBe(count);
  });

  it('checks a blocked account after the confirmation, and sends it no new code', async () => {
    const before = smtp.received.length;
    const res = await register('dave');
    await nextMail(before);
    await server.instance.users.update(res.body.user.id, { blocked: true });
    expect((await login('dave')).body.error.message).toBe('Your account email is not confirmed');
    expect(await resend('dave@example.com')).toMatchObject({ status: 400, body: { error: { name: 'ApplicationError', message: 'User blocked' } } });
  });

  it('refuses the JWT of an unconfirmed account with 401 while confirmation is on', async () => {
    const before = smtp.received.length;
    const res = await register('erin');
    await nextMail(before);
    // A reset answers a JWT whatever the confirmation, as Strapi's does.
    await call('POST', '/api/auth/forgot-password', { email: 'erin@example.com' });
    const reset = await nextMail(before + 1);
    const code = reset.parsed.text.match(/\b[0-9a-f]{128}\b/)![0];
    const answer = await call('POST', '/api/auth/reset-password', { code, password: 'Reset-pw-1', passwordConfirmation: 'Reset-pw-1' });
    expect(answer.status).toBe(200);
    expect(answer.body.user).toMatchObject({ id: res.body.user.id, confirmed: false });
    const me = await call('GET', '/api/users/me', undefined, { authorization: `Bearer ${answer.body.jwt}` });
    expect(me).toMatchObject({ status: 401, body: { error: { name: 'UnauthorizedError', message: 'Invalid credentials' } } });
  });

  it('fills a configured template with Strapi’s variables, its sender and reply address, escaping values in the HTML part', async () => {
    const other = await startServer({
      publicAccess: false,
      config: {
        smtpUrl: smtp.url(),
        publicUrl: PUBLIC_URL,
        usersPermissions: {
          advanced: { email_confirmation: true },
          email: {
            email_confirmation: {
              options: {
                from: { name: 'Team', email: 'team@example.com' },
                response_email: 'help@example.com',
                object: 'Welcome <%= USER.username %>',
                message: '<p>Hi <%= USER.username %>, confirm at <%= URL %>?confirmation=<%= CODE %> (<%= SERVER_URL %>, <%= UNKNOWN %>)</p>',
              },
            },
          },
        },
      },
    });
    try {
      const before = smtp.received.length;
      const res = await other.call('POST', '/api/auth/local/register', { body: { username: 'x<b>y', email: 'xy@example.com', password: 'Passw0rd!' } });
      expect(res.status).toBe(200);
      const { parsed, mail } = await nextMail(before);
      expect(mail.from).toBe('team@example.com');
      expect(parsed.headers.get('from')).toBe('Team <team@example.com>');
      expect(parsed.headers.get('reply-to')).toBe('help@example.com');
      expect(parsed.headers.get('subject')).toBe('Welcome x<b>y');
      expect(parsed.text).toMatch(
        /^Hi x<b>y, confirm at https:\/\/cms\.example\.com\/api\/auth\/email-confirmation\?confirmation=[0-9a-f]{40} \(https:\/\/cms\.example\.com, <%= UNKNOWN %>\)$/,
      );
      expect(parsed.html).toContain('<p>Hi x&#60;b&#62;y, confirm at https://cms.example.com/api/auth/email-confirmation?confirmation=');
      // Redirects to / when no page is configured.
      const token = parsed.text.match(/confirmation=([0-9a-f]{40})/)![1];
      const res2 = await fetch(`${other.url}/api/auth/email-confirmation?confirmation=${token}`, { redirect: 'manual' });
      expect([res2.status, res2.headers.get('location')]).toEqual([302, '/']);
    } finally {
      await other.stop();
    }
  });
});

describe('with confirmation off (the default)', () => {
  it('answers register with a jwt and sends nothing; a confirmation sent by hand still confirms', async () => {
    const plain = await startServer({ publicAccess: false, config: { smtpUrl: smtp.url(), publicUrl: PUBLIC_URL } });
    try {
      const before = smtp.received.length;
      const res = await plain.call('POST', '/api/auth/local/register', { body: { username: 'frank', email: 'frank@example.com', password: 'Passw0rd!' } });
      expect(Object.keys(res.body).sort()).toEqual(['jwt', 'user']);
      expect(res.body.user.confirmed).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(smtp.received.length).toBe(before);
      expect((await plain.call('POST', '/api/auth/send-email-confirmation', { body: { email: 'frank@example.com' } })).body.error.message).toBe(
        'Already confirmed',
      );
    } finally {
      await plain.stop();
    }
  });
});

describe('secrets', () => {
  it('never shows a confirmation token or reset code in an answer, a log line or an event', async () => {
    // A webhook listening to everything: any event the account flows recorded would be in the outbox.
    const { EVENT_NAMES } = await import('../../src/events/names');
    await server.instance.webhooks.create({ name: 'all', url: 'http://127.0.0.1:9/hook', events: [...EVENT_NAMES] });
    const lines: string[] = [];
    const original = server.instance.email;
    const { logSender } = await import('../../src/auth/email');
    server.instance.email = logSender(createLogger({ sink: { write: (line) => void lines.push(line) } }));
    try {
      const res = await register('grace');
      expect(res.status).toBe(200);
      await resend('grace@example.com');
      await call('POST', '/api/auth/forgot-password', { email: 'grace@example.com' });
    } finally {
      server.instance.email = original;
    }
    expect(lines.length).toBe(3);
    for (const line of lines) {
      expect(line).toContain('[redacted]');
      expect(line).not.toMatch(/confirmation=[0-9a-f]{40}/);
      expect(line).not.toMatch(/[0-9a-f]{128}/);
    }
    // Every token mailed in this file stayed out of every answer.
    const tokens = smtp.received.flatMap((m) => [...parseMail(m).text.matchAll(/\b([0-9a-f]{40}|[0-9a-f]{128})\b/g)].map((x) => x[1]!));
    expect(tokens.length).toBeGreaterThan(5);
    const outbox = JSON.stringify(await server.instance.db.all('SELECT * FROM folio_outbox'));
    const all = seen.join('\n') + outbox;
    for (const token of tokens) expect(all).not.toContain(token);
    expect(all).not.toContain('Passw0rd!');
  });
});
