/**
 * Clerk as the tests play it: Clerk's webhooks are sent by Svix, so the headers are `svix-id`,
 * `svix-timestamp` (unix seconds) and `svix-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`,
 * keyed with the base64-decoded part of the endpoint's `whsec_…` signing secret. Clerk's own verify
 * (`@clerk/backend` `verifyWebhook`) maps those headers to the Standard Webhooks names and checks them with
 * the `standardwebhooks` library (300 s either way), which signs here and verifies in `sdkAccepts`.
 * `svix-id` is the same on Svix's retries. No handshake.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { SenderFixture, SentRequest } from './fixture';

// A signing secret as the Clerk Dashboard shows it: `whsec_` and the base64 of 24 random bytes.
const secret = 'whsec_' + Buffer.from('clerk-made-up-signing-key').toString('base64');
const otherSecret = 'whsec_' + Buffer.from('clerk-another-signing-key').toString('base64');

const event = {
  data: {
    id: 'user_29w83sxmDNGwOuEthce5gg56FcC',
    object: 'user',
    first_name: 'Ann',
    last_name: 'Lee',
    email_addresses: [{ id: 'idn_29w83yL7CwVlJXylYLxcslromF1', email_address: 'ann@example.com' }],
    primary_email_address_id: 'idn_29w83yL7CwVlJXylYLxcslromF1',
    created_at: 1767268800000,
    updated_at: 1767268800000,
  },
  event_attributes: { http_request: { client_ip: '192.0.2.1', user_agent: 'Mozilla/5.0' } },
  instance_id: 'ins_2ny7ZmOOPDxDrIJ4nLs1ldjyZwF',
  object: 'event',
  timestamp: 1767268800000,
  type: 'user.created',
};
const body = JSON.stringify(event);

function sign(secret: string, body: string, at: Date): SentRequest {
  const id = `msg_${randomUUID()}`;
  return {
    method: 'POST',
    query: '',
    headers: {
      'content-type': 'application/json',
      'svix-id': id,
      'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
      'svix-signature': new Webhook(secret).sign(id, at, body),
    },
    body,
  };
}

export const clerkSender: SenderFixture = {
  name: 'clerk',
  verification: { scheme: 'clerk', secret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(secret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: 300,
  sdkAccepts(sent) {
    // What `verifyWebhook` does: the svix-* values under the standard names, then the library's verify.
    new Webhook(secret).verify(sent.body, {
      'webhook-id': sent.headers['svix-id'],
      'webhook-timestamp': sent.headers['svix-timestamp'],
      'webhook-signature': sent.headers['svix-signature'],
    });
  },
};
