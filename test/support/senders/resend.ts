/**
 * Resend as the tests play it: Resend's webhooks are sent by Svix, so the headers are `svix-id`,
 * `svix-timestamp` (unix seconds) and `svix-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`,
 * keyed with the base64-decoded part of the webhook's `whsec_…` signing secret. Resend's SDK
 * (`resend`, `webhooks.verify`) passes those three values to the `standardwebhooks` library (300 s either
 * way), which signs here and verifies in `sdkAccepts`. `svix-id` is the same on retries. No handshake.
 */
import { standardWebhooksFixture } from './standard-webhooks';

const event = {
  type: 'email.delivered',
  created_at: '2026-01-01T12:00:00.000Z',
  data: {
    created_at: '2026-01-01T11:59:58.000Z',
    email_id: '56761188-7520-42d8-8898-ff6fc54ce618',
    from: 'Acme <onboarding@example.com>',
    to: ['ann@example.com'],
    subject: 'Sending this example',
  },
};
export const resendSender = standardWebhooksFixture({
  name: 'resend',
  event,
  names: 'svix',
  idPrefix: 'msg_',
  keyText: 'resend-made-up-signing-key',
});
