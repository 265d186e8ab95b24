/**
 * GoCardless as the tests play it. GoCardless's library (`gocardless-nodejs`, `webhooks.parse`) only
 * verifies, so deliveries are signed by the algorithm it checks and GoCardless's webhook guide
 * describes: `Webhook-Signature: <hex HMAC-SHA256 of the body>`, keyed with the webhook endpoint's
 * secret (Dashboard → Developers → Webhook endpoints) as text. No signed time, no handshake. GoCardless's
 * API reference asks for `498` (Token Invalid) when the signature is wrong. `meta.webhook_id` is the id
 * of the webhook, the same when GoCardless retries it.
 */
import { createHmac } from 'node:crypto';
import { acceptedInChildNode, madeSecret, type SenderFixture, type SentRequest } from './fixture';

const endpointSecret = madeSecret('gocardless-endpoint-secret', 40);
const otherSecret = madeSecret('gocardless-other-secret', 40);

const webhook = {
  events: [
    {
      id: 'EV01J7QRF0KJWR',
      created_at: '2026-01-01T12:00:00.000Z',
      resource_type: 'mandates',
      action: 'active',
      links: { mandate: 'MD000ZQT5CPCVV', organisation: 'OR0000AAAAAAAA' },
      details: {
        origin: 'gocardless',
        cause: 'mandate_activated',
        description: 'The time window after submission for the banks to refuse a mandate has ended.',
      },
      metadata: {},
      resource_metadata: {},
    },
  ],
  meta: { webhook_id: 'WB002KK5HPCPWD' },
};
const body = JSON.stringify(webhook);

/** The `Webhook-Signature` of `body` under `key`. */
export const goCardlessSignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('hex');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    Origin: 'https://api.gocardless.com',
    'User-Agent': 'gocardless-webhook-service/1.1',
    'Webhook-Signature': goCardlessSignature(key, body),
  },
  body,
});

/**
 * `gocardless-nodejs`'s root also loads its API client, whose `uuid` is ES modules only (jest's CommonJS
 * runtime cannot load it), and its `webhooks` entry is reachable only through the package's exports map
 * (which this repo's TypeScript resolution does not read): its `parse` runs in a child `node`.
 */
const VERIFY_SCRIPT = `
const { parse } = require('gocardless-nodejs/webhooks');
const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
parse(Buffer.from(input.body, 'base64'), input.secret, input.signature);`;

export const gocardlessSender: SenderFixture = {
  name: 'gocardless',
  verification: { scheme: 'gocardless', secret: endpointSecret },
  body,
  triggerData: webhook,
  signed: (body) => sign(endpointSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
  sdkAccepts(sent) {
    // parse throws InvalidSignatureError when the signature does not match: the child exits non-zero.
    acceptedInChildNode(VERIFY_SCRIPT, {
      secret: endpointSecret,
      body: sent.body,
      signature: sent.headers['Webhook-Signature'],
    });
  },
};
