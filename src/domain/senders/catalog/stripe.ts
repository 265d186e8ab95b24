/**
 * The payment provider's (Stripe's) signature, for the payment provider connection (not a scheme a
 * custom app can name): `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`,
 * one `v1` per signing secret while one is rolled, t within 5 minutes (stripe-node's DEFAULT_TOLERANCE).
 */
import { FIVE_MINUTES, type HmacSignature } from './sender';

export const stripe: { signature: HmacSignature; toleranceSeconds: number } = {
  signature: {
    family: 'hmac',
    header: 'Stripe-Signature',
    parts: { digest: 'v1', separator: ',' },
    encoding: 'hex',
    content: '{time}.{body}',
    time: { part: 't', unit: 's' },
  },
  toleranceSeconds: FIVE_MINUTES,
};
