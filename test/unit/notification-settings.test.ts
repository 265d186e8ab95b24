/**
 * The notification settings (src/core/settings/notifications.ts, docs/configuration.md): SMTP_URL is
 * smtp:// or smtps:// and, holding a password, never shown in the message that refuses it; SMTP_FROM
 * defaults to webhooks@ and BASE_URL's host; private addresses are refused unless
 * NOTIFY_ALLOW_PRIVATE_ADDRESSES=1; the retries' defaults are the limits'.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/core/config';
import { DEFAULT_NOTIFY_ATTEMPTS, DEFAULT_NOTIFY_BACKOFF_MS } from '../../src/domain/limits';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notify-settings-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

it('has no SMTP server, refuses private addresses and retries as the limits say, by default', () => {
  const { notifications } = loadConfig({ DATA_DIR: dataDir, BASE_URL: 'https://hooks.example.com' });
  expect(notifications).toEqual({
    smtpUrl: null,
    smtpFrom: 'webhooks@hooks.example.com',
    allowPrivateAddresses: false,
    retry: { attempts: DEFAULT_NOTIFY_ATTEMPTS, backoffMs: DEFAULT_NOTIFY_BACKOFF_MS },
  });
});

it('takes an smtps:// URL with its login, a sender and the test settings', () => {
  const env = {
    DATA_DIR: dataDir,
    SMTP_URL: 'smtps://mailer:s3cret@smtp.example.com:465',
    SMTP_FROM: 'alerts@example.com',
    NOTIFY_ALLOW_PRIVATE_ADDRESSES: '1',
    NOTIFY_ATTEMPTS: '2',
    NOTIFY_BACKOFF_MS: '50',
  };
  expect(loadConfig(env).notifications).toEqual({
    smtpUrl: 'smtps://mailer:s3cret@smtp.example.com:465',
    smtpFrom: 'alerts@example.com',
    allowPrivateAddresses: true,
    retry: { attempts: 2, backoffMs: 50 },
  });
});

it('refuses an SMTP_URL of another scheme without showing it (it may hold a password)', () => {
  expect(() => loadConfig({ DATA_DIR: dataDir, SMTP_URL: 'https://mailer:s3cret@smtp.example.com' })).toThrow(
    /SMTP_URL=\(\d+ characters, not shown\): expected smtp:\/\//,
  );
  expect(() => loadConfig({ DATA_DIR: dataDir, SMTP_URL: 'https://mailer:s3cret@smtp.example.com' })).not.toThrow(
    /s3cret/,
  );
});
