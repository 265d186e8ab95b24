/**
 * Mautic as the tests play it. Mautic publishes no library that verifies: deliveries are signed as its
 * own webhook client does (mautic/mautic, app/bundles/WebhookBundle/Http/Client.php): the payload is
 * JSON-encoded once, sent as the body, and `Webhook-Signature` is the base64 HMAC-SHA256 of that body,
 * keyed with the webhook's Secret as text. No signed time, no handshake, no event id: a batch of
 * events keyed by trigger name, each with its own `timestamp`.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const secret = madeSecret('mautic-webhook-secret', 40);
const otherSecret = madeSecret('mautic-other-secret', 40);
const siteUrl = 'https://mautic.example.com';

const payload = {
  'mautic.lead_post_save_new': [
    {
      contact: {
        id: 47,
        isPublished: true,
        dateAdded: '2026-01-01T12:00:00+00:00',
        points: 0,
        fields: { core: { email: { alias: 'email', value: 'ann@example.com' } } },
      },
      timestamp: '2026-01-01T12:00:00+00:00',
    },
  ],
  timestamp: '2026-01-01T12:00:01+00:00',
};
const body = JSON.stringify(payload);

/** The `Webhook-Signature` of `body` under `key`. */
export const mauticSignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('base64');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'X-Origin-Base-URL': siteUrl,
    'Webhook-Signature': mauticSignature(key, body),
  },
  body,
});

export const mauticSender: SenderFixture = {
  name: 'mautic',
  verification: { scheme: 'mautic', secret },
  body,
  triggerData: payload,
  signed: (body) => sign(secret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
