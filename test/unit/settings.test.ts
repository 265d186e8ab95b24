/**
 * What a bad setting says (src/core/settings/messages.ts): the variable, the value typed and what is
 * expected, an empty value refused like any other, a secret never shown; and a variable that looks
 * like a setting and is not one warned about with the nearest setting (src/core/settings/unknown.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/core/config';
import { editDistance, unknownSettingWarnings } from '../../src/core/settings/unknown';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-test-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig({ DATA_DIR: dataDir, ...env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('loadConfig took it');
}

describe('a refused setting names the variable, the value and what is expected', () => {
  test.each([
    ['PORT', '', "PORT='': expected a whole number, from 0 to 65535"],
    ['PORT', 'abc', "PORT='abc': expected a whole number, from 0 to 65535"],
    ['PORT', '70000', "PORT='70000': expected a whole number, from 0 to 65535"],
    ['PORT', ' 5 ', "PORT=' 5 ': expected a whole number, from 0 to 65535"],
    ['MAX_BODY_BYTES', '1mb', "MAX_BODY_BYTES='1mb': expected a whole number of bytes, 1 or more"],
    ['MAX_BODY_BYTES', '1e6', "MAX_BODY_BYTES='1e6': expected a whole number of bytes, 1 or more"],
    ['REQUEST_TIMEOUT_MS', '0', "REQUEST_TIMEOUT_MS='0': expected a whole number of milliseconds, 1 or more"],
    ['KEEP_BODIES', 'false', "KEEP_BODIES='false': expected 0 or 1"],
    ['LOG_LEVEL', 'INFO', "LOG_LEVEL='INFO': expected one of debug, info, warn, error"],
    ['HOST', '', "HOST='': must not be empty"],
    ['DATA_DIR', '', "DATA_DIR='': must not be empty"],
    ['BASE_URL', 'example.com', "BASE_URL='example.com': expected an absolute URL"],
    ['HISTORY_RETENTION', '', "HISTORY_RETENTION='': must be a number followed by s, m, h or d"],
  ])('%s=%j', (name, value, message) => {
    const text = refusal({ [name]: value });
    expect(text).toContain(message);
    expect(text).not.toMatch(/nan|received/i);
  });

  test('two bad values are both listed, each on its line', () => {
    const lines = refusal({ PORT: '', WORKER_NICE: '20' }).split('\n');
    expect(lines).toContain("  PORT='': expected a whole number, from 0 to 65535");
    expect(lines).toContain("  WORKER_NICE='20': expected a whole number, from 0 to 19");
  });

  test("a secret's value is never shown, only its length", () => {
    const text = refusal({ ADMIN_TOKEN: 'short-secret', SECRETS_KEY: 'abc' });
    expect(text).toContain('ADMIN_TOKEN=(12 characters, not shown): must be at least 16 characters');
    expect(text).toContain('SECRETS_KEY=(3 characters, not shown)');
    expect(text).not.toContain('short-secret');
  });

  test("a MongoDB URI's password is not shown", () => {
    const text = refusal({ MONGODB_URI: 'mongodb://robot:hunter2@db:27017/x', PORT: 'x' });
    expect(text).not.toContain('hunter2');
    const uri = refusal({ MONGODB_URI: 'http://robot:hunter2@db' });
    expect(uri).toContain('MONGODB_URI=');
  });

  test('digits are still taken as they always were', () => {
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', MAX_BODY_BYTES: '1024', WORKER_NICE: '0' });
    expect(config).toMatchObject({ port: 0, maxBodyBytes: 1024, workerNice: 0 });
  });
});

describe('a variable that looks like a setting and is not one', () => {
  test('a typo is warned about with the setting it is near', () => {
    expect(unknownSettingWarnings({ MAX_BODY_BYTE: '5' })).toEqual([
      'MAX_BODY_BYTE is not a setting of this service and is ignored: did you mean MAX_BODY_BYTES? ' +
        '(docs/configuration.md)',
    ]);
    expect(unknownSettingWarnings({ PROT: '80' })[0]).toContain('did you mean PORT?');
  });

  test('a name that starts like ours is warned about with the nearest of that start', () => {
    expect(unknownSettingWarnings({ EMBEDDED_TEMPORAL_WEB_UI_PORT: '8080' })[0]).toContain(
      'did you mean EMBEDDED_TEMPORAL_UI_PORT?',
    );
    expect(unknownSettingWarnings({ CSV_MAX_LINES: '10' })[0]).toContain('did you mean CSV_MAX_ROWS?');
  });

  test("settings, the set-up's and the bench's variables, and a shell's own are not", () => {
    const env = {
      PORT: '3000',
      MAX_BODY_BYTES: '5',
      HOME: '/root',
      PATH: '/bin',
      HOSTNAME: 'box',
      PWD: '/',
      USER: 'root',
      SHELL: '/bin/bash',
      LANG: 'C',
      TERM: 'xterm',
      NODE_ENV: 'production',
      NODE_OPTIONS: '',
      TEMPORAL_CLI_BIN: '/x',
      FERRETDB_VERSION: 'v1',
      WEBHOOKS_BIN_CACHE: '/x',
      BENCH_CONCURRENCY: '8',
      TEMPORAL_API_KEY: 'x',
      npm_config_cache: '/x',
    };
    expect(unknownSettingWarnings(env)).toEqual([]);
  });

  test('the distance counts insertions, deletions, substitutions and swaps of neighbours', () => {
    expect(editDistance('PORT', 'PORT')).toBe(0);
    expect(editDistance('PROT', 'PORT')).toBe(1);
    expect(editDistance('HOME', 'HOST')).toBe(2);
    expect(editDistance('MAX_BODY_BYTE', 'MAX_BODY_BYTES')).toBe(1);
    expect(editDistance('', 'ABC')).toBe(3);
  });
});
