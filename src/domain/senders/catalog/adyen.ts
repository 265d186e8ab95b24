/** Adyen: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const adyen: Sender = {
  label: 'Adyen',
  group: 'payments',
  settings: [secret('HMAC key', { pattern: { source: '^[0-9a-fA-F]{64}$', message: '64 hex characters' } })],
  setup:
    'Customer Area → Developers → Webhooks → + Webhook → Standard webhook: paste the URL under Server ' +
    'configuration (JSON). Under Security generate an HMAC key and paste it here; Save.',
  signature: { family: 'adyen' },
  checks:
    "each notification item's `additionalData.hmacSignature`: base64 HMAC-SHA256, under the HMAC key " +
    'hex-decoded, of pspReference, originalReference, merchantAccountCode, merchantReference, amount value and ' +
    'currency, eventCode and success joined by `:`; only those fields are signed',
  deliveryId: 'own',
  dedup: "each item's pspReference, eventCode and success (signed)",
  redelivery:
    'not accepted: 3 retries within half a minute, then a retry queue (2 minutes to 8 hours apart) for up to ' +
    '30 days, the same notification each time',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  signsPartOfBody: true,
  sample: json({
    live: 'false',
    notificationItems: [
      {
        NotificationRequestItem: {
          additionalData: { hmacSignature: 'sample' },
          amount: { currency: 'EUR', value: 1130 },
          eventCode: 'AUTHORISATION',
          eventDate: '2026-01-01T12:00:00+01:00',
          merchantAccountCode: 'MadeUpMerchantECOM',
          merchantReference: 'order-727',
          pspReference: 'MADEUP0000000001',
          success: 'true',
        },
      },
    ],
  }),
};
