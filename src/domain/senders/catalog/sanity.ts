/** Sanity: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const sanity: Sender = {
  label: 'Sanity',
  group: 'dev-tools',
  settings: [secret('Secret')],
  setup:
    'sanity.io/manage → your project → API → Webhooks → Create webhook: paste the URL, HTTP method POST; ' +
    'type a Secret there and paste the same here.',
  signature: {
    family: 'hmac',
    header: 'sanity-webhook-signature',
    parts: { digest: 'v1', separator: ',' },
    encoding: 'base64url',
    content: '{time}.{body}',
    time: { part: 't', unit: 'ms' },
  },
  checks:
    '`sanity-webhook-signature: t=<unix ms>,v1=<base64url HMAC-SHA256 of "t.body">`, t within 5 minutes: ' +
    'Sanity names no window',
  deliveryId: null,
  dedup: "the body's digest (the projection you chose; `idempotency-key` is kept, not signed)",
  redelivery: 'retried twice, 30 seconds apart, on 429 or 5xx',
  keeps: ['idempotency-key', 'sanity-operation', 'sanity-document-id'],
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ _id: 'movie_1', _type: 'movie', _rev: 'rev_1', title: 'Ship it' }),
};
