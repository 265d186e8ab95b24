/**
 * Chargebee as the tests play it. Chargebee signs nothing: a webhook set to "Protect webhook URL with
 * basic authentication" sends `Authorization: Basic base64(username:password)` with the Username and
 * Password typed in its settings. Chargebee's library (`chargebee` 3.x, not installed here) only checks
 * that header: `basicAuthValidator` in src/resources/webhook/auth.ts splits the decoded value at its
 * first `:`. The body's `id` is Chargebee's id of the event, the same when it retries (not signed:
 * nothing is).
 */
import { basicFixture } from './basic';

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
export const chargebeeSender = basicFixture({
  name: 'chargebee',
  username: 'chargebee-hooks',
  event,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'User-Agent': 'ChargeBee' },
});
