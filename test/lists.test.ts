/**
 * Lists that scale and safety rails, through the API on the real stack (issue 54, items 4 and 5):
 * the robots list's filter by state, its count and its pages both ways (src/workspaces/robot-directory.ts);
 * the last working owner key a key cannot revoke (src/workspaces/keys.ts); `GET /api/me` naming the
 * caller's key; the audit log filtered by actor, action and time, its resources named
 * (src/workspaces/audit.ts, src/workspaces/resource-names.ts).
 */
import { randomUUID } from 'node:crypto';
import { apiClient, type ApiClient } from '../src/client/api-client';
import { rawCollection } from '../src/storage/writes';
import { storedRobotDoc } from './support/robots';
import type { RobotDoc } from '../src/storage/documents';
import { RobotDirectory } from '../src/workspaces/robot-directory';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** A new workspace with an owner key (made by the admin) and an app. */
async function workspace() {
  const { id } = await stack.client.call('createWorkspace', { body: { name: `W ${randomUUID()}` } });
  const made = await stack.client.call('createKey', { params: { id }, body: { name: 'first owner', role: 'owner' } });
  const owner = apiClient(stack.baseUrl, made.key);
  const app = await owner.call('createApp', {
    body: { name: 'orders', supportsInboundTrigger: true, bodyFormat: 'json' },
  });
  return { id, owner, ownerKeyId: made.id, appId: app.id };
}

/** `n` robots stored as the service stores them, listed in the directory with `state`, a second apart. */
async function storedRobots(workspaceId: string, appId: string, n: number, state: RobotDoc['state'], withState = true) {
  const start = Date.now() - 3_600_000;
  const docs = Array.from({ length: n }, (_, i) =>
    storedRobotDoc(workspaceId, appId, `Stored ${state} ${i}`, state, new Date(start + i * 1000)),
  );
  await rawCollection(stack.models.Robot).insertMany(docs);
  const directory = new RobotDirectory(stack.models);
  for (const r of docs) {
    if (withState) await directory.list(r);
    else await directory.list({ ...r, state: undefined as unknown as RobotDoc['state'] });
  }
  return docs;
}

interface RobotsPage {
  robots: { id: string; name: string; state: string }[];
  nextCursor: string | null;
  prevCursor: string | null;
  total: number;
  offset: number;
}
const robotsPage = (client: ApiClient, query: string) => client.json<RobotsPage>('GET', `/api/robots?${query}`);

describe('the robots list', () => {
  it('filters by state with its count, and pages forward and back to the same pages', async () => {
    const w = await workspace();
    await storedRobots(w.id, w.appId, 12, 'paused');
    await storedRobots(w.id, w.appId, 7, 'stopped');
    const all = await robotsPage(w.owner, 'limit=5');
    expect(all).toMatchObject({ total: 19, offset: 0, prevCursor: null });

    const first = await robotsPage(w.owner, 'limit=5&state=paused');
    expect(first.total).toBe(12);
    expect(first.robots.map((r) => r.state)).toEqual(Array(5).fill('paused'));
    const second = await robotsPage(w.owner, `limit=5&state=paused&cursor=${first.nextCursor}`);
    const third = await robotsPage(w.owner, `limit=5&state=paused&cursor=${second.nextCursor}`);
    expect([second.offset, third.offset, third.robots.length, third.nextCursor]).toEqual([5, 10, 2, null]);
    const back = await robotsPage(w.owner, `limit=5&state=paused&before=${third.prevCursor}`);
    expect(back).toEqual(second);
    const backAgain = await robotsPage(w.owner, `limit=5&state=paused&before=${back.prevCursor}`);
    expect(backAgain).toEqual(first);
    expect(new Set([...first.robots, ...second.robots, ...third.robots].map((r) => r.id)).size).toBe(12);

    const searched = await robotsPage(w.owner, 'state=stopped&search=STOPPED 3');
    expect(searched.robots.map((r) => r.name)).toEqual(['Stored stopped 3']);
    expect((await w.owner.request('GET', `/api/robots?cursor=${first.nextCursor}&before=x`)).status).toBe(400);
    expect((await w.owner.request('GET', '/api/robots?state=asleep')).status).toBe(400);
  });

  it('lists a robot in its new state once a transition moved it', async () => {
    const w = await workspace();
    const robot = await w.owner.call('createRobot', {
      body: { name: 'moving', trigger: { appId: w.appId }, steps: [{ name: 's', type: 'compose', template: {} }] },
    });
    const ids = async (state: string) => (await robotsPage(w.owner, `state=${state}`)).robots.map((r) => r.id);
    expect(await ids('draft')).toEqual([robot.id]);
    await w.owner.call('start', { params: { id: robot.id } });
    expect([await ids('draft'), await ids('at_work')]).toEqual([[], [robot.id]]);
    await w.owner.call('pause', { params: { id: robot.id } });
    expect([await ids('at_work'), await ids('paused')]).toEqual([[], [robot.id]]);
    // A process that never read the workspace has it in its new state too (its entries, then its snapshot).
    const fresh = await new RobotDirectory(stack.models).page(w.id, { limit: 10, state: 'paused' });
    expect(fresh).toMatchObject({ ids: [robot.id], total: 1 });
  });

  it("reads the states of robots listed before states were (0.11's entries) once, from the robots", async () => {
    const w = await workspace();
    const old = await storedRobots(w.id, w.appId, 3, 'stopped', false);
    const stopped = await new RobotDirectory(stack.models).page(w.id, { limit: 10, state: 'stopped' });
    expect(new Set(stopped.ids)).toEqual(new Set(old.map((r) => r._id)));
    const snapshot = await stack.models.RobotListingSnapshot.findById(w.id).lean();
    expect(JSON.parse(snapshot!.robotsJson)).toEqual(
      expect.arrayContaining(old.map((r) => expect.objectContaining({ id: r._id, state: 'stopped' }))),
    );
  });
});

describe('keys', () => {
  it("refuses a key revoking the workspace's last owner key, itself or through the keys it made", async () => {
    const w = await workspace();
    const me = await w.owner.call('caller');
    expect(me.keyId).toBe(w.ownerKeyId);
    expect((await stack.client.call('caller')).keyId).toBeNull();

    const alone = await w.owner.request('DELETE', `/api/keys/${w.ownerKeyId}`);
    expect(alone.status).toBe(409);
    expect(alone.body.error).toMatch(/last owner key: make another owner key first/);
    // A second owner made by the first: revoking the first would revoke both.
    const second = await w.owner.call('createKey', {
      params: { id: w.id },
      body: { name: 'second owner', role: 'owner' },
    });
    const through = await w.owner.request('DELETE', `/api/keys/${w.ownerKeyId}`);
    expect(through.status).toBe(409);
    expect(through.body.error).toMatch(/with the keys it made, the workspace's last owner key/);
    const listed = await w.owner.call('listKeys', { params: { id: w.id } });
    expect(listed.keys.map((k) => [k.id, k.revokeRefused !== null])).toEqual(
      expect.arrayContaining([
        [w.ownerKeyId, true],
        [second.id, false],
      ]),
    );
    // The second revoked, the first is the last again; an owner the admin made lets it go.
    expect((await w.owner.request('DELETE', `/api/keys/${second.id}`)).status).toBe(200);
    await stack.client.call('createKey', { params: { id: w.id }, body: { name: 'third owner', role: 'owner' } });
    expect((await w.owner.request('DELETE', `/api/keys/${w.ownerKeyId}`)).status).toBe(200);
    expect((await w.owner.request('GET', '/api/me')).status).toBe(401);
  });
});

describe('the audit log', () => {
  interface Entry {
    at: string;
    action: string;
    actor: { kind: string; keyId: string | null };
    resource: string;
    resourceName: string | null;
  }
  const audit = (client: ApiClient, query: string) =>
    client.json<{ entries: Entry[]; nextCursor: string | null }>('GET', `/api/audit?${query}`);

  it('filters by actor, action and time on the server, and names the resources', async () => {
    const w = await workspace();
    const robot = await w.owner.call('createRobot', {
      body: {
        name: 'audited robot',
        trigger: { appId: w.appId },
        steps: [{ name: 's', type: 'compose', template: {} }],
      },
    });
    const between = new Date().toISOString();
    for (let i = 0; i < 3; i++)
      await w.owner.call('editRobot', { params: { id: robot.id }, body: { name: `audited robot ${i}` } });
    await stack.client.request(
      'PATCH',
      `/api/robots/${robot.id}`,
      { name: 'renamed by the admin' },
      {
        'x-workspace-id': w.id,
      },
    );

    const edits = await audit(w.owner, 'action=robot.edit');
    expect(edits.entries.map((e) => e.actor.kind)).toEqual(['admin', 'key', 'key', 'key']);
    expect(edits.entries[0]).toMatchObject({ resource: `robot:${robot.id}`, resourceName: 'renamed by the admin' });
    const byKey = await audit(w.owner, `actor=${w.ownerKeyId}&action=robot.edit&limit=2`);
    expect(byKey.entries).toHaveLength(2);
    const rest = await audit(w.owner, `actor=${w.ownerKeyId}&action=robot.edit&limit=2&cursor=${byKey.nextCursor}`);
    expect(rest.entries).toHaveLength(1);
    expect((await audit(w.owner, 'actor=admin')).entries.map((e) => e.action)).toEqual(['robot.edit', 'key.create']);

    const before = await audit(w.owner, `until=${between}`);
    expect(before.entries.map((e) => e.action)).toEqual(['robot.create', 'app.create', 'key.create']);
    expect(before.entries[1]).toMatchObject({ resource: `app:${w.appId}`, resourceName: 'orders' });
    expect(before.entries[2]).toMatchObject({ resource: `key:${w.ownerKeyId}`, resourceName: 'first owner' });
    const since = await audit(w.owner, `since=${between}`);
    expect(since.entries.map((e) => e.action)).toEqual(Array(4).fill('robot.edit'));
    expect(since.nextCursor).toBeNull();
    expect((await w.owner.request('GET', '/api/audit?since=yesterday')).status).toBe(400);
  });
});
