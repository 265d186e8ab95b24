/**
 * Keys and roles (src/domain/workspaces.ts, src/workspaces/keys.ts) on the real stack: roles hold
 * (a viewer's write, an editor's key management and a key on the operator's routes answer 403), and
 * a key is shown once, records its use, and is refused forged, revoked or expired.
 */
import { apiClient } from '../src/client/api-client';
import { Keys } from '../src/workspaces/keys';
import { useWorkspaceA } from './support/workspaces';

const the = useWorkspaceA();

describe('a workspace', () => {
  it("answers 403 to a viewer's write and an editor's key management, and to a key on the operator's routes", async () => {
    const viewer = (await the.a.keyOf('viewer')).client;
    const editor = (await the.a.keyOf('editor')).client;
    expect((await viewer.request('GET', `/api/robots/${the.robot.robotId}`)).status).toBe(200);
    expect((await viewer.request('POST', `/api/robots/${the.robot.robotId}/pause`)).status).toBe(403);
    expect(
      (await viewer.request('POST', '/api/apps', { name: 'x', supportsInboundTrigger: true, bodyFormat: 'json' }))
        .status,
    ).toBe(403);
    expect((await editor.request('GET', `/api/workspaces/${the.a.id}/keys`)).status).toBe(403);
    expect(
      (await editor.request('POST', `/api/workspaces/${the.a.id}/keys`, { name: 'k', role: 'owner' })).status,
    ).toBe(403);
    expect((await editor.request('POST', `/api/robots/${the.robot.robotId}/pause`)).status).toBe(200);
    expect((await editor.request('POST', `/api/robots/${the.robot.robotId}/resume`)).status).toBe(200);
    for (const owner of [the.a.owner, editor]) {
      expect((await owner.request('POST', '/api/workspaces', { name: 'mine' })).status).toBe(403);
      expect((await owner.request('GET', '/api/workspaces')).status).toBe(403);
      expect((await owner.request('GET', '/api/codec')).status).toBe(403);
    }
    expect(await viewer.json('GET', '/api/me')).toMatchObject({
      role: 'viewer',
      workspace: { id: the.a.id, name: 'A' },
    });
  });

  it('shows a key once, records its use, and refuses it once revoked or expired', async () => {
    const made = await the.a.owner.call('createKey', {
      params: { id: the.a.id },
      body: { name: 'script', role: 'editor' },
    });
    expect(made.key).toMatch(/^whk_/);
    const client = apiClient(the.stack.baseUrl, made.key);
    expect((await client.request('GET', '/api/robots')).status).toBe(200);
    const listed = await the.a.owner.call('listKeys', { params: { id: the.a.id } });
    const entry = listed.keys.find((k) => k.id === made.id)!;
    expect(JSON.stringify(listed)).not.toContain(made.key.slice(-43));
    expect(entry).toMatchObject({ name: 'script', role: 'editor', revokedAt: null, expiresAt: null });
    expect(entry.lastUsedAt).not.toBeNull();

    // A wrong secret for a real key id is no key.
    const forged = `${made.key.slice(0, -43)}${'A'.repeat(43)}`;
    expect((await apiClient(the.stack.baseUrl, forged).request('GET', '/api/robots')).status).toBe(401);

    expect(await the.a.owner.call('revokeKey', { params: { id: made.id } })).toMatchObject({
      revokedAt: expect.any(String),
    });
    expect((await client.request('GET', '/api/robots')).status).toBe(401);

    const expiring = await the.a.owner.call('createKey', {
      params: { id: the.a.id },
      body: { name: 'for an hour', role: 'viewer', expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    const keys = new Keys(the.stack.models);
    expect(await keys.accepted(expiring.key)).not.toBeNull();
    expect(await keys.accepted(expiring.key, new Date(Date.now() + 3_600_001))).toBeNull();
  });
});
