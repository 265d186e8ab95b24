/**
 * Postmark as the tests play it. Postmark signs nothing: its webhooks overview asks for the
 * credentials in the webhook URL, `https://<username>:<password>@host/…`, which Postmark sends as
 * `Authorization: Basic base64(username:password)` (RFC 7617). No time, no handshake, no delivery id
 * in a header: a retry is the same JSON again.
 */
import { basicAuthorization } from './basic';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const username = 'postmark-hooks';
const password = madeSecret('postmark-password', 32);
const otherPassword = madeSecret('postmark-other-password', 32);

const event = {
  RecordType: 'Delivery',
  ServerID: 23,
  MessageStream: 'outbound',
  MessageID: '00000000-0000-0000-0000-000000000000',
  Recipient: 'ann@example.com',
  Tag: 'welcome-email',
  DeliveredAt: '2026-01-01T12:00:00Z',
  Details: 'Test delivery webhook details',
  Metadata: { a_key: 'a_value' },
};
const body = JSON.stringify(event);

const sign = (password: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', Authorization: basicAuthorization(username, password) },
  body,
});

export const postmarkSender: SenderFixture = {
  name: 'postmark',
  verification: { scheme: 'postmark', username, secret: password },
  body,
  triggerData: event,
  signed: (body) => sign(password, body),
  signedWrongly: (body) => sign(otherPassword, body),
  toleranceSeconds: null,
};
