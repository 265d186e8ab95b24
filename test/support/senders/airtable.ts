/**
 * Airtable as the tests play it. Airtable's library (`airtable`) has no webhook helper: notifications are
 * signed as Airtable's webhooks guide says, `X-Airtable-Content-MAC: hmac-sha256=<hex HMAC-SHA256 of the
 * body>`, keyed with the bytes of the webhook's `macSecretBase64` once base64-decoded (the string itself is
 * not the key). A notification is a thin ping naming the base and the webhook; the changes are fetched from
 * the API. No handshake.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

/** `macSecretBase64` as the create-webhook call returns it: base64 of the key's bytes. */
const macSecretBase64 = Buffer.from(madeSecret('airtable-mac-secret', 64)).toString('base64');
const otherMacSecretBase64 = Buffer.from(madeSecret('airtable-other-secret', 64)).toString('base64');

const notification = {
  base: { id: 'appMadeUpBase0001' },
  webhook: { id: 'achMadeUpHook0001' },
  timestamp: '2026-01-01T12:00:00.000Z',
};
const body = JSON.stringify(notification);

/** The header's value for `body` under the base64 secret `macSecret`. */
export const airtableContentMac = (macSecret: string, body: string | Buffer) =>
  'hmac-sha256=' + createHmac('sha256', Buffer.from(macSecret, 'base64')).update(body).digest('hex');

const sign = (macSecret: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'X-Airtable-Content-MAC': airtableContentMac(macSecret, body) },
  body,
});

export const airtableSender: SenderFixture = {
  name: 'airtable',
  verification: { scheme: 'airtable', secret: macSecretBase64 },
  body,
  triggerData: notification,
  signed: (body) => sign(macSecretBase64, body),
  signedWrongly: (body) => sign(otherMacSecretBase64, body),
  toleranceSeconds: null,
};
