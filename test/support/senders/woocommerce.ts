/**
 * WooCommerce as the tests play it. WooCommerce publishes no library that signs or verifies: deliveries are
 * signed as its own `WC_Webhook::generate_signature()` does (woocommerce/woocommerce,
 * plugins/woocommerce/includes/class-wc-webhook.php): `X-WC-Webhook-Signature` is the base64 HMAC-SHA256 of
 * the JSON body, keyed with the webhook's Secret as text. Its handshake is `deliver_ping()`: when a webhook
 * is first saved as active, an unsigned form POST `webhook_id=<id>` with no `X-WC-Webhook-*` header, and
 * WooCommerce refuses to activate the webhook unless the answer's status is exactly 200.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

const secret = madeSecret('woocommerce-webhook-secret', 50);
const otherSecret = madeSecret('woocommerce-other-secret', 50);
const webhookId = '17';
const userAgent = 'WooCommerce/9.8.0 Hookshot (WordPress/6.8.1)';

const order = {
  id: 727,
  parent_id: 0,
  status: 'processing',
  currency: 'USD',
  date_created: '2026-01-01T12:00:00',
  date_modified: '2026-01-01T12:00:05',
  total: '29.35',
  customer_id: 26,
  order_key: 'wc_order_made_up_key',
  billing: { first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com', country: 'US' },
  payment_method: 'bacs',
  line_items: [{ id: 315, name: 'Woo Single #1', product_id: 93, quantity: 2, total: '6.00' }],
};
const body = JSON.stringify(order);

/** The `X-WC-Webhook-Signature` of `body` under `key`. */
export const wooCommerceSignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('base64');

function sign(key: string, body: string): SentRequest {
  return {
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': userAgent,
      'X-WC-Webhook-Source': 'https://shop.example.com/',
      'X-WC-Webhook-Topic': 'order.created',
      'X-WC-Webhook-Resource': 'order',
      'X-WC-Webhook-Event': 'created',
      'X-WC-Webhook-Signature': wooCommerceSignature(key, body),
      'X-WC-Webhook-ID': webhookId,
      // A fresh hash of the webhook id and the time for every attempt: not the same on a redelivery.
      'X-WC-Webhook-Delivery-ID': createHmac('md5', 'delivery').update(`${webhookId}${Date.now()}`).digest('hex'),
    },
    body,
  };
}

export const woocommerceSender: SenderFixture = {
  name: 'woocommerce',
  verification: { scheme: 'woocommerce', secret },
  body,
  triggerData: order,
  signed: (body) => sign(secret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
  handshake: {
    // wp_safe_remote_post with a string body: sent as a form, no signature, no X-WC-Webhook-* headers.
    request: () => ({
      method: 'POST',
      query: '',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': userAgent },
      body: `webhook_id=${webhookId}`,
    }),
    accepts(answer: Answer) {
      // deliver_ping(): `if ( 200 !== $response_code )` the webhook is not saved as active.
      if (answer.status !== 200) throw new Error(`WooCommerce takes only 200 for its ping, got ${answer.status}`);
    },
  },
};
