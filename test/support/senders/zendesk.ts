/**
 * Zendesk as the tests play it. Zendesk publishes no library that signs or verifies; deliveries are
 * signed by its documented algorithm (developer.zendesk.com, "Verifying webhook authenticity"):
 * `X-Zendesk-Webhook-Signature: base64(HMAC-SHA256(<X-Zendesk-Webhook-Signature-Timestamp> + <body>))`,
 * the two simply joined, under the webhook's signing secret taken as text (it looks like base64 but is
 * not decoded). The timestamp is ISO 8601 UTC to the second; Zendesk names no window, so the receiver
 * allows the usual 5 minutes. This is an event-subscribed webhook's JSON; its `id` (signed) names the
 * event. No handshake.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { SenderFixture, SentRequest } from './fixture';

// A signing secret as Admin Center's "Reveal secret" shows it: 44 base64-looking characters.
const signingSecret = randomBytes(32).toString('base64');
const otherSecret = randomBytes(32).toString('base64');

const event = {
  account_id: 22222222,
  detail: {
    created_at: '2026-01-01T12:00:00Z',
    email: 'ann@example.com',
    id: '33333333',
    name: 'Ann Lee',
    role: 'end-user',
    updated_at: '2026-01-01T12:00:00Z',
  },
  event: {},
  id: 'cbe4028c-7239-495d-b020-f22348516046',
  subject: 'zen:user:33333333',
  time: '2026-01-01T12:00:00.000000000Z',
  type: 'zen:event-type:user.created',
  zendesk_event_version: '2022-11-06',
};
const body = JSON.stringify(event);

/** `at` as Zendesk writes the timestamp header: ISO 8601, seconds, `Z`. */
export const zendeskTimestamp = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The `X-Zendesk-Webhook-Signature` of `body` sent at `timestamp` under `secret`. */
export const zendeskSignature = (secret: string, body: string | Buffer, timestamp: string) =>
  createHmac('sha256', secret).update(timestamp).update(body).digest('base64');

function sign(secret: string, body: string, at: Date): SentRequest {
  const timestamp = zendeskTimestamp(at);
  return {
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json',
      'X-Zendesk-Account-Id': '22222222',
      'X-Zendesk-Webhook-Id': '01GEXAMPLEWEBHOOK000000001',
      'X-Zendesk-Webhook-Invocation-Id': '8350205582',
      'X-Zendesk-Webhook-Signature': zendeskSignature(secret, body, timestamp),
      'X-Zendesk-Webhook-Signature-Timestamp': timestamp,
    },
    body,
  };
}

export const zendeskSender: SenderFixture = {
  name: 'zendesk',
  verification: { scheme: 'zendesk', secret: signingSecret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(signingSecret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: 300,
};
