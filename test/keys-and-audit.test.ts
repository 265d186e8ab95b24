/**
 * Keys bound to their makers and an audit log to trust (review R4, R7; src/workspaces/keys.ts,
 * src/workspaces/audit.ts) on the real stack: a key a key made expires no later than its maker,
 * names it and is revoked with it, transitively; the log names who acted as fields (a key named
 * "admin" is a key), records refused writes and what senders did, shows addresses to owners only,
 * and 401s are counted by reason.
 */
import { randomUUID } from 'node:crypto';
import { apiClient, robotAtWork, type ApiClient } from '../src/client/api-client';
import { AuditLog, recordSenderEvent } from '../src/workspaces/audit';
import { Keys } from '../src/workspaces/keys';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

interface MadeKey {
  id: string;
  key: string;
  expiresAt: string | null;
  createdBy: { kind: string; keyId: string | null } | null;
  client: ApiClient;
}

/** A new workspace, and a way to make its keys: by the admin, or by a key of it (`by`). */
async function workspace() {
  const { id } = await stack.client.call('createWorkspace', { body: { name: `W ${randomUUID()}` } });
  const makeKey = async (body: { name: string; role: string; expiresAt?: string }, by = stack.client) => {
    const res = await by.request('POST', `/api/workspaces/${id}/keys`, body);
    expect(res.status).toBe(201);
    const made = res.body as Omit<MadeKey, 'client'>;
    return { ...made, client: apiClient(stack.baseUrl, made.key) };
  };
  return { id, makeKey };
}

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

describe('a key made by a key', () => {
  it('expires no later than its maker, names its maker, and the admin as the maker of its own', async () => {
    const w = await workspace();
    const expiry = inMinutes(60);
    const maker = await w.makeKey({ name: 'maker', role: 'owner', expiresAt: expiry });
    expect(maker).toMatchObject({ expiresAt: expiry, createdBy: { kind: 'admin', keyId: null } });

    const never = await w.makeKey({ name: 'never', role: 'owner' }, maker.client);
    expect(never).toMatchObject({ expiresAt: expiry, createdBy: { kind: 'key', keyId: maker.id } });
    const later = await w.makeKey({ name: 'later', role: 'viewer', expiresAt: inMinutes(120) }, maker.client);
    expect(later.expiresAt).toBe(expiry);
    const sooner = inMinutes(30);
    expect((await w.makeKey({ name: 'sooner', role: 'viewer', expiresAt: sooner }, maker.client)).expiresAt).toBe(
      sooner,
    );
    // Its grandchild too: the cap is the maker's, itself capped.
    const grandchild = await w.makeKey({ name: 'grandchild', role: 'viewer' }, never.client);
    expect(grandchild).toMatchObject({ expiresAt: expiry, createdBy: { kind: 'key', keyId: never.id } });

    const keys = new Keys(stack.models);
    const after = new Date(Date.parse(expiry) + 1);
    for (const k of [maker, never, later, grandchild])
      expect(await keys.check(k.key, after)).toEqual({ refused: 'expired' });
    const { keys: listed } = await stack.client.call('listKeys', { params: { id: w.id } });
    expect(listed.find((k) => k.id === never.id)).toMatchObject({
      expiresAt: expiry,
      createdBy: { kind: 'key', keyId: maker.id },
    });
  });

  it('is revoked with its maker, and what it made with it, while keys made by others stand', async () => {
    const w = await workspace();
    const owner = await w.makeKey({ name: 'owner', role: 'owner' });
    const maker = await w.makeKey({ name: 'maker', role: 'owner' }, owner.client);
    const child = await w.makeKey({ name: 'child', role: 'owner' }, maker.client);
    const grandchild = await w.makeKey({ name: 'grandchild', role: 'editor' }, child.client);
    const sibling = await w.makeKey({ name: 'sibling', role: 'viewer' }, owner.client);
    for (const k of [maker, child, grandchild]) expect((await k.client.request('GET', '/api/me')).status).toBe(200);

    const revoked = await owner.client.request('DELETE', `/api/keys/${maker.id}`);
    expect(revoked.status).toBe(200);
    for (const k of [maker, child, grandchild]) expect((await k.client.request('GET', '/api/me')).status).toBe(401);
    for (const k of [owner, sibling]) expect((await k.client.request('GET', '/api/me')).status).toBe(200);
    const { keys } = await owner.client.call('listKeys', { params: { id: w.id } });
    const revokedAt = (id: string) => keys.find((k) => k.id === id)?.revokedAt;
    for (const k of [maker, child, grandchild]) expect(revokedAt(k.id)).toBe(revoked.body.revokedAt);
    expect(revokedAt(sibling.id)).toBeNull();
  });

  it('is refused (409) and revoked when a key above it was revoked while it was made', async () => {
    const w = await workspace();
    const maker = await w.makeKey({ name: 'maker', role: 'owner' });
    const child = await w.makeKey({ name: 'child', role: 'owner' }, maker.client);
    const keys = new Keys(stack.models);
    const childDoc = (await keys.get(child.id))!;
    await stack.client.request('DELETE', `/api/keys/${maker.id}`, undefined, { 'x-workspace-id': w.id });
    // The child was accepted before the revocation reached it: what it makes meanwhile does not stand.
    await expect(keys.create(w.id, { name: 'late', role: 'owner' }, childDoc)).rejects.toMatchObject({ status: 409 });
    const { keys: listed } = await stack.client.call('listKeys', { params: { id: w.id } });
    expect(listed.find((k) => k.name === 'late')?.revokedAt).not.toBeNull();
  });
});

describe('the audit log', () => {
  /** The workspace's newest entries, as `client` reads them. */
  const newest = async (client: ApiClient, limit = 1) => (await client.call('auditLog', { query: { limit } })).entries;

  it('names who acted as fields: a key named "admin" is a key, and the admin token is the admin', async () => {
    const w = await workspace();
    const named = await w.makeKey({ name: 'admin', role: 'owner' });
    expect((await newest(named.client))[0]).toMatchObject({
      actor: { kind: 'admin', keyId: null, name: null },
      action: 'key.create',
      outcome: 'done',
    });
    await named.client.call('createApp', {
      body: { name: 'an app', supportsInboundTrigger: true, bodyFormat: 'json' },
    });
    expect((await newest(named.client))[0]).toMatchObject({
      actor: { kind: 'key', keyId: named.id, name: 'admin' },
      action: 'app.create',
      outcome: 'done',
    });
  });

  it("records a write the caller's role is short of as refused, with the action it tried", async () => {
    const w = await workspace();
    const owner = await w.makeKey({ name: 'owner', role: 'owner' });
    const robot = await robotAtWork(owner.client, { template: { n: '{{trigger.n}}' } });
    const viewer = await w.makeKey({ name: 'Val', role: 'viewer' });
    const editor = await w.makeKey({ name: 'Ed', role: 'editor' });
    expect((await viewer.client.request('POST', `/api/robots/${robot.robotId}/pause`)).status).toBe(403);
    expect(
      (await editor.client.request('POST', `/api/workspaces/${w.id}/keys`, { name: 'k', role: 'owner' })).status,
    ).toBe(403);
    expect(
      (await newest(owner.client, 2)).map(({ actor, action, outcome, resource }) => ({
        actor,
        action,
        outcome,
        resource,
      })),
    ).toEqual([
      {
        actor: { kind: 'key', keyId: editor.id, name: 'Ed' },
        action: 'key.create',
        outcome: 'refused',
        resource: 'key:',
      },
      {
        actor: { kind: 'key', keyId: viewer.id, name: 'Val' },
        action: 'robot.pause',
        outcome: 'refused',
        resource: `robot:${robot.robotId}`,
      },
    ]);
  });

  it('shows client addresses to owners and the admin only', async () => {
    const w = await workspace();
    const owner = await w.makeKey({ name: 'owner', role: 'owner' });
    const viewer = await w.makeKey({ name: 'viewer', role: 'viewer' });
    const editor = await w.makeKey({ name: 'editor', role: 'editor' });
    const admin = stack.client;
    const asAdmin = await admin.request('GET', '/api/audit?limit=1', undefined, { 'x-workspace-id': w.id });
    expect(asAdmin.body.entries[0].address).toMatch(/127\.0\.0\.1/);
    expect((await newest(owner.client))[0].address).toMatch(/127\.0\.0\.1/);
    for (const reader of [viewer, editor]) {
      const entries = await newest(reader.client, 10);
      expect(entries.length).toBeGreaterThan(0);
      expect(entries.every((e) => !('address' in e))).toBe(true);
    }
  });

  it('records what a sender did, as a sender with its address, in the workspace of the URL', async () => {
    const w = await workspace();
    const owner = await w.makeKey({ name: 'owner', role: 'owner' });
    await recordSenderEvent(stack.models, stack.config.auditRetentionMs, {
      workspaceId: w.id,
      address: '203.0.113.9',
      action: 'robot.secret-from-handshake',
      resource: 'robot:r1',
    });
    expect((await newest(owner.client))[0]).toMatchObject({
      actor: { kind: 'sender', keyId: null, name: null },
      action: 'robot.secret-from-handshake',
      outcome: 'done',
      resource: 'robot:r1',
      address: '203.0.113.9',
    });
  });

  it('reads entries written before 0.11 (the actor as text) as fields', async () => {
    const workspaceId = randomUUID();
    const keyId = randomUUID();
    const old = { at: new Date(), action: 'robot.pause', resource: 'robot:r', address: '::1' };
    await stack.models.AuditEntry.collection.insertMany([
      { _id: `${workspaceId}:1`, ...old, actor: 'admin' },
      { _id: `${workspaceId}:2`, ...old, actor: `admin (key ${keyId})` },
    ] as never[]);
    const { entries } = await new AuditLog(stack.models, 0).page(workspaceId, 10);
    expect(entries.map((e) => [e.actor, e.outcome])).toEqual([
      [{ kind: 'key', keyId, name: 'admin' }, 'done'],
      [{ kind: 'admin', keyId: null, name: null }, 'done'],
    ]);
  });

  it('counts refused credentials by reason, with no id in any label', async () => {
    const w = await workspace();
    const gone = await w.makeKey({ name: 'gone', role: 'viewer' });
    await stack.client.request('DELETE', `/api/keys/${gone.id}`, undefined, { 'x-workspace-id': w.id });
    const count = async (reason: string) => {
      const text = await (await fetch(`${stack.metricsUrl}/metrics`)).text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith(`webhooks_api_credentials_refused_total{reason="${reason}"}`));
      return Number(line?.split(' ').pop());
    };
    const before = { revoked: await count('revoked'), wrong: await count('wrong'), missing: await count('missing') };
    expect((await gone.client.request('GET', '/api/robots')).status).toBe(401);
    expect((await apiClient(stack.baseUrl, 'whk_nothing').request('GET', '/api/robots')).status).toBe(401);
    expect((await fetch(`${stack.baseUrl}/api/robots`)).status).toBe(401);
    expect(await count('revoked')).toBe(before.revoked + 1);
    expect(await count('wrong')).toBe(before.wrong + 1);
    expect(await count('missing')).toBe(before.missing + 1);
    const text = await (await fetch(`${stack.metricsUrl}/metrics`)).text();
    expect(text).not.toContain(gone.id);
  });
});
