/**
 * Editing an app's sender settings without retyping its secret, and a payment connection's event
 * types (issue 54, the Apps page), through the real API and receiver: a secret left out of
 * `PATCH /api/apps/:id` is the app's own when the sender stays the same, and refused, named, when
 * it changes; a connection keeps the event types its new robots start with, and its signing secret
 * is replaced or removed (`PATCH /api/connections/:id`).
 */
import { createHmac } from 'node:crypto';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const SECRET = 'a-generic-hmac-secret-0123456789';
const body = JSON.stringify({ order: 7 });
const digest = createHmac('sha256', SECRET).update(body).digest('hex');

/** An app signed by a generic HMAC header, and a robot at work on it: its webhook URL. */
async function appAtWork(): Promise<{ appId: string; url: string }> {
  const verification = { scheme: 'hmac', secret: SECRET, header: 'x-old-signature', algorithm: 'sha256' };
  const app = await stack.api('POST', '/api/apps', {
    name: 'Orders',
    supportsInboundTrigger: true,
    verification: { ...verification, encoding: 'hex' },
  });
  expect(app.status).toBe(201);
  const steps = [{ name: 'compose', type: 'compose' as const, template: { order: '{{trigger.order}}' } }];
  const robot = await stack.client.call('createRobot', {
    body: { name: 'Ship', trigger: { appId: app.body.id }, steps },
  });
  const started = await stack.client.call('start', { params: { id: robot.id } });
  return { appId: app.body.id, url: started.trigger.card!.webhookUrl! };
}

it("changes a sender's settings with its secret left out, and keeps the app's own", async () => {
  const { appId, url } = await appAtWork();
  const edited = await stack.api('PATCH', `/api/apps/${appId}`, {
    verification: { scheme: 'hmac', header: 'x-new-signature', algorithm: 'sha256', encoding: 'hex' },
  });
  expect(edited.status).toBe(200);
  expect(edited.body.verification).toEqual({
    scheme: 'hmac',
    header: 'x-new-signature',
    algorithm: 'sha256',
    encoding: 'hex',
  });
  // Signed with the secret kept, under the new header: taken; under the old one: refused.
  const sent = (header: string) =>
    stack.send('POST', url, body, { 'content-type': 'application/json', [header]: digest });
  expect((await sent('x-new-signature')).status).toBe(200);
  expect((await sent('x-old-signature')).status).toBe(400);
});

it('refuses a new sender without its secret, naming the setting', async () => {
  const { appId } = await appAtWork();
  const changed = await stack.api('PATCH', `/api/apps/${appId}`, { verification: { scheme: 'github' } });
  expect(changed).toMatchObject({
    status: 400,
    body: { field: 'verification.secret', error: 'verification.secret: required: the app has no such secret to keep' },
  });
  // A secret given is checked as on create.
  const short = await stack.api('PATCH', `/api/apps/${appId}`, { verification: { scheme: 'github', secret: 'short' } });
  expect(short).toMatchObject({ status: 400, body: { field: 'verification.secret' } });
});

it('keeps the event types of a payment connection, answered with it', async () => {
  const events = ['invoice.paid', 'customer.subscription.deleted'];
  const made = await stack.api('POST', '/api/connections', { provider: 'stripe', name: 'Shop', events });
  expect(made).toMatchObject({ status: 201, body: { name: 'Shop', events, hasSigningSecret: false } });
  expect((await stack.client.call('getConnection', { params: { id: made.body.id } })).events).toEqual(events);
  const none = await stack.client.call('createConnection', { body: { provider: 'stripe', name: 'All events' } });
  expect(none.events).toEqual([]);
  const bad = await stack.api('POST', '/api/connections', { provider: 'stripe', name: 'x', events: [''] });
  expect(bad).toMatchObject({ status: 400, body: { field: 'events.0' } });
});

/** A Stripe event signed as Stripe signs it (`t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`). */
function stripeSigned(secret: string) {
  const event = JSON.stringify({ id: `evt_${Date.now()}`, type: 'invoice.paid', data: { object: { id: 'in_1' } } });
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${event}`).digest('hex');
  return { event, headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1}` } };
}

it("replaces a connection's signing secret, then removes it, and changes its event types", async () => {
  const OLD = 'whsec_the-old-secret-0123456789';
  const NEW = 'whsec_the-new-secret-0123456789';
  const made = await stack.client.call('createConnection', {
    body: { provider: 'stripe', name: 'Shop', signingSecret: OLD },
  });
  const steps = [{ name: 'compose', type: 'compose' as const, template: { invoice: '{{trigger.data.object.id}}' } }];
  const trigger = { connectionId: made.id };
  const robot = await stack.client.call('createRobot', { body: { name: 'Invoices', trigger, steps } });
  const url = (await stack.client.call('start', { params: { id: robot.id } })).trigger.card!.webhookUrl!;
  const sent = (secret: string) => {
    const { event, headers } = stripeSigned(secret);
    return stack.send('POST', url, event, headers);
  };
  expect((await sent(OLD)).status).toBe(200);

  const edited = await stack.api('PATCH', `/api/connections/${made.id}`, { signingSecret: NEW, events: ['a.b'] });
  expect(edited).toMatchObject({ status: 200, body: { name: 'Shop', hasSigningSecret: true, events: ['a.b'] } });
  expect((await sent(OLD)).status).toBe(400);
  expect((await sent(NEW)).status).toBe(200);

  const removed = await stack.client.call('editConnection', { params: { id: made.id }, body: { signingSecret: null } });
  expect(removed).toMatchObject({ hasSigningSecret: false, events: ['a.b'] });
  const short = await stack.api('PATCH', `/api/connections/${made.id}`, { signingSecret: 'short' });
  expect(short).toMatchObject({ status: 400, body: { field: 'signingSecret' } });
  expect((await stack.api('PATCH', `/api/connections/${made.id}`, {})).status).toBe(400);
});
