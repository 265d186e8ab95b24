/** Mailgun: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const mailgun: Sender = {
  label: 'Mailgun',
  group: 'email',
  settings: [secret('HTTP webhook signing key')],
  setup:
    'Sending → Webhooks → Add webhook (or Receiving → Create route → forward()): paste the URL. HTTP webhook ' +
    'signing key: Sending → Webhooks. A route posts a form: give its app the form body format.',
  signature: { family: 'mailgun' },
  checks:
    "the body's `signature` object (webhooks), or its `timestamp`, `token` and `signature` form fields (routes, " +
    'urlencoded or multipart, up to 1 MiB): hex HMAC-SHA256 of timestamp + token, the timestamp within 5 minutes',
  deliveryId: 'own',
  dedup: "the signature's `token` (signed; an app of it keeps `auto`)",
  redelivery:
    'anything but 200 or 406 is retried over 8 hours (5, 10, 15 minutes, 1, 2, 4 hours apart); delivered ' +
    'events are not retried',
  signsPartOfBody: true,
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    signature: { timestamp: '1700000000', token: 'sample', signature: '0' },
    'event-data': { event: 'delivered', recipient: 'ann@example.com' },
  }),
};
