/**
 * System migrations, written once as functions of the dialect (engine-specific types and
 * forms come from db/dialect.ts), so both engines get the same tables from one text. They
 * are TypeScript modules, so the compiled binary carries them like any other code.
 * Never edit a migration that has shipped (installations record its name in
 * `folio_migrations` and will not run it again); add a new one at the end.
 */
import type { Dialect } from '../dialect';
import system from './0001_system';
import upload from './0002_upload';
import users from './0003_users';
import tokenVersion from './0004_token_version';
import settingsVersion from './0005_settings_version';
import events from './0006_events';
import relationTargets from './0007_relation_targets';
import schemaSnapshot from './0008_schema_snapshot';
import admin from './0009_admin';
import adminUserTargets from './0010_admin_user_targets';
import realtime from './0011_realtime';
import counts from './0012_counts';
import usersSettingsVersion from './0013_users_settings_version';
import webhookLanes from './0014_webhook_lanes';
import pluginStore from './0015_plugin_store';
import userSessions from './0016_user_sessions';
import adminPasswordResets from './0017_admin_password_resets';
import providerSessions from './0018_provider_sessions';
import history from './0019_history';
import audit from './0020_audit';
import releases from './0021_releases';
import cronTicks from './0022_cron_ticks';
import adminViews from './0023_admin_views';
import adminUserNames from './0024_admin_user_names';
import webhookEnabled from './0025_webhook_enabled';
import changeMarker from './0026_change_marker';

export interface Migration {
  name: string;
  /** The statements to run, for an engine. */
  sql: (dialect: Dialect) => string;
}

export const migrations: readonly Migration[] = [
  { name: '0001_system', sql: system },
  { name: '0002_upload', sql: upload },
  { name: '0003_users', sql: users },
  { name: '0004_token_version', sql: tokenVersion },
  { name: '0005_settings_version', sql: settingsVersion },
  { name: '0006_events', sql: events },
  { name: '0007_relation_targets', sql: relationTargets },
  { name: '0008_schema_snapshot', sql: schemaSnapshot },
  { name: '0009_admin', sql: admin },
  { name: '0010_admin_user_targets', sql: adminUserTargets },
  { name: '0011_realtime', sql: realtime },
  { name: '0012_counts', sql: counts },
  { name: '0013_users_settings_version', sql: usersSettingsVersion },
  { name: '0014_webhook_lanes', sql: webhookLanes },
  { name: '0015_plugin_store', sql: pluginStore },
  { name: '0016_user_sessions', sql: userSessions },
  { name: '0017_admin_password_resets', sql: adminPasswordResets },
  { name: '0018_provider_sessions', sql: providerSessions },
  { name: '0019_history', sql: history },
  { name: '0020_audit', sql: audit },
  { name: '0021_releases', sql: releases },
  { name: '0022_cron_ticks', sql: cronTicks },
  { name: '0023_admin_views', sql: adminViews },
  { name: '0024_admin_user_names', sql: adminUserNames },
  { name: '0025_webhook_enabled', sql: webhookEnabled },
  { name: '0026_change_marker', sql: changeMarker },
];
