/** Any HMAC header: its check's parameters (../families/) and what a person sees. */
import { HMAC_ALGORITHMS, SIGNATURE_ENCODINGS, json, secret, type Sender } from './sender';

export const hmac: Sender = {
  label: 'Any HMAC header',
  group: 'generic',
  examples: 'senders that sign the body with HMAC in one header',
  settings: [
    secret('Signing secret'),
    { name: 'header', label: 'Signature header', secret: false },
    { name: 'algorithm', label: 'Algorithm', secret: false, choices: HMAC_ALGORITHMS },
    { name: 'encoding', label: 'Encoding', secret: false, choices: SIGNATURE_ENCODINGS },
    { name: 'prefix', label: 'Prefix before the digest (e.g. sha256=)', secret: false, optional: true },
  ],
  setup: 'Paste the URL where the sender asks for it, and its signing secret here; name its header and format.',
  signature: {
    family: 'hmac',
    header: { setting: 'header' },
    prefix: { setting: 'prefix' },
    algorithm: { setting: 'algorithm' },
    encoding: { setting: 'encoding' },
    content: '{body}',
  },
  checks: '`<header>: <prefix><HMAC of the body>`',
  deliveryId: null,
  dedup: "the body's digest",
  redelivery: 'as the sender does',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ name: 'Ann', customer: { email: 'ann@example.com' } }),
};
