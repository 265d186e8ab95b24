/**
 * Razorpay as the tests play it. Razorpay's library (`razorpay`, `validateWebhookSignature`) only
 * verifies, so deliveries are signed by the algorithm it checks and Razorpay's webhook docs describe:
 * `X-Razorpay-Signature: <hex HMAC-SHA256 of the raw body>`, keyed with the Secret typed when the
 * webhook was set up (not the API key secret) as text. No signed time, no handshake.
 * `x-razorpay-event-id` is Razorpay's id of the event, the same on its retries (not signed).
 */
import { createHmac } from 'node:crypto';
import Razorpay from 'razorpay';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const webhookSecret = madeSecret('razorpay-webhook-secret', 32);
const otherSecret = madeSecret('razorpay-other-secret', 32);

const event = {
  entity: 'event',
  account_id: 'acc_BFQ7uQEaa7j2z7',
  event: 'payment.captured',
  contains: ['payment'],
  payload: {
    payment: {
      entity: {
        id: 'pay_DESlfW9H8K9uqM',
        entity: 'payment',
        amount: 100,
        currency: 'INR',
        status: 'captured',
        order_id: 'order_DESlLckIVRkHWj',
        method: 'upi',
        captured: true,
        email: 'ann@example.com',
        contact: '+919876543210',
        created_at: 1767268800,
      },
    },
  },
  created_at: 1767268801,
};
const body = JSON.stringify(event);

/** The `X-Razorpay-Signature` of `body` under `key`. */
export const razorpaySignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('hex');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'X-Razorpay-Event-Id': 'HxbFhBCxd4Eo2e',
    'X-Razorpay-Signature': razorpaySignature(key, body),
  },
  body,
});

export const razorpaySender: SenderFixture = {
  name: 'razorpay',
  verification: { scheme: 'razorpay', secret: webhookSecret },
  body,
  triggerData: event,
  signed: (body) => sign(webhookSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
  sdkAccepts(sent) {
    const valid = Razorpay.validateWebhookSignature(
      Buffer.from(sent.body).toString('utf8'),
      sent.headers['X-Razorpay-Signature'],
      webhookSecret,
    );
    if (!valid) throw new Error('razorpay.validateWebhookSignature refused the delivery');
  },
};
