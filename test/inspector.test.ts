/**
 * The delivery inspector's API on the real stack (docs/api.md, "The delivery inspector"): every
 * delivery keeps its request (every header, credentials masked, the URL's token masked) and its
 * sender's event name; a refused body is kept up to REFUSED_BODY_KEPT_BYTES; a body is read a page at a
 * time on a character's boundary; the log filters by outcome, time and event name on the server; a
 * refused delivery replays once the trigger's secret is fixed, and only if it verifies then.
 */
import { sign } from '@octokit/webhooks-methods';
import { startStack, type Stack } from './support/stack';
import { robotAtWork } from '../src/client/api-client';
import { waitFor } from '../src/launch/os/wait';
import { MASKED } from '../src/domain/inspection';
import { REFUSED_BODY_KEPT_BYTES } from '../src/domain/limits';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

// Built at run time, so nothing here looks like a real secret.
const secret = 'inspector-' + 'secret'.repeat(4);
const otherSecret = 'another-' + 'secret'.repeat(4);

const github = async (body: string, key: string, event = 'push') => ({
  'content-type': 'application/json',
  'x-github-event': event,
  'x-github-delivery': `d-${Math.random()}`,
  'x-hub-signature-256': await sign({ secret: key, algorithm: 'sha256' }, body),
});

const get = async (path: string) => {
  const { status, body } = await stack.api('GET', path);
  expect(status).toBe(200);
  return body;
};

const deliveriesWhere = async (robotId: string, query: string) =>
  (await get(`/api/robots/${robotId}/deliveries?${query}`)) as { deliveries: any[]; nextCursor: string | null };

describe('the delivery inspector', () => {
  let robot: Awaited<ReturnType<typeof robotAtWork>>;
  let taken: any;
  let refused: any;
  const body = JSON.stringify({ ref: 'refs/heads/main', note: 'café '.repeat(20) });
  const large = 'x'.repeat(REFUSED_BODY_KEPT_BYTES + 1000);

  beforeAll(async () => {
    robot = await robotAtWork(stack.client, {
      template: { ref: '{{trigger.ref}}' },
      verification: { scheme: 'github', secret },
    });
    const url = `${robot.webhookUrl}?source=ci&access_token=zzz-query-secret`;
    const extra = { authorization: 'Bearer zzz-bearer-secret', 'x-custom': 'kept' };
    expect((await stack.send('POST', url, body, { ...(await github(body, secret)), ...extra })).status).toBe(200);
    expect((await stack.send('POST', robot.webhookUrl, large, await github(large, otherSecret, 'issues'))).status).toBe(
      400,
    );
    const log = await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length === 2 && d.some((x) => x.outcome === 'processed'),
    );
    taken = await get(`/api/deliveries/${log.find((d) => d.outcome === 'processed').id}`);
    refused = await get(`/api/deliveries/${log.find((d) => d.outcome === 'rejected').id}`);
  });

  it('shows the request as it came: every header, credentials and the token masked, its event and runs', () => {
    const token = robot.webhookUrl.split('/').pop()!;
    expect(taken.request.method).toBe('POST');
    expect(taken.request.path).toBe(
      `/api/webhooks/${robot.webhookUrl.split('/').at(-2)}/…${token.slice(-4)}?source=ci&access_token=` +
        encodeURIComponent(MASKED),
    );
    const headers = new Map(taken.request.headers);
    expect(headers.get('x-github-event')).toBe('push');
    expect(headers.get('x-custom')).toBe('kept');
    expect(headers.get('x-hub-signature-256')).toMatch(/^sha256=/);
    expect(headers.get('authorization')).toBe(MASKED);
    const stored = JSON.stringify(taken);
    for (const credential of [token, 'zzz-bearer-secret', 'zzz-query-secret']) expect(stored).not.toContain(credential);
    expect(taken.event).toBe('push');
    expect(taken.runIds).toHaveLength(1);
    expect(taken.bodyKept).toBe(Buffer.byteLength(body));
    // A refused one keeps its request and its header's event name too (its body is never parsed).
    expect(refused.event).toBe('issues');
    expect(new Map(refused.request.headers).get('x-github-event')).toBe('issues');
    expect(refused.runIds).toEqual([]);
    expect(refused.answered).toBe(400);
    expect(taken.answered).toBeUndefined();
  });

  it("reads a body a page at a time, never cutting a character; keeps a refused body's first 64 KiB", async () => {
    let text = '';
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const page = await get(`/api/deliveries/${taken.id}/body?offset=${offset}&limit=7`);
      expect(page.encoding).toBe('utf8');
      text += page.data;
      offset = page.nextOffset;
      pages++;
    }
    expect(text).toBe(body);
    expect(pages).toBeGreaterThan(Buffer.byteLength(body) / 7 - 1);

    const first = await get(`/api/deliveries/${refused.id}/body`);
    expect(first).toMatchObject({ size: large.length, kept: REFUSED_BODY_KEPT_BYTES, offset: 0, nextOffset: null });
    expect(first.data).toBe(large.slice(0, REFUSED_BODY_KEPT_BYTES));
    expect(refused.bodyKept).toBe(REFUSED_BODY_KEPT_BYTES);
    // Cut, it cannot be replayed: its signature was over the whole body.
    const replay = await stack.api('POST', `/api/deliveries/${refused.id}/replay`);
    expect(replay.status).toBe(409);
    expect(replay.body.error).toMatch(/only the first 65536 bytes/);
  });

  it('filters the log on the server by outcome, event name and time, paging through what matches', async () => {
    const rejected = await deliveriesWhere(robot.robotId, 'outcome=rejected');
    expect(rejected.deliveries.map((d) => d.id)).toEqual([refused.id]);
    const push = await deliveriesWhere(robot.robotId, 'event=PUS');
    expect(push.deliveries.map((d) => d.id)).toEqual([taken.id]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await deliveriesWhere(robot.robotId, `since=${future}`)).deliveries).toEqual([]);
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const first = await deliveriesWhere(robot.robotId, `since=${past}&limit=1`);
    expect(first.deliveries).toHaveLength(1);
    const second = await deliveriesWhere(robot.robotId, `since=${past}&limit=1&cursor=${first.nextCursor}`);
    expect(second.deliveries).toHaveLength(1);
    expect(new Set([first.deliveries[0].id, second.deliveries[0].id])).toEqual(new Set([taken.id, refused.id]));
    expect((await stack.api('GET', `/api/robots/${robot.robotId}/deliveries?outcome=sideways`)).status).toBe(400);
  });
});

describe('replaying refused deliveries once the secret is fixed', () => {
  it('replays those that verify with the secret of now, and leaves out and counts those that do not', async () => {
    const robot = await robotAtWork(stack.client, {
      template: { n: '{{trigger.n}}' },
      verification: { scheme: 'github', secret: otherSecret },
    });
    // The sender signs with `secret`; the app was given the wrong one. And a forgery.
    const good = '{"n":1}';
    expect((await stack.send('POST', robot.webhookUrl, good, await github(good, secret))).status).toBe(400);
    const forged = '{"n":2}';
    expect((await stack.send('POST', robot.webhookUrl, forged, await github(forged, 'not-' + secret))).status).toBe(
      400,
    );
    await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length === 2,
    );
    // Before the fix, neither verifies.
    const before = await stack.client.call('replayDeliveries', {
      params: { id: robot.robotId },
      body: { outcome: 'rejected' },
    });
    expect(before).toMatchObject({ deliveryIds: [], notReplayed: 2 });

    const fixed = await stack.api('PATCH', `/api/apps/${robot.appId}`, { verification: { scheme: 'github', secret } });
    expect(fixed.status).toBe(200);
    const after = await stack.api('POST', `/api/robots/${robot.robotId}/deliveries/replay`, { outcome: 'rejected' });
    expect(after.status).toBe(202);
    expect(after.body).toMatchObject({ notReplayed: 1 });
    expect(after.body.deliveryIds).toHaveLength(1);
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r.length === 1 && r[0].status === 'succeeded',
    );
    expect(runs[0].trigger).toEqual({ n: 1 });
    const replayed = await get(`/api/deliveries/${after.body.deliveryIds[0]}`);
    expect(replayed).toMatchObject({ outcome: 'processed', verified: true, event: 'push' });
  });
});
