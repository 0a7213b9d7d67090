/**
 * Strapi's own relation targets (registry/system-models.ts) name the tables the migrations
 * make; the registry may not import db/, so this keeps the two spellings equal.
 */
import { describe, expect, test } from 'bun:test';
import { FILES_TABLE, SYSTEM } from '../../../src/db/layout';
import { FILE_MODEL } from '../../../src/registry/file-model';
import { ADMIN_USER_MODEL, ADMIN_USERS_TABLE, readAction, ROLE_MODEL, ROLES_TABLE, userModel, USERS_TABLE } from '../../../src/registry/system-models';

describe('system models', () => {
  test('read the tables the system migrations make', () => {
    expect(USERS_TABLE).toBe(SYSTEM.users);
    expect(ROLES_TABLE).toBe(SYSTEM.roles);
    expect(userModel().tableName).toBe(SYSTEM.users);
    expect(ROLE_MODEL.tableName).toBe(SYSTEM.roles);
    expect(FILE_MODEL.tableName).toBe(FILES_TABLE);
    expect(ADMIN_USERS_TABLE).toBe(SYSTEM.adminUsers);
    expect(ADMIN_USER_MODEL.tableName).toBe(SYSTEM.adminUsers);
  });

  test('are read through the permission Strapi names, the upload plugin’s find for files', () => {
    expect(readAction('plugin::users-permissions.user')).toBe('plugin::users-permissions.user.find');
    expect(readAction('plugin::upload.file')).toBe('plugin::upload.content-api.find');
  });

  test('never let the content API read admin users: no permission names that action', () => {
    expect(readAction('admin::user')).toBeUndefined();
    expect(ADMIN_USER_MODEL.attributes.password!.private).toBe(true);
  });

  test('keep every user secret private', () => {
    const user = userModel();
    for (const name of ['password', 'resetPasswordToken', 'confirmationToken']) expect(user.attributes[name]!.private).toBe(true);
  });
});
