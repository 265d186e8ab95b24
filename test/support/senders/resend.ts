/**
 * Resend as the tests play it: Resend's webhooks are sent by Svix, so the headers are `svix-id`,
 * `svix-timestamp` (unix seconds) and `svix-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`,
 * keyed with the base64-decoded part of the webhook's `whsec_…` signing secret. Resend's SDK
 * (`resend`, `webhooks.verify`) passes those three values to the `standardwebhooks` library (300 s either
 * way), which signs here and verifies in `sdkAccepts`. `svix-id` is the same on retries. No handshake.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { SenderFixture, SentRequest } from './fixture';

// A signing secret as Resend's webhook page shows it: `whsec_` and base64.
const secret = 'whsec_' + Buffer.from('resend-made-up-signing-key').toString('base64');
const otherSecret = 'whsec_' + Buffer.from('resend-another-signing-key').toString('base64');

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

export const resendSender: SenderFixture = {
  name: 'resend',
  verification: { scheme: 'resend', secret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(secret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: 300,
  sdkAccepts(sent) {
    // What `resend.webhooks.verify({ payload, headers: { id, timestamp, signature }, webhookSecret })` does.
    new Webhook(secret).verify(String(sent.body), {
      'webhook-id': sent.headers['svix-id'],
      'webhook-timestamp': sent.headers['svix-timestamp'],
      'webhook-signature': sent.headers['svix-signature'],
    });
  },
};
