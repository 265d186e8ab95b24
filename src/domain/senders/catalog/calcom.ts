/** Cal.com: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const calcom: Sender = {
  label: 'Cal.com',
  group: 'productivity',
  settings: [secret('Secret')],
  setup:
    'Cal.com → Settings → Developer → Webhooks → New: paste the URL as Subscriber URL, choose the event ' +
    'triggers, type a Secret (paste the same here), leave the custom payload template empty, Create. Without ' +
    'a secret Cal.com sends `no-secret-provided` in place of a signature, and every delivery is refused.',
  signature: { family: 'hmac', header: 'X-Cal-Signature-256', encoding: 'hex', content: '{body}' },
  checks: '`X-Cal-Signature-256: <hex HMAC-SHA256 of the body>` under the Secret as text',
  deliveryId: null,
  dedup: "the body's digest (`payload.uid` is the booking's, the same across its events)",
  redelivery: 'sent once: no retry found in its sender code [unconfirmed for newer versions]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    triggerEvent: 'BOOKING_CREATED',
    createdAt: '2026-01-01T12:00:00.000Z',
    payload: {
      type: '30min',
      title: '30 Min Meeting between Bo and Ann',
      startTime: '2026-01-05T09:00:00Z',
      attendees: [{ name: 'Ann', email: 'ann@example.com', timeZone: 'Europe/Paris' }],
      uid: 'bFJeNb2uX8ANpT3JL5EfXw',
      status: 'ACCEPTED',
    },
  }),
};
