/** DocuSign Connect: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

/** The signature headers read: one per active Connect key, numbered (DocuSign allows up to 100). */
const SIGNATURE_HEADERS = Array.from({ length: 10 }, (_, i) => `X-DocuSign-Signature-${i + 1}`);

export const docusign: Sender = {
  label: 'DocuSign Connect',
  group: 'productivity',
  settings: [
    secret('Connect key'),
    { name: 'secondarySecret', label: 'Second Connect key', secret: true, optional: true },
  ],
  setup:
    'Admin → Connect → Connect Keys → Add Secret Key: paste it here (it is shown once). Then Add ' +
    'Configuration → Custom: the URL as URL to Publish, JSON (SIM), tick Include HMAC Signature.',
  signature: { family: 'hmac', header: SIGNATURE_HEADERS, encoding: 'base64', content: '{body}' },
  checks:
    '`X-DocuSign-Signature-1` … `-10`: base64 HMAC-SHA256 of the body under either Connect key; one ' +
    'matching is enough',
  deliveryId: null,
  dedup: "the body's digest (no id of a delivery is documented)",
  redelivery: 'failed messages retried about every 24 hours for up to 15 days, or at the next publish [unconfirmed]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    event: 'envelope-completed',
    apiVersion: 'v2.1',
    generatedDateTime: '2026-01-01T12:00:00.0000000Z',
    data: { accountId: 'account_1', envelopeId: 'envelope_1' },
  }),
};
