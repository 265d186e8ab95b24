/** Airtable: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const airtable: Sender = {
  label: 'Airtable',
  group: 'productivity',
  settings: [
    secret('macSecretBase64', {
      pattern: { source: '^[A-Za-z0-9+/]+={0,2}$', message: 'the base64 macSecretBase64 the create call returned' },
    }),
  ],
  setup:
    'Create the webhook with the Web API (POST /v0/bases/{baseId}/webhooks) with the URL as notificationUrl. ' +
    "Paste the answer's macSecretBase64 here (it is shown only once).",
  signature: {
    family: 'hmac',
    header: 'X-Airtable-Content-MAC',
    prefix: 'hmac-sha256=',
    encoding: 'hex',
    content: '{body}',
    key: 'base64',
  },
  checks:
    '`X-Airtable-Content-MAC: hmac-sha256=<hex HMAC-SHA256 of the body>` under macSecretBase64 base64-decoded; ' +
    "the body's `timestamp` is signed but Airtable names no window, so none is enforced",
  deliveryId: null,
  dedup: "the body's digest (a notification is a thin ping; its `timestamp` is new on each)",
  redelivery: 'retried with back-off on a failure, notifications turned off after repeated failures [unconfirmed]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    base: { id: 'appMadeUpBase0001' },
    webhook: { id: 'achMadeUpHook0001' },
    timestamp: '2026-01-01T12:00:00.000Z',
  }),
};
