/** What the launchers print about the admin token (src/entry/main.ts). */
import { adminTokenLines } from '../../src/entry/main';

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
