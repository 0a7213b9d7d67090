/**
 * The users & permissions plugin's stored settings (Strapi's core store keys
 * `plugin_users-permissions_advanced`, `_email`, `_grant`): one row per key, the value as JSON
 * text (auth/settings.ts reads it, the admin's Settings pages and `folio import strapi` write
 * it). A write moves the settings version on (migration 0005), so every instance's settings
 * cache sees it on its next request.
 *
 * Also indexes the users' confirmation token, and grants the account-flow actions a Strapi 5.54 installation starts with to installations
 * made before they existed: e-mail confirmation, providers and token refresh for the public,
 * logout and sessions for users. A grant a role already holds is left as it is.
 */
import type { Dialect } from '../dialect';

const TABLE = 'folio_plugin_store';

function bumpTriggers(d: Dialect): string {
  if (d.name === 'sqlite') {
    const bump = `INSERT OR REPLACE INTO folio_settings_version ("id", "version") VALUES (1, abs(random() % 9007199254740991));`;
    return ['INSERT', 'UPDATE', 'DELETE']
      .map((op) => `CREATE TRIGGER ${TABLE}_${op.toLowerCase()}_settings AFTER ${op} ON ${TABLE} BEGIN\n  ${bump}\nEND;\n`)
      .join('');
  }
  return (
    `CREATE TRIGGER ${TABLE}_settings AFTER INSERT OR UPDATE OR DELETE ON ${TABLE} FOR EACH ROW EXECUTE FUNCTION folio_bump_settings_version();\n` +
    `CREATE TRIGGER ${TABLE}_settings_truncate AFTER TRUNCATE ON ${TABLE} FOR EACH STATEMENT EXECUTE FUNCTION folio_bump_settings_version();\n`
  );
}

export default function pluginStore(d: Dialect): string {
  const grants = d.insertIgnoring(
    'folio_permissions ("roleId", "action", "createdAt")',
    `SELECT r."id", a."action", ${d.nowText}
FROM folio_roles r
JOIN (
  SELECT 'public' AS "type", 'plugin::users-permissions.auth.emailConfirmation' AS "action"
  UNION ALL SELECT 'public', 'plugin::users-permissions.auth.sendEmailConfirmation'
  UNION ALL SELECT 'public', 'plugin::users-permissions.auth.connect'
  UNION ALL SELECT 'public', 'plugin::users-permissions.auth.refresh'
  UNION ALL SELECT 'authenticated', 'plugin::users-permissions.auth.logout'
  UNION ALL SELECT 'authenticated', 'plugin::users-permissions.auth.getSessions'
  UNION ALL SELECT 'authenticated', 'plugin::users-permissions.auth.revokeSession'
) a ON a."type" = r."type"`,
    '("roleId", "action")',
  );
  return `CREATE TABLE ${TABLE} (
  "key" ${d.textType} PRIMARY KEY,
  -- JSON text.
  "value" TEXT NOT NULL,
  "updatedAt" ${d.textType} NOT NULL
);
${bumpTriggers(d)}
-- E-mail confirmation looks accounts up by the hash of their token (auth/account-flows.ts).
CREATE INDEX folio_users_confirmation ON folio_users ("confirmationToken");
${grants};
`;
}
