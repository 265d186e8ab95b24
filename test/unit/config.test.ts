import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/core/config';

let dataDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-test-'));
});

afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const adminToken = 'admin-token-for-unit-tests';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('loadConfig did not throw');
}

describe('loadConfig defaults', () => {
  test('port is 3000', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).port).toBe(3000);
  });

  test('baseUrl is http://localhost:3000', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).baseUrl).toBe('http://localhost:3000');
  });

  test('maxBodyBytes is 32 MiB', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).maxBodyBytes).toBe(32 * 1024 * 1024);
  });

  test('baseUrl follows PORT when BASE_URL is not set', () => {
    expect(loadConfig({ DATA_DIR: dataDir, PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
  });

  test('dataDir is the absolute DATA_DIR', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).dataDir).toBe(path.resolve(dataDir));
  });

  test('history is kept 30 days', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).historyRetentionMs).toBe(30 * 86_400_000);
  });

  test('a generated secrets key is 32 bytes', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).secretsKey).toHaveLength(32);
  });
});

describe('loadConfig values', () => {
  test('a worker holds 100 workflow tasks at once unless WORKER_WORKFLOW_TASKS says otherwise', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).workerWorkflowTasks).toBe(100);
    expect(loadConfig({ DATA_DIR: dataDir, WORKER_WORKFLOW_TASKS: '32' }).workerWorkflowTasks).toBe(32);
  });

  test('a trailing slash on BASE_URL is stripped', () => {
    expect(loadConfig({ DATA_DIR: dataDir, BASE_URL: 'https://hooks.example.com/' }).baseUrl).toBe(
      'https://hooks.example.com',
    );
  });

  test('several trailing slashes on BASE_URL are stripped', () => {
    expect(loadConfig({ DATA_DIR: dataDir, BASE_URL: 'https://hooks.example.com/base//' }).baseUrl).toBe(
      'https://hooks.example.com/base',
    );
  });

  test('ADMIN_TOKEN is honoured', () => {
    expect(loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN: adminToken }).adminToken).toBe(adminToken);
  });

  test('ADMIN_TOKEN set means no admin-token file is written', () => {
    loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN: adminToken });
    expect(fs.existsSync(path.join(dataDir, 'admin-token'))).toBe(false);
  });

  test.each([
    ['14d', 14 * 86_400_000],
    ['12h', 12 * 3_600_000],
    ['90m', 90 * 60_000],
    ['45s', 45_000],
    ['0', 0],
  ])('HISTORY_RETENTION=%s is %d ms', (value, ms) => {
    expect(loadConfig({ DATA_DIR: dataDir, HISTORY_RETENTION: value }).historyRetentionMs).toBe(ms);
  });

  test('PORT and MAX_BODY_BYTES are read as numbers', () => {
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '4100', MAX_BODY_BYTES: '1024' });
    expect(config.port).toBe(4100);
    expect(config.maxBodyBytes).toBe(1024);
  });
});

describe('loadConfig generated secrets', () => {
  test('a generated admin token persists across two loads of the same DATA_DIR', () => {
    const first = loadConfig({ DATA_DIR: dataDir }).adminToken;
    const second = loadConfig({ DATA_DIR: dataDir }).adminToken;
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).toBe(first);
  });

  test('the admin token file is readable by its owner only', () => {
    loadConfig({ DATA_DIR: dataDir });
    expect(fs.statSync(path.join(dataDir, 'admin-token')).mode & 0o777).toBe(0o600);
  });

  test('the generated secrets key persists across two loads', () => {
    const first = loadConfig({ DATA_DIR: dataDir }).secretsKey;
    expect(loadConfig({ DATA_DIR: dataDir }).secretsKey.equals(first)).toBe(true);
  });

  test('different DATA_DIRs get different admin tokens', () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'config-test-'));
    try {
      expect(loadConfig({ DATA_DIR: other }).adminToken).not.toBe(loadConfig({ DATA_DIR: dataDir }).adminToken);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('loadConfig errors', () => {
  test('a non-numeric PORT throws ConfigError naming PORT', () => {
    expect(configError({ DATA_DIR: dataDir, PORT: 'eighty' }).message).toContain('PORT');
  });

  test('an out-of-range PORT throws ConfigError naming PORT', () => {
    expect(configError({ DATA_DIR: dataDir, PORT: '70000' }).message).toContain('PORT');
  });

  test('a MONGODB_URI without the mongodb scheme throws ConfigError naming MONGODB_URI', () => {
    expect(configError({ DATA_DIR: dataDir, MONGODB_URI: 'http://localhost:27017' }).message).toContain('MONGODB_URI');
  });

  test('a short ADMIN_TOKEN throws ConfigError naming ADMIN_TOKEN', () => {
    expect(configError({ DATA_DIR: dataDir, ADMIN_TOKEN: 'short' }).message).toContain('ADMIN_TOKEN');
  });

  test.each(['1', '1001', 'many'])('WORKER_WORKFLOW_TASKS=%s throws ConfigError naming it', (value) => {
    expect(configError({ DATA_DIR: dataDir, WORKER_WORKFLOW_TASKS: value }).message).toContain('WORKER_WORKFLOW_TASKS');
  });

  test('an invalid BASE_URL throws ConfigError naming BASE_URL', () => {
    expect(configError({ DATA_DIR: dataDir, BASE_URL: 'not a url' }).message).toContain('BASE_URL');
  });

  test.each(['30', '1w', '-1d', 'forever'])('HISTORY_RETENTION=%s throws ConfigError naming it', (value) => {
    expect(configError({ DATA_DIR: dataDir, HISTORY_RETENTION: value }).message).toContain('HISTORY_RETENTION');
  });

  test('in production, an http:// BASE_URL is refused unless ALLOW_HTTP_BASE_URL says so (review #17)', () => {
    const production = { DATA_DIR: dataDir, NODE_ENV: 'production' };
    expect(configError(production).message).toMatch(/BASE_URL: must be https:\/\/ in production/);
    expect(configError({ ...production, BASE_URL: 'http://hooks.example.com' }).message).toContain('BASE_URL');
    expect(loadConfig({ ...production, BASE_URL: 'https://hooks.example.com' }).baseUrl).toBe(
      'https://hooks.example.com',
    );
    expect(loadConfig({ ...production, BASE_URL: 'http://10.0.0.5:3000', ALLOW_HTTP_BASE_URL: '1' }).baseUrl).toBe(
      'http://10.0.0.5:3000',
    );
    // Elsewhere (npm start, the tests) the default is as before.
    expect(loadConfig({ DATA_DIR: dataDir }).baseUrl).toBe('http://localhost:3000');
  });

  test('TLS_CERT and TLS_KEY come together', () => {
    const file = path.join(dataDir, 'cert.pem');
    fs.writeFileSync(file, 'x');
    expect(configError({ DATA_DIR: dataDir, TLS_CERT: file }).message).toContain('TLS_CERT, TLS_KEY');
    expect(loadConfig({ DATA_DIR: dataDir, TLS_CERT: file, TLS_KEY: file }).edgeTls).toEqual({
      certFile: file,
      keyFile: file,
    });
  });

  test('the Web UI key is its own: kept in DATA_DIR/web-ui-key, not the admin token, and WEB_UI_KEY replaces it', () => {
    const made = loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN: adminToken });
    expect(made.webUiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fs.readFileSync(path.join(dataDir, 'web-ui-key'), 'utf8').trim()).toBe(made.webUiKey);
    expect(fs.statSync(path.join(dataDir, 'web-ui-key')).mode & 0o777).toBe(0o600);
    // Rotating the admin token leaves it, and it rotates alone.
    expect(loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN: `${adminToken}-2` }).webUiKey).toBe(made.webUiKey);
    const given = loadConfig({ DATA_DIR: dataDir, WEB_UI_KEY: 'another-web-ui-key-0123' });
    expect(given).toMatchObject({ webUiKey: 'another-web-ui-key-0123', webUiKeyFromEnv: true });
    expect(configError({ DATA_DIR: dataDir, WEB_UI_KEY: 'short' }).message).toContain('WEB_UI_KEY');
  });

  test('a valid MONGODB_URI is accepted', () => {
    expect(loadConfig({ DATA_DIR: dataDir, MONGODB_URI: 'mongodb://localhost:27017/db' }).mongodbUri).toBe(
      'mongodb://localhost:27017/db',
    );
  });

  test('an admin-token file too short to be a token stops the start, naming the file', () => {
    fs.writeFileSync(path.join(dataDir, 'admin-token'), 'ab');
    expect(configError({ DATA_DIR: dataDir }).message).toMatch(/admin-token: must be at least 16 characters/);
  });

  test.each(['not base64 at all', Buffer.alloc(16).toString('base64'), ''])(
    'a secrets.key file that is not 32 bytes of base64 (%j) stops the start, naming the file',
    (content) => {
      fs.writeFileSync(path.join(dataDir, 'secrets.key'), content);
      expect(configError({ DATA_DIR: dataDir }).message).toMatch(/secrets\.key: must be 32 bytes, base64-encoded/);
    },
  );

  test('SECRETS_KEY_PREVIOUS is read as keys, and a malformed one is refused naming it', () => {
    const [a, b] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    const config = loadConfig({
      DATA_DIR: dataDir,
      SECRETS_KEY_PREVIOUS: `${a.toString('base64')},${b.toString('base64')}`,
    });
    expect(config.previousSecretsKeys).toEqual([a, b]);
    expect(configError({ DATA_DIR: dataDir, SECRETS_KEY_PREVIOUS: 'short' }).message).toContain('SECRETS_KEY_PREVIOUS');
  });

  test('TLS to Temporal is on when a TEMPORAL_TLS_* file is named, and a file that cannot be read is refused', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).temporal.tls.enabled).toBe(false);
    const ca = path.join(dataDir, 'ca.pem');
    fs.writeFileSync(ca, 'x');
    expect(loadConfig({ DATA_DIR: dataDir, TEMPORAL_TLS_CA: ca }).temporal.tls).toEqual({ enabled: true, caFile: ca });
    expect(loadConfig({ DATA_DIR: dataDir, TEMPORAL_TLS: '1' }).temporal.tls.enabled).toBe(true);
    const missing = path.join(dataDir, 'missing.pem');
    expect(configError({ DATA_DIR: dataDir, TEMPORAL_TLS_CERT: missing }).message).toContain('TEMPORAL_TLS_CERT');
  });

  test('HEADERS_TIMEOUT_MS over REQUEST_TIMEOUT_MS is refused', () => {
    const env = { DATA_DIR: dataDir, HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' };
    expect(configError(env).message).toContain('HEADERS_TIMEOUT_MS');
  });

  test('every feature on the run path is on by default, and each can be turned off on its own', () => {
    const all = loadConfig({ DATA_DIR: dataDir });
    expect(all.runFeatures).toEqual({
      runSearchAttributes: true,
      runSummaries: true,
      keepBodies: true,
      fieldsSeen: true,
    });
    expect(all.payloadEncryption).toBe(true);
    const off = loadConfig({ DATA_DIR: dataDir, RUN_SUMMARIES: '0', PAYLOAD_ENCRYPTION: '0' });
    expect(off.runFeatures).toEqual({
      runSearchAttributes: true,
      runSummaries: false,
      keepBodies: true,
      fieldsSeen: true,
    });
    expect(off.payloadEncryption).toBe(false);
  });
});
