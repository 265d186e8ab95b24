/**
 * Onfleet as the tests play it. Onfleet's library (`@onfleet/node-onfleet`) does not verify webhooks:
 * deliveries are signed as its reference "Webhook Authentication" (docs.onfleet.com/reference/secrets)
 * says, `X-Onfleet-Signature: <hex HMAC-SHA512 of the body>`, keyed with the organization's webhook secret
 * hex-decoded. Its handshake, "Webhook Validation" (docs.onfleet.com/reference/validation): when a webhook
 * is created, an unsigned GET with `?check=<random string>`, answered 200 (204 is not taken) with that
 * string as the body.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

/** The webhook secret as the dashboard shows it: hex. */
const webhookSecret = Buffer.from(madeSecret('onfleet-secret', 32)).toString('hex');
const otherSecret = Buffer.from(madeSecret('onfleet-other', 32)).toString('hex');

const event = {
  actionContext: { id: 'madeUpWorker00001', type: 'WORKER' },
  adminId: null,
  data: { task: { id: 'madeUpTask0000001', shortId: 'c77d2bd2', state: 3, completionDetails: { success: true } } },
  taskId: 'madeUpTask0000001',
  time: 1767268800123,
  triggerId: 3,
  triggerName: 'taskCompleted',
  workerId: 'madeUpWorker00001',
};
const body = JSON.stringify(event);

/** The `X-Onfleet-Signature` of `body` under the hex secret `secret`. */
export const onfleetSignature = (secret: string, body: string | Buffer) =>
  createHmac('sha512', Buffer.from(secret, 'hex')).update(body).digest('hex');

const sign = (secret: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'X-Onfleet-Signature': onfleetSignature(secret, body) },
  body,
});

let lastCheck = '';

export const onfleetSender: SenderFixture = {
  name: 'onfleet',
  verification: { scheme: 'onfleet', secret: webhookSecret },
  body,
  triggerData: event,
  signed: (body) => sign(webhookSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
  handshake: {
    request() {
      lastCheck = randomBytes(12).toString('hex');
      return { method: 'GET', query: `?check=${lastCheck}`, headers: {}, body: '' };
    },
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`Onfleet takes only 200 for its check, got ${answer.status}`);
      if (answer.body !== lastCheck) throw new Error(`Onfleet expects its check string back, got ${answer.body}`);
    },
  },
};
