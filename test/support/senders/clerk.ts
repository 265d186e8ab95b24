/**
 * Clerk as the tests play it: Clerk's webhooks are sent by Svix, so the headers are `svix-id`,
 * `svix-timestamp` (unix seconds) and `svix-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`,
 * keyed with the base64-decoded part of the endpoint's `whsec_…` signing secret. Clerk's own verify
 * (`@clerk/backend` `verifyWebhook`) maps those headers to the Standard Webhooks names and checks them with
 * the `standardwebhooks` library (300 s either way), which signs here and verifies in `sdkAccepts`.
 * `svix-id` is the same on Svix's retries. No handshake.
 */
import { standardWebhooksFixture } from './standard-webhooks';

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
export const clerkSender = standardWebhooksFixture({
  name: 'clerk',
  event,
  names: 'svix',
  idPrefix: 'msg_',
  keyText: 'clerk-made-up-signing-key',
});
