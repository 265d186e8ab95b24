/** Telnyx: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, type Sender } from './sender';

export const telnyx: Sender = {
  label: 'Telnyx',
  group: 'messaging',
  settings: [
    {
      name: 'publicKey',
      label: 'Public Key',
      secret: false,
      pattern: { source: '^[A-Za-z0-9+/]{43}=$', message: 'the base64 of a 32-byte Ed25519 key (44 characters)' },
      ed25519PublicKey: 'base64',
    },
  ],
  setup:
    'Mission Control Portal → your messaging profile or voice app → Webhook URL: paste the URL. Public Key: ' +
    'Account Settings → Keys & Credentials → Public Key.',
  signature: {
    family: 'public-key',
    algorithm: 'ed25519',
    header: 'telnyx-signature-ed25519',
    encoding: 'base64',
    time: { header: 'telnyx-timestamp', unit: 's' },
    content: '{time}|{body}',
  },
  checks:
    'Ed25519 `telnyx-signature-ed25519` (base64) over `telnyx-timestamp|body`, the timestamp (unix seconds) ' +
    'within 5 minutes, as its SDK',
  deliveryId: { json: 'data.id' },
  dedup: '`data.id` (signed; `meta.attempt` grows on a retry, so the body differs)',
  redelivery:
    'retried on failure, then sent to the failover URL if one is set, with `meta.attempt` raised [unconfirmed]',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    data: {
      event_type: 'message.received',
      id: 'b301ed3f-1490-491f-995f-6e64e69674d4',
      payload: { direction: 'inbound', text: 'Hello', from: { phone_number: '+13125550001' } },
      record_type: 'event',
    },
    meta: { attempt: 1 },
  }),
};
