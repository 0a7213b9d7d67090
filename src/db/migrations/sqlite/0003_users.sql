-- Users of the users & permissions plugin, and the grants a new installation gives its roles.

CREATE TABLE folio_users (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "documentId" TEXT NOT NULL UNIQUE,
  "username" TEXT NOT NULL UNIQUE,
  -- Stored lower-cased, so the unique index is case-insensitive.
  "email" TEXT NOT NULL UNIQUE,
  "provider" TEXT NOT NULL DEFAULT 'local',
  -- Bun.password hash (argon2id, or bcrypt imported from Strapi); never returned.
  "password" TEXT,
  -- SHA-256 of the reset code; the code itself only travels in the e-mail.
  "resetPasswordToken" TEXT,
  "confirmationToken" TEXT,
  "confirmed" INTEGER NOT NULL DEFAULT 1,
  "blocked" INTEGER NOT NULL DEFAULT 0,
  "roleId" INTEGER REFERENCES folio_roles("id") ON DELETE SET NULL,
  "createdAt" TEXT NOT NULL,
  "updatedAt" TEXT NOT NULL,
  "publishedAt" TEXT NOT NULL
);
CREATE INDEX folio_users_role ON folio_users ("roleId");
CREATE INDEX folio_users_reset ON folio_users ("resetPasswordToken");

-- Installations created before users existed get Strapi's default grants for them.
INSERT OR IGNORE INTO folio_permissions ("roleId", "action", "createdAt")
SELECT r."id", a."action", strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM folio_roles r
JOIN (
  SELECT 'public' AS "type", 'plugin::users-permissions.auth.callback' AS "action"
  UNION ALL SELECT 'public', 'plugin::users-permissions.auth.register'
  UNION ALL SELECT 'public', 'plugin::users-permissions.auth.forgotPassword'
  UNION ALL SELECT 'public', 'plugin::users-permissions.auth.resetPassword'
  UNION ALL SELECT 'authenticated', 'plugin::users-permissions.user.me'
  UNION ALL SELECT 'authenticated', 'plugin::users-permissions.auth.changePassword'
) a ON a."type" = r."type";
