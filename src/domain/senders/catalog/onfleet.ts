/** Onfleet: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const onfleet: Sender = {
  label: 'Onfleet',
  group: 'commerce',
  settings: [
    secret('Webhook secret', {
      pattern: { source: '^(?:[0-9a-fA-F]{2})+$', message: 'the hex webhook secret the dashboard shows' },
    }),
  ],
  setup:
    'Dashboard → Settings → API & Webhooks: create a webhook with the URL and its trigger. Copy the ' +
    "organization's Webhook secret (hex) from the same page here.",
  signature: {
    family: 'hmac',
    header: 'X-Onfleet-Signature',
    algorithm: 'sha512',
    encoding: 'hex',
    content: '{body}',
    key: 'hex',
  },
  checks:
    "`X-Onfleet-Signature: <hex HMAC-SHA512 of the body>` under the Webhook secret hex-decoded; the body's " +
    '`time` is signed but Onfleet names no window, so none is enforced',
  deliveryId: null,
  dedup: "the body's digest (no delivery id)",
  redelivery: 'retried in 30-minute cycles for up to a day [unconfirmed]',
  handshake: {
    kind: 'echo-query',
    param: 'check',
    method: 'GET',
    request: '`GET ?check=<random string>` when the webhook is created',
    answer: '`200 text/plain` the string (204 is not taken)',
  },
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    taskId: 'madeUpTask0000001',
    time: 1767268800123,
    triggerId: 3,
    triggerName: 'taskCompleted',
    data: { task: { id: 'madeUpTask0000001', shortId: 'c77d2bd2', state: 3 } },
  }),
};
