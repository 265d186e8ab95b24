/** What the launchers print about the admin token (src/entry/main.ts). */
import { adminTokenLines, webUiKeyLines } from '../../src/entry/main';

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
  const config = { baseUrl: 'http://host:3000', webUiKey: 'ui-key-' + 'y'.repeat(30), dataDir: '/data' };

  it('prints the endpoint with a key the launcher made, and the file it is kept in', () => {
    const lines = webUiKeyLines({ ...config, webUiKeyFromEnv: false }).join('\n');
    expect(lines).toContain(`http://host:3000/codec/${config.webUiKey}`);
    expect(lines).toContain('/data/web-ui-key');
  });

  it('never prints a key given in WEB_UI_KEY', () => {
    const lines = webUiKeyLines({ ...config, webUiKeyFromEnv: true }).join('\n');
    expect(lines).not.toContain(config.webUiKey);
    expect(lines).toContain('http://host:3000/codec/<WEB_UI_KEY>');
  });
});
