/**
 * Intercom as the tests play it. Intercom publishes no library that signs or verifies webhooks:
 * deliveries are signed as its "Signed notifications" reference describes, `X-Hub-Signature:
 * sha1=<hex HMAC-SHA1 of the JSON body>`, keyed with the app's client secret (Developer Hub → Basic
 * information) as text. No signed time, no handshake. The notification's `id` is Intercom's own id of the event.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// A client secret as the Developer Hub shows it: a UUID.
const clientSecret = madeSecret('0b6f5a4e-made-up-client-secret', 36);
const otherSecret = madeSecret('9c1d2e3f-other-client-secret', 36);

const notification = {
  type: 'notification_event',
  app_id: 'a86dr8yl',
  data: {
    type: 'notification_event_data',
    item: {
      type: 'contact',
      id: '6571a4d2e1f0a10001234567',
      role: 'user',
      email: 'ann@example.com',
      name: 'Ann',
      created_at: 1767268800,
    },
  },
  links: {},
  id: 'notif_7c5d2b0a-0000-4000-8000-000000000001',
  topic: 'contact.user.created',
  delivery_status: 'pending',
  delivery_attempts: 1,
  delivered_at: 0,
  first_sent_at: 1767268801,
  created_at: 1767268800,
  self: null,
};
const body = JSON.stringify(notification);

/** The `X-Hub-Signature` of `body` under `key`. */
export const intercomSignature = (key: string, body: string | Buffer) =>
  `sha1=${createHmac('sha1', key).update(body).digest('hex')}`;

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'User-Agent': 'intercom-parrot-service-client/1.0',
    'X-Hub-Signature': intercomSignature(key, body),
  },
  body,
});

export const intercomSender: SenderFixture = {
  name: 'intercom',
  verification: { scheme: 'intercom', secret: clientSecret },
  body,
  triggerData: notification,
  signed: (body) => sign(clientSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
