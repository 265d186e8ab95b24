/** What the launchers print about the admin token (src/entry/main.ts). */
import { adminTokenLines, temporalLines, webUiKeyLines } from '../../src/entry/main';

const token = 'admin-token-' + 'x'.repeat(30);

it('prints a token the launcher made, with the file it is kept in', () => {
  const lines = adminTokenLines({ adminToken: token, adminTokenFromEnv: false, dataDir: '/data' }).join('\n');
  expect(lines).toContain(token);
  expect(lines).toContain('/data/admin-token');
});

it('never prints a token given in ADMIN_TOKEN', () => {
  const lines = adminTokenLines({ adminToken: token, adminTokenFromEnv: true, dataDir: '/data' }).join('\n');
  expect(lines).not.toContain(token);
  expect(lines).toContain('ADMIN_TOKEN');
});

describe('the Web UI codec endpoint', () => {
  const config = {
    receiverMetricsPort: 9463,
    metricsHost: '127.0.0.1',
    webUiKey: 'ui-key-' + 'y'.repeat(30),
    dataDir: '/data',
  };

  it('prints the endpoint on the metrics port (not the service), with a key the launcher made and its file', () => {
    const lines = webUiKeyLines({ ...config, webUiKeyFromEnv: false }).join('\n');
    expect(lines).toContain(`http://localhost:9463/codec/${config.webUiKey}`);
    expect(lines).toContain('/data/web-ui-key');
  });

  it('never prints a key given in WEB_UI_KEY', () => {
    const lines = webUiKeyLines({ ...config, webUiKeyFromEnv: true }).join('\n');
    expect(lines).not.toContain(config.webUiKey);
    expect(lines).toContain('http://localhost:9463/codec/<WEB_UI_KEY>');
  });

  it('names a METRICS_HOST that is not this machine, and says there is none without a metrics port', () => {
    const at = (metricsHost: string) => webUiKeyLines({ ...config, metricsHost, webUiKeyFromEnv: false }).join('\n');
    expect(at('0.0.0.0')).toContain(`http://localhost:9463/codec/${config.webUiKey}`);
    expect(at('10.0.0.5')).toContain(`http://10.0.0.5:9463/codec/${config.webUiKey}`);
    expect(at('fd00::5')).toContain(`http://[fd00::5]:9463/codec/${config.webUiKey}`);
    const none = webUiKeyLines({ ...config, receiverMetricsPort: 0, webUiKeyFromEnv: false }).join('\n');
    expect(none).toContain('none (RECEIVER_METRICS_PORT is 0');
    expect(none).not.toContain(config.webUiKey);
  });
});

describe('the embedded Temporal', () => {
  const temporal = {
    embedded: true,
    address: 'unix:///data/temporal-sockets/grpc.sock',
    webUiUrl: 'http://localhost:8233',
    openToLocalUsers: null,
  };

  it("says it is this user's alone, where its socket is, and what the Web UI asks for", () => {
    const lines = temporalLines(temporal).join('\n');
    expect(lines).toContain('Temporal (this user only):  unix:///data/temporal-sockets/grpc.sock');
    expect(lines).toContain('the admin token as password');
    expect(lines).not.toContain('WARNING');
  });

  it('warns, with the reason, when it is open to every local user (no namespace could be made)', () => {
    const open = { ...temporal, address: '127.0.0.1:7233', openToLocalUsers: 'unshare: spawnSync unshare ENOENT' };
    const lines = temporalLines(open).join('\n');
    expect(lines).toContain('WARNING:');
    expect(lines).toContain('open to every local user (unshare: spawnSync unshare ENOENT)');
  });

  it('says nothing of a Temporal given in TEMPORAL_ADDRESS', () => {
    expect(temporalLines({ ...temporal, embedded: false })).toEqual([]);
  });
});
