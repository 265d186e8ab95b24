/**
 * ClickUp as the tests play it. ClickUp publishes no library that verifies its webhooks: deliveries are
 * signed as its "Webhook signature" page describes, `X-Signature: <hex HMAC-SHA256 of the body>`, keyed
 * with the `webhook.secret` that ClickUp returns when the webhook is created through its API, as text.
 * No signed time, no handshake.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// ClickUp's webhook.secret: a random string of upper-case letters and digits.
const secret = madeSecret('CLICKUPWEBHOOKSECRET', 64);
const otherSecret = madeSecret('CLICKUPOTHERSECRET', 64);

const event = {
  event: 'taskCreated',
  history_items: [
    {
      id: '2800763136717140857',
      type: 1,
      date: '1767268800000',
      field: 'status',
      parent_id: '162641062',
      data: { status_type: 'open' },
      user: { id: 183, username: 'Ann', email: 'ann@example.com' },
      before: null,
      after: { status: 'to do', type: 'open' },
    },
  ],
  task_id: '1vj37mc',
  webhook_id: '7689a169-a000-4985-8676-6902b96d6627',
};
const body = JSON.stringify(event);

/** The `X-Signature` of `body` under `key`. */
export const clickUpSignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('hex');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'X-Signature': clickUpSignature(key, body) },
  body,
});

export const clickupSender: SenderFixture = {
  name: 'clickup',
  verification: { scheme: 'clickup', secret },
  body,
  triggerData: event,
  signed: (body) => sign(secret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
