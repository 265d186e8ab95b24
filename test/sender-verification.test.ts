/**
 * Custom apps' signature verification over HTTP on the real stack (docs/api.md, Verification):
 * for every scheme, a request signed as the provider documents it runs; a forged one is 400 and a
 * `rejected` delivery with its reason, never a run; a replayed one makes no second run (refused
 * when the scheme signs a time, else a duplicate: its key is taken from what the sender signed,
 * never from an unsigned delivery id header).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startStack, type Stack } from './support/stack';
import { robotAtWork } from '../src/client/api-client';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

// Built at run time, so nothing here looks like a real secret.
const plainSecret = 'test-' + 'secret'.repeat(4);
const whsec = 'whsec_' + Buffer.from('standard-webhooks-' + 'key'.repeat(8)).toString('base64');

const hmac = (algorithm: string, secret: string, data: string) => createHmac(algorithm, secret).update(data);
const now = () => Math.floor(Date.now() / 1000);

interface Scheme {
  verification: Record<string, unknown>;
  /** Headers a sender of this scheme sends for the body, signed at `at` (unix seconds). */
  sign(body: string, at: number, id: string): Record<string, string>;
  /** Whether the scheme signs a time (an old signature is refused) rather than carrying a delivery id. */
  signsTime: boolean;
}

const schemes: Record<string, Scheme> = {
  'standard-webhooks': {
    verification: { scheme: 'standard-webhooks', secret: whsec },
    sign: (body, at, id) => ({
      'webhook-id': id,
      'webhook-timestamp': String(at),
      'webhook-signature': new Webhook(whsec).sign(id, new Date(at * 1000), body),
    }),
    signsTime: true,
  },
  github: {
    verification: { scheme: 'github', secret: plainSecret },
    sign: (body, _at, id) => ({
      'x-github-delivery': id,
      'x-github-event': 'push',
      'x-hub-signature-256': 'sha256=' + hmac('sha256', plainSecret, body).digest('hex'),
    }),
    signsTime: false,
  },
  shopify: {
    verification: { scheme: 'shopify', secret: plainSecret },
    sign: (body, _at, id) => ({
      'x-shopify-webhook-id': id,
      'x-shopify-hmac-sha256': hmac('sha256', plainSecret, body).digest('base64'),
    }),
    signsTime: false,
  },
  slack: {
    verification: { scheme: 'slack', secret: plainSecret },
    sign: (body, at) => ({
      'x-slack-request-timestamp': String(at),
      'x-slack-signature': 'v0=' + hmac('sha256', plainSecret, `v0:${at}:${body}`).digest('hex'),
    }),
    signsTime: true,
  },
  hmac: {
    verification: {
      scheme: 'hmac',
      secret: plainSecret,
      header: 'X-Signature',
      algorithm: 'sha512',
      encoding: 'base64',
      prefix: 'sha512=',
    },
    sign: (body) => ({ 'x-signature': 'sha512=' + hmac('sha512', plainSecret, body).digest('base64') }),
    signsTime: false,
  },
};

/** Deliveries the receiver answered as repeats (webhooks_deliveries_total{outcome="duplicate"}). */
async function duplicates(): Promise<number> {
  const { values } = await stack.metrics.receiver.deliveries.get();
  return values.find((v) => v.labels.outcome === 'duplicate')?.value ?? 0;
}

describe.each(Object.entries(schemes))('%s', (name, scheme) => {
  it('runs a signed delivery; refuses a forged one as rejected; a replayed signature makes no second run', async () => {
    const robot = await robotAtWork(stack.client, {
      template: { n: '{{trigger.n}}' },
      verification: scheme.verification,
    });
    const app = await stack.client.call('getApp', { params: { id: robot.appId } });
    expect(app.verification!.scheme).toBe(name);
    expect(JSON.stringify(app)).not.toContain(plainSecret);
    expect(JSON.stringify(app)).not.toContain(whsec);

    const body = '{"n":1}';
    const id = randomUUID();
    const headers = { 'content-type': 'application/json', ...scheme.sign(body, now(), id) };
    expect((await stack.send('POST', robot.webhookUrl, body, headers)).status).toBe(200);

    // Forged: the same signature over another body, and no signature at all.
    expect((await stack.send('POST', robot.webhookUrl, '{"n":2}', headers)).status).toBe(400);
    expect((await stack.send('POST', robot.webhookUrl, '{"n":3}')).status).toBe(400);

    // Replayed: the very request again, and (where a time is signed) one signed ten minutes ago.
    expect((await stack.send('POST', robot.webhookUrl, body, headers)).status).toBe(200);
    const old = { 'content-type': 'application/json', ...scheme.sign('{"n":4}', now() - 600, randomUUID()) };
    expect((await stack.send('POST', robot.webhookUrl, '{"n":4}', old)).status).toBe(scheme.signsTime ? 400 : 200);

    // Recorded: the first (processed), two forgeries (rejected), the repeat of the first (a
    // duplicate naming it), and the old one: rejected when the scheme signs a time, else processed.
    const deliveries = await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length >= 5,
    );
    expect(deliveries).toHaveLength(5);
    const [duplicate] = deliveries.filter((d) => d.outcome === 'duplicate');
    const first = deliveries.find((d) => d.outcome === 'processed' && d.workflowId === duplicate.workflowId);
    expect(duplicate).toMatchObject({ reason: `duplicate of ${first.id}`, verified: true });
    const rejected = deliveries.filter((d) => d.outcome === 'rejected');
    expect(rejected).toHaveLength(scheme.signsTime ? 3 : 2);
    for (const d of rejected) {
      expect(d.verified).toBe(false);
      expect(d.reason).toEqual(expect.any(String));
      expect(d.reason).not.toContain(plainSecret);
    }
    const processed = deliveries.filter((d) => d.outcome === 'processed');
    expect(processed).toHaveLength(scheme.signsTime ? 1 : 2);
    expect(processed.every((d) => d.verified === true)).toBe(true);
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r.length === processed.length && r.every((run) => run.status === 'succeeded'),
    );
    // The first body ran once, however often it was sent.
    expect(runs.filter((r) => r.trigger.n === 1)).toHaveLength(1);
  });

  it('makes no new run from a captured signed request sent again with new unsigned id headers', async () => {
    const robot = await robotAtWork(stack.client, {
      template: { n: '{{trigger.n}}' },
      verification: scheme.verification,
    });
    const body = '{"n":7}';
    const captured = scheme.sign(body, now(), randomUUID());
    expect((await stack.send('POST', robot.webhookUrl, body, captured)).status).toBe(200);
    const duplicatesBefore = await duplicates();
    const resent = await Promise.all(
      [1, 2, 3].map((i) =>
        stack.send('POST', robot.webhookUrl, body, {
          ...captured,
          'x-github-delivery': `replayed-${i}`,
          'x-shopify-webhook-id': `replayed-${i}`,
          'idempotency-key': `replayed-${i}`,
          // standard-webhooks signs its webhook-id: a new one no longer verifies.
          ...(name === 'standard-webhooks' ? { 'webhook-id': `replayed-${i}` } : {}),
        }),
      ),
    );
    expect(resent.map((r) => r.status)).toEqual(Array(3).fill(name === 'standard-webhooks' ? 400 : 200));
    // Each copy the signature let through was refused by Temporal as a repeat of the first.
    expect((await duplicates()) - duplicatesBefore).toBe(name === 'standard-webhooks' ? 0 : 3);
    const later = scheme.sign('{"n":8}', now(), randomUUID());
    expect((await stack.send('POST', robot.webhookUrl, '{"n":8}', later)).status).toBe(200);
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r.some((run) => run.trigger.n === 8) && r.every((run) => run.status === 'succeeded'),
    );
    expect(runs.map((r) => r.trigger.n).sort()).toEqual([7, 8]);
  });
});

describe("Slack's URL verification (src/domain/senders/slack.ts)", () => {
  const challenge = (value: string) => JSON.stringify({ token: 'x', challenge: value, type: 'url_verification' });

  it('echoes the challenge of a signed one as text, logs it as a handshake, and makes no run', async () => {
    const robot = await robotAtWork(stack.client, {
      template: { n: '{{trigger.n}}' },
      verification: schemes.slack.verification,
    });
    const body = challenge('3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P');
    const res = await stack.send('POST', robot.webhookUrl, body, {
      'content-type': 'application/json',
      ...schemes.slack.sign(body, now(), randomUUID()),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toBe('3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P');
    // The same capture sent again within its signature's time: answered, but recorded once (review N8).
    const again = await stack.send('POST', robot.webhookUrl, body, {
      'content-type': 'application/json',
      ...schemes.slack.sign(body, now(), randomUUID()),
    });
    expect(again.text).toBe('3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P');
    // Unsigned, it is a forgery like any other: 400, rejected, and no challenge in the answer.
    const forged = await stack.send('POST', robot.webhookUrl, challenge('forged'), {
      'content-type': 'application/json',
    });
    expect(forged.status).toBe(400);
    expect(forged.text).toBe("a header the signature check needs is missing: check the sender's webhook settings\n");
    // An event after it runs as usual.
    const event = JSON.stringify({ n: 1 });
    const sent = await stack.send('POST', robot.webhookUrl, event, schemes.slack.sign(event, now(), randomUUID()));
    expect(sent.status).toBe(200);
    expect(sent.text).toBe('');
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r.length === 1 && r[0].status === 'succeeded',
    );
    expect(runs[0].trigger).toEqual({ n: 1 });
    const deliveries = await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length === 3,
    );
    expect(deliveries.map((d) => d.outcome).sort()).toEqual(['handshake', 'processed', 'rejected']);
    const handshake = deliveries.find((d) => d.outcome === 'handshake');
    expect(handshake).toMatchObject({ verified: true, replayable: false, workflowId: null });
    const shown = await stack.client.call('getRobot', { params: { id: robot.robotId } });
    expect(shown.deliveryCounts).toMatchObject({ handshake: 1, processed: 1, rejected: 1 });
  });

  it('throttles handshakes like refusals: past REJECTED_PER_MINUTE for a URL, 429 and nothing recorded', async () => {
    const robot = await robotAtWork(stack.client, { template: {}, verification: schemes.slack.verification });
    const statuses: number[] = [];
    for (let i = 0; i < stack.config.throttles.rejectedPerMinute + 2; i++) {
      const body = challenge(`challenge-${i}`);
      statuses.push((await stack.send('POST', robot.webhookUrl, body, schemes.slack.sign(body, now(), 'x'))).status);
    }
    expect(statuses).toEqual([...Array(stack.config.throttles.rejectedPerMinute).fill(200), 429, 429]);
    const shown = await stack.client.call('getRobot', { params: { id: robot.robotId } });
    await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length === stack.config.throttles.rejectedPerMinute,
    );
    expect(shown.deliveryCounts!.handshake).toBeLessThanOrEqual(stack.config.throttles.rejectedPerMinute);
  });

  it("runs the same body as an ordinary delivery for an app whose preset is not Slack's", async () => {
    const robot = await robotAtWork(stack.client, {
      template: { t: '{{trigger.type}}' },
      verification: schemes.github.verification,
    });
    const body = challenge('abc');
    const res = await stack.send('POST', robot.webhookUrl, body, schemes.github.sign(body, now(), randomUUID()));
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r.length === 1 && r[0].status === 'succeeded',
    );
    expect(runs[0].trigger).toMatchObject({ type: 'url_verification', challenge: 'abc' });
  });
});

it('removes a verification with PATCH null, and refuses an unknown scheme or a bad header name', async () => {
  const robot = await robotAtWork(stack.client, { template: {}, verification: schemes.github.verification });
  expect((await stack.send('POST', robot.webhookUrl, '{}')).status).toBe(400);
  const patched = await stack.client.call('editApp', { params: { id: robot.appId }, body: { verification: null } });
  expect(patched.verification).toBeNull();
  expect((await stack.send('POST', robot.webhookUrl, '{}')).status).toBe(200);

  const unknown = await stack.api('PATCH', `/api/apps/${robot.appId}`, {
    verification: { scheme: 'md5', secret: 'x' },
  });
  expect(unknown.status).toBe(400);
  const header = { scheme: 'hmac', secret: 's', header: 'bad header', algorithm: 'sha256', encoding: 'hex' };
  expect((await stack.api('PATCH', `/api/apps/${robot.appId}`, { verification: header })).status).toBe(400);
});
