/** Mailchimp Transactional (Mandrill): its check's parameters (../families/) and what a person sees. */
import { form, secret, type Sender } from './sender';

export const mandrill: Sender = {
  label: 'Mailchimp Transactional (Mandrill)',
  group: 'email',
  settings: [secret('Webhook Key')],
  setup:
    'Mandrill → Settings → Webhooks → Add a Webhook: choose the events, paste the URL as Post To URL. Once ' +
    "saved, copy the webhook's Key here.",
  signature: {
    family: 'hmac',
    header: 'X-Mandrill-Signature',
    algorithm: 'sha1',
    encoding: 'base64',
    content: '{url}{form}',
  },
  checks:
    "`X-Mandrill-Signature: <base64 HMAC-SHA1 of the URL followed by each form field's name and value, sorted " +
    'by name>`; the form is `mandrill_events=<JSON array>`',
  deliveryId: null,
  dedup: "the body's digest (a batch of up to 1,000 events)",
  redelivery: 'a failed batch is retried until it succeeds or is given up on the Webhooks page [unconfirmed]',
  handshake: {
    kind: 'head',
    method: 'HEAD',
    request: '`HEAD` to the URL when the webhook is added',
    answer: '`200` (so Mandrill needs no test POST)',
  },
  toleranceSeconds: null,
  bodyFormat: 'form',
  refusalStatus: 400,
  sample: form({
    mandrill_events: JSON.stringify([
      { event: 'open', _id: 'made-up-message-id-0001', ts: 1767268800, msg: { email: 'ann@example.com' } },
    ]),
  }),
};
