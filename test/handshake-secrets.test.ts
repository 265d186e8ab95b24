/**
 * Secrets senders give in handshakes, and the credentials a viewer reads (review R1 and R2,
 * src/robots/handshake-secrets.ts, src/api/views.ts), on the real stack: anyone holding a URL can
 * send Asana's or Notion's handshake, so none makes a secret active; an editor confirms the one the
 * real sender signs with, per robot URL; a viewer reads no URL, token or secret.
 */
import { createHmac } from 'node:crypto';
import { apiClient, robotAtWork, type ApiClient } from '../src/client/api-client';
import { waitFor } from '../src/launch/os/wait';
import { madeSecret } from './support/senders/fixture';
import { asanaHandshake, asanaSignature } from './support/senders/asana';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
let workspace: string;
let editor: ApiClient;
let viewer: ApiClient;
let owner: ApiClient;
beforeAll(async () => {
  stack = await startStack();
  workspace = (await stack.client.call('createWorkspace', { body: { name: 'Handshakes' } })).id;
  const keyOf = async (role: 'editor' | 'viewer' | 'owner') =>
    apiClient(
      stack.baseUrl,
      (await stack.client.call('createKey', { params: { id: workspace }, body: { name: role, role } })).key,
    );
  editor = await keyOf('editor');
  viewer = await keyOf('viewer');
  owner = await keyOf('owner');
});
afterAll(() => stack.close());

interface Pending {
  fingerprint: string;
  receivedAt: string;
  address: string;
}

const asanaEvent = JSON.stringify({ events: [{ action: 'changed', resource: { gid: '1' } }] });

/** Sends Asana's handshake with `secret`; the answer's status and echoed header. */
async function handshake(url: string, secret: string) {
  const sent = asanaHandshake(secret);
  const res = await stack.send('POST', url, sent.body, sent.headers);
  return { status: res.status, echoed: res.headers.get('x-hook-secret') };
}

/** Sends an Asana event signed with `secret`. */
async function event(url: string, secret: string, body = asanaEvent) {
  const headers = { 'Content-Type': 'application/json', 'X-Hook-Signature': asanaSignature(secret, body) };
  return (await stack.send('POST', url, body, headers)).status;
}

/** A robot's deliveries log and run history, read with the workspace's editor key. */
const deliveriesOf = async (robotId: string) =>
  (
    await editor.json<{ deliveries: Array<{ outcome: string; reason?: string }> }>(
      'GET',
      `/api/robots/${robotId}/deliveries?limit=100`,
    )
  ).deliveries;
const runsOf = async (robotId: string) => (await editor.call('listRuns', { params: { id: robotId } })).runs;

const pendingOf = async (robotId: string): Promise<Pending[]> =>
  (await editor.call('getRobot', { params: { id: robotId } })).trigger.card!.handshakeSecrets?.pending ?? [];

const confirm = (robotId: string, fingerprint: string) =>
  editor.request('POST', `/api/robots/${robotId}/trigger/handshake-secrets/confirm`, { fingerprint });

describe("Asana's handshake (R1)", () => {
  it("keeps a stranger's secret pending: its events make no run, the real sender is not locked out", async () => {
    const app = await editor.call('createApp', {
      body: { name: 'Asana', supportsInboundTrigger: true, bodyFormat: 'json', verification: { scheme: 'asana' } },
    });
    const make = async (name: string) => {
      const robot = await editor.call('createRobot', {
        body: {
          name,
          trigger: { appId: app.id },
          steps: [{ name: 's', type: 'compose', template: { action: '{{trigger.events.0.action}}' } }],
        },
      });
      const started = await editor.call('start', { params: { id: robot.id } });
      return { id: robot.id, url: started.trigger.card!.webhookUrl! };
    };
    const robot = await make('First');
    const stranger = madeSecret('a-strangers-secret', 64);
    const real = madeSecret('asanas-own-secret', 64);

    // The stranger first: echoed, as Asana requires, but pending.
    expect(await handshake(robot.url, stranger)).toEqual({ status: 200, echoed: stranger });
    expect(await event(robot.url, stranger)).toBe(400);
    // Asana's own handshake after it is answered too (it was refused 400 before).
    expect(await handshake(robot.url, real)).toEqual({ status: 200, echoed: real });
    const pending = await pendingOf(robot.id);
    expect(pending).toHaveLength(2);
    expect(pending.map((p) => p.address)).toEqual(['127.0.0.1', '127.0.0.1']);
    expect(JSON.stringify(await editor.call('getRobot', { params: { id: robot.id } }))).not.toContain(real);

    // Events signed with a pending secret make no run and say why.
    expect(await event(robot.url, real)).toBe(400);
    const refused = await waitFor(
      () => deliveriesOf(robot.id),
      (d) => d.filter((x) => x.outcome === 'rejected').length === 2,
    );
    const realFingerprint = pending[1].fingerprint;
    expect(refused.map((d) => d.reason)).toContainEqual(
      expect.stringContaining(
        `signed with the secret ${realFingerprint} a handshake gave, which no editor has confirmed`,
      ),
    );
    expect(await runsOf(robot.id)).toEqual([]);

    // A viewer cannot confirm; an editor confirms Asana's.
    expect(
      (
        await viewer.request('POST', `/api/robots/${robot.id}/trigger/handshake-secrets/confirm`, {
          fingerprint: realFingerprint,
        })
      ).status,
    ).toBe(403);
    expect((await confirm(robot.id, 'sha256:0000000000000000')).status).toBe(409);
    const confirmed = await confirm(robot.id, realFingerprint);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.pasteBack).toBeNull();
    expect(confirmed.body.robot.trigger.card.handshakeSecrets).toEqual({
      confirmed: expect.objectContaining({ fingerprint: realFingerprint, confirmedAt: expect.any(String) }),
      pending: [],
    });
    expect(await event(robot.url, real)).toBe(200);
    expect(await event(robot.url, stranger, JSON.stringify({ events: [{ action: 'forged' }] }))).toBe(400);
    const [run] = await waitFor(
      () => runsOf(robot.id),
      (r) => r.length === 1 && r[0].status === 'succeeded',
    );
    expect(run.trigger).toEqual(JSON.parse(asanaEvent));

    // Asana retrying its handshake with the confirmed secret: answered, nothing pending.
    expect(await handshake(robot.url, real)).toEqual({ status: 200, echoed: real });
    expect(await pendingOf(robot.id)).toEqual([]);

    // The secret is the URL's: a second robot on the same app has its own Asana webhook.
    const second = await make('Second');
    const secondSecret = madeSecret('the-second-webhooks-secret', 64);
    expect(await handshake(second.url, secondSecret)).toEqual({ status: 200, echoed: secondSecret });
    const [secondPending] = await pendingOf(second.id);
    expect((await confirm(second.id, secondPending.fingerprint)).status).toBe(200);
    expect(await event(second.url, secondSecret)).toBe(200);
    expect(await event(second.url, real, JSON.stringify({ events: [{ action: 'crossed' }] }))).toBe(400);
    expect(await event(robot.url, real, JSON.stringify({ events: [{ action: 'still' }] }))).toBe(200);

    // Recorded: each secret a handshake gave, with the sender's address, and the confirmations.
    const { entries } = await owner.json<{ entries: Array<Record<string, string>> }>('GET', '/api/audit?limit=200');
    const actions = entries.map((e) => `${e.action} ${e.resource}`);
    expect(actions.filter((a) => a === `robot.secret-from-handshake robot:${robot.id}`)).toHaveLength(2);
    expect(actions).toContain(`robot.secret-from-handshake robot:${second.id}`);
    expect(actions).toContain(`robot.confirm-handshake-secret robot:${robot.id}`);
    const fromSender = entries.find((e) => e.action === 'robot.secret-from-handshake');
    expect(fromSender).toMatchObject({ actor: { kind: 'sender' }, address: '127.0.0.1' });
    expect(JSON.stringify(entries)).not.toContain(real);
  });
});

describe("Notion's verification token (R1, R2)", () => {
  it('is pending until an editor confirms it, shown then once to paste back, and never to a viewer', async () => {
    const robot = await robotAtWork(editor, {
      template: { id: '{{trigger.id}}' },
      verification: { scheme: 'notion' },
    });
    const token = 'secret_' + madeSecret('notion-token', 43);
    const res = await stack.send('POST', robot.webhookUrl, JSON.stringify({ verification_token: token }), {
      'Content-Type': 'application/json',
    });
    expect(res.status).toBe(200);
    const [pending] = await pendingOf(robot.robotId);
    const app = JSON.stringify(await editor.call('getApp', { params: { id: robot.appId } }));
    expect(app).not.toContain(token);
    const confirmed = await confirm(robot.robotId, pending.fingerprint);
    expect(confirmed.body.pasteBack).toEqual({ label: 'Notion verification token', value: token });
    expect(JSON.stringify(await editor.call('getRobot', { params: { id: robot.robotId } }))).not.toContain(token);

    const body = JSON.stringify({ id: 'evt-1', type: 'page.created' });
    const signature = `sha256=${createHmac('sha256', token).update(body).digest('hex')}`;
    const sent = await stack.send('POST', robot.webhookUrl, body, {
      'Content-Type': 'application/json',
      'X-Notion-Signature': signature,
    });
    expect(sent.status).toBe(200);
    await waitFor(
      () => runsOf(robot.robotId),
      (r) => r.length === 1,
    );
    for (const path of [`/api/robots/${robot.robotId}`, `/api/apps/${robot.appId}`, '/api/apps'])
      expect(JSON.stringify(await viewer.json('GET', path))).not.toContain(token);
  });
});

describe('what a viewer reads (R2)', () => {
  it("shows a viewer the masked URL only; an editor's read of the live URL is recorded", async () => {
    const robot = await robotAtWork(editor, { template: { n: 1 } });
    const token = robot.webhookUrl.split('/').pop()!;
    const seen = await viewer.json('GET', `/api/robots/${robot.robotId}`);
    expect(seen.trigger.card.webhookUrl).toBeUndefined();
    expect(seen.trigger.card.maskedUrl).toBe(robot.webhookUrl.replace(token, `…${token.slice(-4)}`));
    expect(seen.trigger.identifier).toBe(robot.webhookUrl.split('/').slice(-2)[0]);
    expect(JSON.stringify(seen)).not.toContain(token);
    const { robots } = await viewer.call('listRobots');
    expect(JSON.stringify(robots)).not.toContain(token);

    const read = await editor.call('getRobot', { params: { id: robot.robotId } });
    expect(read.trigger.card!.webhookUrl).toBe(robot.webhookUrl);
    const { entries } = await owner.call('auditLog', { query: { limit: 200 } });
    expect(
      entries.filter((e) => e.action === 'robot.read-url' && e.resource === `robot:${robot.robotId}`),
    ).toHaveLength(1);
  });
});
