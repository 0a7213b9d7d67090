/**
 * Plugins as a Strapi project uses them (test/fixtures/projects/plugins-js, run on a copy of the
 * Strapi 5.54.0 peer too, with the same SMTP catcher): the email plugin's send and
 * sendTemplatedEmail through the project's sendmail provider options (mapped onto Folio's SMTP
 * sender), users-permissions' user (sendConfirmationEmail included) and jwt services, the upload service, a local plugin
 * (config/plugins resolve, its config over its defaults, register/bootstrap, a service, a
 * controller and a content-api route under /api/<plugin>, a custom field its register declares,
 * which the registry then accepts), a GraphQL extension through the graphql plugin's service,
 * and an extension adding a users-permissions route.
 * Both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyProject } from '../helpers/project';
import { startServer, type TestServer } from '../helpers/server';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../helpers/smtp-server';
import { removeTempDirs } from '../helpers/spawn';

let server: TestServer;
let smtp: TestSmtpServer;
const saved = { SMTP_PORT: process.env.SMTP_PORT, FOLIO_SMTP_URL: process.env.FOLIO_SMTP_URL };
beforeAll(async () => {
  smtp = await startSmtpServer();
  process.env.SMTP_PORT = String(smtp.port);
  delete process.env.FOLIO_SMTP_URL;
  server = await startServer({ contentTypes: copyProject('plugins-js') });
});
afterAll(async () => {
  await server.stop();
  await smtp.close();
  for (const [key, value] of Object.entries(saved))
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  removeTempDirs();
});

/** A received message's header and its text body (quoted-printable decoded). */
function read(mail: ReceivedMail) {
  const [head, ...rest] = mail.data.split('\r\n\r\n');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head!)?.[1];
  const body = rest
    .join('\r\n\r\n')
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
  return { to: mail.to, from: header('From'), subject: header('Subject'), body };
}

describe('the email plugin', () => {
  test("send delivers to every recipient of to and cc, from the provider settings' defaultFrom", async () => {
    const sent = await server.call('POST', '/api/mail/send', {
      body: { to: 'ann@example.com, bob@example.com', cc: 'carl@example.com', subject: 'Hello Ann', text: 'Plain text', html: '<p>HTML <b>text</b></p>' },
    });
    expect(sent.body).toEqual({ sent: true });
    const mails = (await smtp.waitFor(3)).map(read);
    expect(
      mails
        .map((m) => m.to)
        .flat()
        .sort(),
    ).toEqual(['ann@example.com', 'bob@example.com', 'carl@example.com']);
    for (const mail of mails) {
      expect(mail.from).toBe('Blog <blog@example.com>');
      expect(mail.subject).toBe('Hello Ann');
      expect(mail.body).toContain('Plain text');
    }
  });

  test('sendTemplatedEmail fills <%= %> from the data', async () => {
    smtp.received.length = 0;
    await server.call('POST', '/api/mail/templated', { body: { to: 'dan@example.com', user: { firstname: 'Dan', email: 'dan@example.com' } } });
    const [mail] = (await smtp.waitFor(1)).map(read);
    expect(mail!.subject).toBe('Welcome Dan');
    expect(mail!.body).toContain('Welcome on mywebsite.fr! Your account is now linked with: dan@example.com.');
  });

  test('a mail without recipients is an error (a 500, as on Strapi)', async () => {
    expect((await server.call('POST', '/api/mail/send', { body: { subject: 'nobody', text: 'x' } })).status).toBe(500);
  });
});

describe('users-permissions and upload services', () => {
  test('user.add, jwt.issue and jwt.verify, user.count', async () => {
    const account = await server.call('POST', '/api/mail/account', { body: { username: 'eve', email: 'eve@example.com', password: 'Secret123' } });
    expect(account.body).toEqual({ username: 'eve', email: 'eve@example.com', verified: true, count: 1 });
  });

  test('user.sendConfirmationEmail mails the account confirmation, whose link confirms the account', async () => {
    smtp.received.length = 0;
    expect((await server.call('POST', '/api/mail/confirm', { body: { username: 'fay', email: 'fay@example.com', password: 'Secret123' } })).body).toEqual({
      sent: true,
    });
    const [mail] = (await smtp.waitFor(1)).map(read);
    expect(mail!.to).toEqual(['fay@example.com']);
    expect(mail!.subject).toBe('Account confirmation');
    const link = /(http:\/\/\S+\/api\/auth\/email-confirmation\?confirmation=[0-9a-f]{40})/.exec(mail!.body)?.[1];
    expect(link).toBeString();
    const login = () =>
      fetch(`${server.url}/api/auth/local`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ identifier: 'fay', password: 'Secret123' }),
      });
    const confirmed = await fetch(new URL(new URL(link!).pathname + new URL(link!).search, server.url), { redirect: 'manual' });
    expect(confirmed.status).toBe(302);
    expect((await login()).status).toBe(200);
  });

  test('upload stores a file of the request with its info', async () => {
    const form = new FormData();
    form.append('file', new File(['hello file'], 'hello.txt', { type: 'text/plain' }));
    const response = await fetch(`${server.url}/api/mail/file`, { method: 'POST', body: form });
    expect(await response.json()).toEqual({ name: 'hello.txt', mime: 'text/plain', alternativeText: 'from a plugin' });
  });
});

describe('a local plugin and an extension', () => {
  test("the plugin's route, controller, service and config (config/plugins over its defaults), after its bootstrap", async () => {
    const hello = await server.call('GET', '/api/greeter/hello/Ann');
    expect(hello.status).toBe(200);
    expect(hello.body).toEqual({ message: 'Hello, Ann!', bootstrapped: true });
  });

  test('a custom field its register declares: the schema using it loads, values are stored as its type', async () => {
    const created = await server.call('POST', '/api/notes', { body: { data: { title: 'n1', mood: 'happy' } } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data)).toEqual(['id', 'documentId', 'title', 'mood', 'createdAt', 'updatedAt', 'publishedAt']);
    expect(created.body.data.mood).toBe('happy');
  });

  test("a GraphQL extension registered through the graphql plugin's extension service, calling the local plugin", async () => {
    const answer = await server.call('POST', '/graphql', { body: { query: '{ greeting(name: "GraphQL") }' } });
    expect(answer.body).toEqual({ data: { greeting: 'Hello, GraphQL!' } });
  });

  test('an extension adds a users-permissions route and controller', async () => {
    // eve (user.add) and fay (sendConfirmationEmail) above.
    expect((await server.call('GET', '/api/users-total')).body).toEqual({ total: 2 });
  });
});
