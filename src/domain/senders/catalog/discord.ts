/** Discord: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, type Sender } from './sender';

export const discord: Sender = {
  label: 'Discord',
  group: 'messaging',
  settings: [
    {
      name: 'publicKey',
      label: 'Public Key',
      secret: false,
      pattern: { source: '^[0-9a-fA-F]{64}$', message: '64 hex characters' },
      ed25519PublicKey: 'hex',
    },
  ],
  setup:
    'discord.com/developers → your app → Webhooks (events) or General Information (Interactions Endpoint URL): ' +
    'paste the URL. Public Key: General Information.',
  signature: {
    family: 'public-key',
    algorithm: 'ed25519',
    header: 'X-Signature-Ed25519',
    encoding: 'hex',
    time: { header: 'X-Signature-Timestamp', unit: 's' },
    content: '{time}{body}',
  },
  checks:
    'Ed25519 `X-Signature-Ed25519` over `X-Signature-Timestamp` + body; a bad one `401`; a delivery taken `204` ' +
    '(Discord stops sending to a URL that answers otherwise). Interactions other than PING need an answer of ' +
    'their own: not supported',
  deliveryId: null,
  dedup: "the body's digest",
  redelivery: 'no retry documented; an endpoint that keeps failing has its events turned off [unconfirmed]',
  handshake: {
    kind: 'discord',
    method: 'POST',
    request: 'signed PING (`type` 1 for interactions, 0 for webhook events)',
    answer: '`200` JSON `{"type":1}`, or `204` for webhook events',
  },
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 401,
  acknowledgeStatus: 204,
  sample: json({ version: 1, type: 1, event: { type: 'APPLICATION_AUTHORIZED', data: { user: { id: '1' } } } }),
};
