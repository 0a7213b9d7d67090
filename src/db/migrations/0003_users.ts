/** Users of the users & permissions plugin, and the grants a new installation gives its roles. */
import type { Dialect } from '../dialect';

export default function users(d: Dialect): string {
  const id = d.idColumn;
  const text = d.textType;
  // Installations created before users existed get Strapi's default grants for them; a
  // grant the role already holds is left as it is.
  const grants = d.insertIgnoring(
    'folio_permissions ("roleId", "action", "createdAt")',
    `SELECT r."id", a."action", ${d.nowText}
FROM folio_roles r
JOIN (
  SELECT 'public' AS "type", 'plugin::users-permissions.auth.callback' AS "action"
  UNION ALL SELECT 'public', 'plugin::users-permissions.auth.register'
  UNION ALL SELECT 'public', 'plugin::users-permissions.auth.forgotPassword'
  UNION ALL SELECT 'public', 'plugin::users-permissions.auth.resetPassword'
  UNION ALL SELECT 'authenticated', 'plugin::users-permissions.user.me'
  UNION ALL SELECT 'authenticated', 'plugin::users-permissions.auth.changePassword'
) a ON a."type" = r."type"`,
    '("roleId", "action")',
  );
  return `CREATE TABLE folio_users (
  "id" ${id},
  "documentId" ${text} NOT NULL UNIQUE,
  "username" ${text} NOT NULL UNIQUE,
  -- Stored lower-cased, so the unique index is case-insensitive.
  "email" ${text} NOT NULL UNIQUE,
  "provider" ${text} NOT NULL DEFAULT 'local',
  -- Bun.password hash (argon2id, or bcrypt imported from Strapi); never returned.
  "password" ${text},
  -- SHA-256 of the reset code; the code itself only travels in the e-mail.
  "resetPasswordToken" ${text},
  "confirmationToken" ${text},
  "confirmed" INTEGER NOT NULL DEFAULT 1,
  "blocked" INTEGER NOT NULL DEFAULT 0,
  "roleId" INTEGER REFERENCES folio_roles("id") ON DELETE SET NULL,
  "createdAt" ${text} NOT NULL,
  "updatedAt" ${text} NOT NULL,
  "publishedAt" ${text} NOT NULL
);
CREATE INDEX folio_users_role ON folio_users ("roleId");
CREATE INDEX folio_users_reset ON folio_users ("resetPasswordToken");

${grants};
`;
}
