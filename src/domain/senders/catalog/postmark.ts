/** Postmark: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const postmark: Sender = {
  label: 'Postmark',
  group: 'email',
  settings: [{ name: 'username', label: 'User name (in the URL)', secret: false }, secret('Password (in the URL)')],
  setup:
    'Postmark → Servers → the server → the message stream → Webhooks → Add webhook: paste the URL as ' +
    'https://<user name>:<password>@<host>/api/webhooks/… with a user name and password of your choosing (the ' +
    "same here), pick the events, Save. Inbound: the inbound stream's Settings → Inbound webhook URL, the same way.",
  signature: { family: 'basic' },
  checks:
    '`Authorization: Basic` with the user name and password put in the URL (constant time); Postmark signs nothing',
  deliveryId: null,
  dedup: "the body's digest (a message's events each have their own `RecordType`; no event id)",
  redelivery:
    'inbound webhooks: retried 10 times over about 10.5 hours, the same JSON; an answer of 403 stops them; ' +
    'other webhooks are retried too [unconfirmed: schedule]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    RecordType: 'Delivery',
    MessageStream: 'outbound',
    MessageID: '00000000-0000-0000-0000-000000000000',
    Recipient: 'ann@example.com',
    DeliveredAt: '2026-01-01T12:00:00Z',
  }),
};
