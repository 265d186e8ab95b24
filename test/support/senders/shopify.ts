/** Shopify: base64 HMAC-SHA256 of the body, as its docs' verification sample computes it (no SDK signs). */
import { createHmac, randomUUID } from 'node:crypto';
import { madeSecret, type SenderFixture } from './fixture';

const secret = madeSecret('shopify');
const order = { id: 820982911946154500, email: 'jon@example.com', total_price: '403.00' };

const sign = (key: string) => (body: string) => ({
  method: 'POST' as const,
  query: '',
  headers: {
    'content-type': 'application/json',
    'x-shopify-topic': 'orders/create',
    'x-shopify-webhook-id': randomUUID(),
    'x-shopify-hmac-sha256': createHmac('sha256', key).update(body).digest('base64'),
  },
  body,
});

export const shopifySender: SenderFixture = {
  name: 'shopify',
  verification: { scheme: 'shopify', secret },
  body: JSON.stringify(order),
  triggerData: order,
  signed: sign(secret),
  signedWrongly: sign(madeSecret('another')),
  toleranceSeconds: null,
};
