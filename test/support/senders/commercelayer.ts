/**
 * Commerce Layer as the tests play it. Commerce Layer publishes no library that signs (its docs'
 * "Callbacks security" page shows the check): `X-CommerceLayer-Signature` is the base64 HMAC-SHA256 of
 * the body, keyed with the webhook's `shared_secret` (generated when the webhook is created) as text;
 * `X-CommerceLayer-Topic` names the event. No signed time, no handshake, no event id: the body is the
 * resource as the REST API returns it, so a retry is the same bytes.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const sharedSecret = madeSecret('commercelayer-shared-secret', 32);
const otherSecret = madeSecret('commercelayer-other-secret', 32);

const resource = {
  data: {
    id: 'wBXVhKzrnq',
    type: 'orders',
    links: { self: 'https://acme.commercelayer.io/api/orders/wBXVhKzrnq' },
    attributes: {
      number: 2485110,
      status: 'placed',
      payment_status: 'authorized',
      fulfillment_status: 'unfulfilled',
      currency_code: 'EUR',
      customer_email: 'ann@example.com',
      total_amount_cents: 12900,
      formatted_total_amount: '€129,00',
      placed_at: '2026-01-01T12:00:00.000Z',
      created_at: '2026-01-01T11:55:00.000Z',
      updated_at: '2026-01-01T12:00:00.000Z',
    },
    relationships: {},
    meta: { mode: 'test', organization_id: 'WXlEOFrjnr' },
  },
};
const body = JSON.stringify(resource);

/** The `X-CommerceLayer-Signature` of `body` under `key`. */
export const commerceLayerSignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('base64');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'X-CommerceLayer-Topic': 'orders.place',
    'X-CommerceLayer-Signature': commerceLayerSignature(key, body),
  },
  body,
});

export const commercelayerSender: SenderFixture = {
  name: 'commercelayer',
  verification: { scheme: 'commercelayer', secret: sharedSecret },
  body,
  triggerData: resource,
  signed: (body) => sign(sharedSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
