/**
 * The environment as the service reads it: every setting's name, its default (most from
 * src/domain/limits/, which says why), its check and its description, by concept in ./settings/.
 * ./config.ts turns what it reads into the Config every process gets; docs/configuration.md's table
 * is written from this schema (scripts/configuration-doc.ts).
 */
import { z } from 'zod';
import { issueSettings } from './settings/issues';
import { limitSettings } from './settings/limits';
import { notificationSettings } from './settings/notifications';
import { serviceSettings } from './settings/service';
import { temporalSettings } from './settings/temporal';
import { workerSettings } from './settings/worker';

export const envSchema = z.object({
  ...serviceSettings,
  ...temporalSettings,
  ...limitSettings,
  ...workerSettings,
  ...issueSettings,
  ...notificationSettings,
});

/** Every setting's name. */
export type SettingName = keyof typeof envSchema.shape;
export const SETTING_NAMES = Object.keys(envSchema.shape) as SettingName[];

/** Settings whose value is a secret: a message about one never shows what was typed. */
export const SECRET_SETTINGS: ReadonlySet<string> = new Set<SettingName>([
  'ADMIN_TOKEN',
  'SECRETS_KEY',
  'SECRETS_KEY_PREVIOUS',
  'WEB_UI_KEY',
  'SMTP_URL', // its password
]);
