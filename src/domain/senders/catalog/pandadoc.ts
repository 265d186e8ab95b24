/** PandaDoc: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const pandadoc: Sender = {
  label: 'PandaDoc',
  group: 'productivity',
  settings: [secret('Shared key')],
  setup:
    'Settings → Developer Dashboard → Webhooks → Create: paste the URL as the endpoint and choose the events. ' +
    "Copy the subscription's Shared key here.",
  signature: { family: 'hmac', header: { query: 'signature' }, encoding: 'hex', content: '{body}' },
  checks: "the URL's `?signature=<hex HMAC-SHA256 of the body>` (PandaDoc appends it) under the Shared key",
  deliveryId: null,
  dedup: "the body's digest (a JSON array of events)",
  redelivery: 'retried on a failure [unconfirmed]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json([
    {
      event: 'document_state_changed',
      data: { id: 'madeUpDocument0001', name: 'Quote for Ann', status: 'document.completed' },
    },
  ]),
};
