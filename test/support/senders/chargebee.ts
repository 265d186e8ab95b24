/**
 * Chargebee as the tests play it. Chargebee signs nothing: a webhook set to "Protect webhook URL with
 * basic authentication" sends `Authorization: Basic base64(username:password)` with the Username and
 * Password typed in its settings. Chargebee's library (`chargebee` 3.x, not installed here) only checks
 * that header: `basicAuthValidator` in src/resources/webhook/auth.ts splits the decoded value at its
 * first `:`. The body's `id` is Chargebee's id of the event, the same when it retries (not signed:
 * nothing is).
 */
import { basicAuthorization } from './basic';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const username = 'chargebee-hooks';
const password = madeSecret('chargebee-password', 32);
const otherPassword = madeSecret('chargebee-other-password', 32);

const event = {
  id: 'ev_16BHbhF4s42tO2lK',
  occurred_at: 1767268800,
  source: 'admin_console',
  user: 'ann@example.com',
  object: 'event',
  api_version: 'v2',
  content: {
    customer: {
      id: '16BHbhF4s42r22lJ',
      first_name: 'Ann',
      email: 'ann@example.com',
      auto_collection: 'on',
      created_at: 1767268800,
      object: 'customer',
    },
  },
  event_type: 'customer_created',
  webhook_status: 'scheduled',
};
const body = JSON.stringify(event);

const sign = (password: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json; charset=utf-8',
    'User-Agent': 'ChargeBee',
    Authorization: basicAuthorization(username, password),
  },
  body,
});

export const chargebeeSender: SenderFixture = {
  name: 'chargebee',
  verification: { scheme: 'chargebee', username, secret: password },
  body,
  triggerData: event,
  signed: (body) => sign(password, body),
  signedWrongly: (body) => sign(otherPassword, body),
  toleranceSeconds: null,
};
