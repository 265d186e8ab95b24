/** Paystack: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const paystack: Sender = {
  label: 'Paystack',
  group: 'payments',
  settings: [
    secret('Secret Key', {
      pattern: { source: '^sk_(test|live)_\\S+$', message: 'the Secret Key: sk_test_… or sk_live_…' },
    }),
  ],
  setup:
    'Paystack Dashboard → Settings → API Keys & Webhooks: paste the URL as Live (or Test) Webhook URL, Save; ' +
    'copy the Secret Key of the same mode here.',
  signature: {
    family: 'hmac',
    header: 'x-paystack-signature',
    algorithm: 'sha512',
    encoding: 'hex',
    content: '{body}',
  },
  checks: '`x-paystack-signature: <hex HMAC-SHA512 of the body>` under the Secret Key as text',
  deliveryId: null,
  dedup: "the body's digest (`data.id` is the transaction's, not the event's)",
  redelivery:
    'live mode: retried every 3 minutes for the first 4 tries, then hourly for up to 72 hours; test mode: ' +
    'hourly for 10 hours [unconfirmed]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    event: 'charge.success',
    data: {
      id: 302961,
      status: 'success',
      reference: 'qTPrJoy9Bx',
      amount: 10000,
      currency: 'NGN',
      customer: { email: 'ann@example.com' },
    },
  }),
};
