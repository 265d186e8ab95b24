/** The payment provider's trigger: connections, signing secrets, signatures and event filters. */
import Stripe from 'stripe';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

const stripe = new Stripe('sk_test_x');
// Built at runtime so that nothing here looks like a real signing secret.
const secret = 'whsec_' + 'integration'.repeat(3);

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

async function stripeRobot(opts: { signingSecret?: string; events?: string[] } = {}) {
  const connection = await stack.api('POST', '/api/connections', {
    provider: 'stripe',
    name: 'Payments',
    ...(opts.signingSecret ? { signingSecret: opts.signingSecret } : {}),
  });
  expect(connection.status).toBe(201);
  const robot = await stack.client.call('createRobot', {
    body: {
      name: 'On payment',
      trigger: { connectionId: connection.body.id, ...(opts.events ? { events: opts.events } : {}) },
      steps: [
        {
          name: 'receipt',
          type: 'compose',
          template: { amount: '{{trigger.data.object.amount}}', type: '{{trigger.type}}' },
        },
      ],
    },
  });
  const started = await stack.client.call('start', { params: { id: robot.id } });
  return {
    connection: connection.body,
    robotId: robot.id,
    webhookUrl: started.trigger.card!.webhookUrl!,
  };
}

const event = (id: string, type = 'payment_intent.succeeded', amount = 1999) =>
  JSON.stringify({ id, object: 'event', type, data: { object: { id: 'pi_1', object: 'payment_intent', amount } } });
const signed = (payload: string, opts: { secret?: string; timestamp?: number } = {}) => ({
  'content-type': 'application/json',
  'stripe-signature': stripe.webhooks.generateTestHeaderString({
    payload,
    secret: opts.secret ?? secret,
    ...(opts.timestamp ? { timestamp: opts.timestamp } : {}),
  }),
});

describe('connections', () => {
  it('stores the signing secret encrypted and never returns it', async () => {
    const res = await stack.api('POST', '/api/connections', {
      provider: 'stripe',
      name: 'Payments',
      signingSecret: secret,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      provider: 'stripe',
      name: 'Payments',
      hasSigningSecret: true,
      // No event types chosen for its new robots: every event (issue 54's connection form).
      events: [],
      createdAt: expect.any(String),
    });
    const read = await stack.client.call('getConnection', { params: { id: res.body.id } });
    expect(JSON.stringify(read)).not.toContain(secret);
    const stored = await stack.models.Connection.findById(res.body.id).lean();
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(stored!.signingSecretSealed).toMatch(/^v1:/);
  });

  it('rejects an unknown provider with 400', async () => {
    const res = await stack.api('POST', '/api/connections', { provider: 'paypal', name: 'P' });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('provider');
  });
});

describe('with a signing secret', () => {
  it('gives the robot a stripe:<uuid> URL, verifies a real signature and makes a verified run of the event', async () => {
    const robot = await stripeRobot({ signingSecret: secret });
    expect(robot.webhookUrl).toMatch(/\/api\/webhooks\/stripe:[0-9a-f-]{36}\/[A-Za-z0-9_-]{43}$/);
    const payload = event('evt_ok_1');
    expect((await stack.send('POST', robot.webhookUrl, payload, signed(payload))).status).toBe(200);
    const [run] = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r[0]?.status === 'succeeded',
    );
    expect(run.trigger).toEqual(JSON.parse(payload));
    expect(run.verified).toBe(true);
    expect(run.steps[0].output).toEqual({ amount: 1999, type: 'payment_intent.succeeded' });
    const [delivery] = await stack.deliveries(robot.robotId);
    expect(delivery).toMatchObject({
      outcome: 'processed',
      verified: true,
      // The event id by its digest: a value the sender chose is never in a workflow ID as it is.
      workflowId: expect.stringMatching(/:event-hmac:[0-9a-f]{64}$/),
    });
  });

  it.each([
    [
      'a wrong secret',
      (p: string) => signed(p, { secret: 'whsec_' + 'wrong'.repeat(6) }),
      'signature does not match the signing secret',
      'signature does not match: check the signing secret',
    ],
    [
      'no signature header',
      () => ({}),
      'missing Stripe-Signature header',
      "a header the signature check needs is missing: check the sender's webhook settings",
    ],
    [
      'a timestamp 6 minutes old',
      (p: string) => signed(p, { timestamp: Math.floor(Date.now() / 1000) - 360 }),
      'timestamp outside the 300-second tolerance',
      "signed time is too old or too far ahead: send a fresh delivery, or check the sender's clock",
    ],
  ])(
    'rejects %s: 400 saying what to check, no run, the delivery recorded with the reason',
    async (_what, headers, reason, line) => {
      const robot = await stripeRobot({ signingSecret: secret });
      const payload = event('evt_bad');
      const res = await stack.send('POST', robot.webhookUrl, payload, headers(payload));
      expect(res.status).toBe(400);
      expect(res.text).toBe(`${line}\n`);
      const [delivery] = await waitFor(
        () => stack.deliveries(robot.robotId),
        (d) => d.length === 1,
      );
      expect(delivery).toMatchObject({ outcome: 'rejected', reason, verified: false, workflowId: null });
      expect(await stack.runs(robot.robotId)).toEqual([]);
    },
  );

  it('does not let a forged event carrying a real event id, sent first, cost the real one its run', async () => {
    const robot = await stripeRobot({ signingSecret: secret });
    const forged = event('evt_real_1', 'payment_intent.succeeded', 1);
    expect(
      (await stack.send('POST', robot.webhookUrl, forged, signed(forged, { secret: 'whsec_' + 'forger'.repeat(5) })))
        .status,
    ).toBe(400);
    const real = event('evt_real_1');
    expect((await stack.send('POST', robot.webhookUrl, real, signed(real))).status).toBe(200);
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r[0]?.status === 'succeeded',
    );
    expect(runs.map((r) => r.trigger.data.object.amount)).toEqual([1999]);
  });

  it('makes one run when the provider sends the same event again, with a fresh signature', async () => {
    const robot = await stripeRobot({ signingSecret: secret });
    const payload = event('evt_twice');
    await stack.send(
      'POST',
      robot.webhookUrl,
      payload,
      signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 60 }),
    );
    await stack.send('POST', robot.webhookUrl, payload, signed(payload));
    const other = event('evt_other');
    await stack.send('POST', robot.webhookUrl, other, signed(other));
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r.length === 2 && r.every((x) => x.status === 'succeeded'),
    );
    expect(runs.map((r) => r.trigger.id).sort()).toEqual(['evt_other', 'evt_twice']);
    // The second evt_twice is in the log as a duplicate of the first, with no run.
    const deliveries = await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length === 3,
    );
    expect(deliveries.map((d) => d.outcome).sort()).toEqual(['duplicate', 'processed', 'processed']);
  });
});

describe('without a signing secret', () => {
  it('accepts events unverified: the run and the delivery say verified: false', async () => {
    const robot = await stripeRobot();
    const payload = event('evt_unsigned');
    expect((await stack.send('POST', robot.webhookUrl, payload)).status).toBe(200);
    const [run] = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r[0]?.status === 'succeeded',
    );
    expect(run.verified).toBe(false);
    const [delivery] = await stack.deliveries(robot.robotId);
    expect(delivery.verified).toBe(false);
  });
});

describe('event filter', () => {
  it('filters event types the robot did not select (a trigger rule): no run, the delivery says why', async () => {
    const robot = await stripeRobot({ events: ['payment_intent.succeeded'] });
    await stack.send('POST', robot.webhookUrl, event('evt_refund', 'charge.refunded'));
    await stack.send('POST', robot.webhookUrl, event('evt_paid'));
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r[0]?.status === 'succeeded',
    );
    const deliveries = await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length === 2,
    );
    expect(runs.map((r) => r.trigger.id)).toEqual(['evt_paid']);
    expect(deliveries.find((d) => d.outcome === 'filtered')).toMatchObject({
      reason: 'event type "charge.refunded" is not selected',
    });
  });

  it('rejects events on a robot whose trigger is a custom app', async () => {
    const app = await stack.client.call('createApp', { body: { name: 'A', supportsInboundTrigger: true } });
    const res = await stack.api('POST', '/api/robots', {
      name: 'R',
      trigger: { appId: app.id, events: ['x'] },
      steps: [],
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('trigger.events');
  });
});

it('takes a test delivery without a signature: an event of the first selected type, verified null', async () => {
  const robot = await stripeRobot({ signingSecret: secret, events: ['checkout.session.completed'] });
  const sent = await stack.api('POST', `/api/robots/${robot.robotId}/test-delivery`, {});
  expect(sent.status).toBe(202);
  const [delivery] = await waitFor(
    () => stack.deliveries(robot.robotId),
    (d) => d.length === 1 && d[0].outcome === 'processed',
  );
  expect(delivery).toMatchObject({ test: true, verified: null, runCount: 1 });
  const [run] = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r.length === 1 && r[0].status === 'succeeded',
  );
  const whole = await stack.client.call('getRun', { params: { id: run.id } });
  expect(whole.steps[0].output).toEqual({ amount: 1999, type: 'checkout.session.completed' });
});
