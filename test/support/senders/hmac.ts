/** Any HMAC header: a sender that signs the body with HMAC-SHA512 in base64 after a prefix. */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture } from './fixture';

const secret = madeSecret('hmac');

const sign = (key: string) => (body: string) => ({
  method: 'POST' as const,
  query: '',
  headers: {
    'content-type': 'application/json',
    'x-signature': 'sha512=' + createHmac('sha512', key).update(body).digest('base64'),
  },
  body,
});

export const hmacSender: SenderFixture = {
  name: 'hmac',
  verification: {
    scheme: 'hmac',
    secret,
    header: 'X-Signature',
    algorithm: 'sha512',
    encoding: 'base64',
    prefix: 'sha512=',
  },
  body: '{"order":7}',
  triggerData: { order: 7 },
  signed: sign(secret),
  signedWrongly: sign(madeSecret('another')),
  toleranceSeconds: null,
};
