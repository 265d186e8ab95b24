/**
 * Front rule webhooks as the tests play them. Front publishes no library that signs or verifies;
 * deliveries are signed by its documented algorithm (Rule webhooks, "Validating Data Integrity"):
 * `X-Front-Signature: <base64 HMAC-SHA1 of the body>` under the company's API secret (Company Settings ›
 * Plugins & API › API) taken as UTF-8 text. No time is signed. The body is the event (or event preview)
 * whose `id` (`evt_…`, signed) names it; Front does not retry rule webhooks. No handshake.
 * (Front's application webhooks sign `<X-Front-Request-Timestamp ms>:<body>` with HMAC-SHA256 and first
 * send a `sync` challenge whose expected answer Front's docs read here do not show: not played here.)
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const apiSecret = madeSecret('front-api-secret', 32);
const otherSecret = madeSecret('front-other-secret', 32);

const event = {
  _links: { self: 'https://api2.frontapp.com/events/evt_55c8c149' },
  id: 'evt_55c8c149',
  type: 'assign',
  emitted_at: 1767268800.123,
  conversation: {
    _links: { self: 'https://api2.frontapp.com/conversations/cnv_55c8c149' },
    id: 'cnv_55c8c149',
    subject: 'You broke my heart, Hubert.',
    status: 'assigned',
  },
  source: { _meta: { type: 'teammate' }, data: { id: 'tea_55c8c149', email: 'ann@example.com' } },
  target: { _meta: { type: 'teammate' }, data: { id: 'tea_6r55c8c149', email: 'bob@example.com' } },
};
const body = JSON.stringify(event);

/** The `X-Front-Signature` header's value for `body` under `secret`. */
export const frontRuleSignature = (secret: string, body: string | Buffer) =>
  createHmac('sha1', secret).update(body).digest('base64');

const sign = (secret: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'X-Front-Signature': frontRuleSignature(secret, body) },
  body,
});

export const frontSender: SenderFixture = {
  name: 'front',
  verification: { scheme: 'front', secret: apiSecret },
  body,
  triggerData: event,
  signed: (body) => sign(apiSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
