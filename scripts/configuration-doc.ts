/**
 * docs/configuration.md's table of settings, written from the schema itself (src/core/settings/):
 * each variable's name, its default and its description, in the schema's order. Defaults the schema
 * cannot show as typed (made at start, found elsewhere, or transformed) are worded here.
 * test/unit/configuration-doc.test.ts fails when the doc differs; that test with WRITE_DOCS=1, or
 * `npm run build && node dist/scripts/configuration-doc.js`, rewrites the table (the prose around
 * it is kept).
 */
import fs from 'node:fs';
import path from 'node:path';
import { envSchema, type SettingName } from '../src/core/config-env';

function packageRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}
export const CONFIGURATION_DOC = path.join(packageRoot(), 'docs', 'configuration.md');
export const TABLE_START = '<!-- settings table: made by scripts/configuration-doc.ts from src/core/settings/ -->';
export const TABLE_END = '<!-- end of the settings table -->';

/** The default in words, where the schema has none to show (unset means something) or shows another form. */
export const DEFAULT_WORDING: Partial<Record<SettingName, string>> = {
  HOST: 'every address',
  BASE_URL: '`http://localhost:$PORT` (`npm run start:cluster`: `https://localhost:$PORT`)',
  TLS_CERT: 'none',
  TLS_KEY: 'none',
  ADMIN_TOKEN: 'generated, kept in `DATA_DIR/admin-token`',
  SECRETS_KEY: 'generated, kept in `DATA_DIR/secrets.key`',
  SECRETS_KEY_PREVIOUS: 'none',
  WEB_UI_KEY: 'generated, kept in `DATA_DIR/web-ui-key`',
  TRUST_PROXY: '`0`',
  TEMPORAL_ADDRESS: 'the embedded dev server',
  TEMPORAL_TLS_CA: 'none',
  TEMPORAL_TLS_CERT: 'none',
  TEMPORAL_TLS_KEY: 'none',
  TEMPORAL_TLS_SERVER_NAME: 'none',
  TEMPORAL_TLS: 'none',
  TEMPORAL_UI_URL: 'the embedded Web UI',
  MONGODB_URI: 'the embedded FerretDB',
  EMBEDDED_TEMPORAL_METRICS_PORT: "a port of the server's choosing",
  LOG_FORMAT: '`pretty` in a terminal, else `json`',
  HISTORY_RETENTION: '`30d`',
  AUDIT_RETENTION: '`365d`',
  ISSUE_NOTIFY_INTERVAL: '`1h`',
  SMTP_URL: 'none (no email channels)',
  SMTP_FROM: "`webhooks@` and `BASE_URL`'s host",
};

const BINARY_UNITS = [
  [1024 ** 3, 'GiB'],
  [1024 ** 2, 'MiB'],
  [1024, 'KiB'],
] as const;

/** A default as the table shows it: `32` or, for bytes, `33554432` (32 MiB). */
function shown(name: SettingName, value: unknown): string {
  if (typeof value === 'number' && name.includes('BYTES')) {
    const unit = BINARY_UNITS.find(([size]) => value >= size && value % size === 0);
    if (unit) return `\`${value}\` (${value / unit[0]} ${unit[1]})`;
  }
  return `\`${String(value)}\``;
}

/** What the table reads of a field (the same in zod 3 and 4). */
interface SchemaField {
  description?: string;
  safeParse(value: unknown): { success: boolean; data?: unknown };
}

/** One row a setting, in the schema's order. Throws for a setting without a description or a default. */
export function settingsTable(): string {
  const rows = ['| Variable | Default | Meaning |', '|---|---|---|'];
  for (const [name, field] of Object.entries(envSchema.shape) as Array<[SettingName, SchemaField]>) {
    if (!field.description) throw new Error(`${name} has no description: .describe() it in src/core/settings/`);
    const parsed = field.safeParse(undefined);
    const value = parsed.success ? parsed.data : undefined;
    const wording = DEFAULT_WORDING[name] ?? (value === undefined ? undefined : shown(name, value));
    if (wording === undefined) throw new Error(`${name} has no default: word it in DEFAULT_WORDING`);
    rows.push(`| \`${name}\` | ${wording} | ${field.description} |`);
  }
  return rows.join('\n');
}

/** The doc with its table made again (the text before and after the markers kept). */
export function configurationDoc(current: string): string {
  const start = current.indexOf(TABLE_START);
  const end = current.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${CONFIGURATION_DOC}: no ${TABLE_START} ... ${TABLE_END}`);
  return `${current.slice(0, start + TABLE_START.length)}\n${settingsTable()}\n${current.slice(end)}`;
}

if (require.main === module) {
  fs.writeFileSync(CONFIGURATION_DOC, configurationDoc(fs.readFileSync(CONFIGURATION_DOC, 'utf8')));
}
