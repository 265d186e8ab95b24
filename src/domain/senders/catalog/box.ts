/** Box: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const box: Sender = {
  label: 'Box',
  group: 'productivity',
  settings: [
    secret('Primary signature key'),
    { name: 'secondarySecret', label: 'Secondary signature key', secret: true, optional: true },
  ],
  setup:
    'Developer Console → your app → Webhooks → Manage signature keys: generate the keys and paste them here. ' +
    'Create the webhook (there, or POST /webhooks) with the URL as its address.',
  signature: {
    family: 'hmac',
    header: ['box-signature-primary', 'box-signature-secondary'],
    encoding: 'base64',
    content: '{body}{time}',
    time: { header: 'box-delivery-timestamp', unit: 'iso' },
  },
  checks:
    '`box-signature-primary` or `box-signature-secondary`: base64 HMAC-SHA256 of the body + ' +
    '`box-delivery-timestamp` (ISO 8601) under the primary or the secondary key, the timestamp within ' +
    '10 minutes, as its SDK',
  deliveryId: { json: 'id' },
  dedup: '`id` (the event, signed; `box-delivery-id` is kept, not signed)',
  redelivery:
    'retried with back-off on a failure or no answer within 30 seconds, signed again at the new time [unconfirmed]',
  keeps: ['box-delivery-id'],
  handshake: null,
  toleranceSeconds: 600,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    type: 'webhook_event',
    id: 'f5a4c1d8-0000-4000-8000-000000000001',
    trigger: 'FILE.UPLOADED',
    webhook: { id: '1234567890', type: 'webhook' },
    source: { id: '333333333333', type: 'file', name: 'report.pdf' },
  }),
};
