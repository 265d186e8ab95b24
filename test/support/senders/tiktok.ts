/**
 * TikTok (for Developers) webhooks as the tests play them. TikTok publishes no library that signs or
 * verifies; deliveries are signed by its documented algorithm ("Check the signature"):
 * `Tiktok-Signature: t=<unix s>,s=<hex HMAC-SHA256 of "<t>.<body>">` under the app's client secret taken as
 * text. TikTok leaves the window to the receiver (no number given): the receiver's 5 minutes apply. The
 * body has no event id (client_key, event, create_time, user_openid, content): a redelivery is told apart
 * by its digest. No handshake.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const clientSecret = madeSecret('tiktok-client-secret', 32);
const otherSecret = madeSecret('tiktok-other-secret', 32);

const event = {
  client_key: 'bwo2m45353a6k85',
  event: 'video.publish.completed',
  create_time: 1767268800,
  user_openid: 'act.example12345Example12345Example',
  content: '{"share_id":"video.6974245311675353080.VDCxrcMJ"}',
};
const body = JSON.stringify(event);

/** The `Tiktok-Signature` header's value for `body` under `secret` at `seconds`. */
export const tiktokSignature = (secret: string, body: string | Buffer, seconds: number) =>
  `t=${seconds},s=${createHmac('sha256', secret).update(`${seconds}.`).update(body).digest('hex')}`;

const sign = (secret: string, body: string, at: Date): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'Tiktok-Signature': tiktokSignature(secret, body, Math.floor(at.getTime() / 1000)),
  },
  body,
});

export const tiktokSender: SenderFixture = {
  name: 'tiktok',
  verification: { scheme: 'tiktok', secret: clientSecret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(clientSecret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: 300,
};
