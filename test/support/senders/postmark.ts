/**
 * Postmark as the tests play it. Postmark signs nothing: its webhooks overview asks for the
 * credentials in the webhook URL, `https://<username>:<password>@host/…`, which Postmark sends as
 * `Authorization: Basic base64(username:password)` (RFC 7617). No time, no handshake, no delivery id
 * in a header: a retry is the same JSON again.
 */
import { basicFixture } from './basic';

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
export const postmarkSender = basicFixture({ name: 'postmark', username: 'postmark-hooks', event });
