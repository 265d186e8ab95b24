/** SendGrid Event Webhook: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, type Sender } from './sender';

export const sendgrid: Sender = {
  label: 'SendGrid Event Webhook',
  group: 'email',
  settings: [
    {
      name: 'publicKey',
      label: 'Verification Key',
      secret: false,
      pattern: { source: '^[A-Za-z0-9+/=]{40,400}$', message: 'the base64 key the console shows' },
    },
  ],
  setup:
    'Settings → Mail Settings → Event Webhooks: paste the URL as Post URL, turn on Signed Event Webhook and ' +
    'copy its Verification Key here.',
  signature: {
    family: 'public-key',
    algorithm: 'ecdsa-p256',
    header: 'X-Twilio-Email-Event-Webhook-Signature',
    encoding: 'base64',
    time: { header: 'X-Twilio-Email-Event-Webhook-Timestamp', unit: 's' },
    content: '{time}{body}',
  },
  checks: 'ECDSA P-256 `X-Twilio-Email-Event-Webhook-Signature` over `X-Twilio-Email-Event-Webhook-Timestamp` + body',
  deliveryId: null,
  dedup: "the body's digest",
  redelivery: 'a batch answered with anything but 2xx is retried for up to 24 hours, then dropped [unconfirmed]',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json([{ email: 'ann@example.com', event: 'delivered', sg_event_id: 'e1', timestamp: 1700000000 }]),
};
