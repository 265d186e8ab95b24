/** Intercom: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const intercom: Sender = {
  label: 'Intercom',
  group: 'messaging',
  settings: [secret('Client secret')],
  setup:
    'Developer Hub → your app → Configure → Webhooks: paste the URL as Endpoint URL, choose the topics and ' +
    'Save. Copy the Client secret (Configure → Basic information) here.',
  signature: {
    family: 'hmac',
    header: 'X-Hub-Signature',
    prefix: 'sha1=',
    algorithm: 'sha1',
    encoding: 'hex',
    content: '{body}',
  },
  checks: '`X-Hub-Signature: sha1=<hex HMAC-SHA1 of the body>` under the Client secret as text',
  deliveryId: { json: 'id' },
  dedup: "the notification's `id` (`notif_…`, signed)",
  redelivery:
    'failed notifications are retried (the count is not stated) [unconfirmed]; after more than 1000 errors ' +
    'in 15 minutes the subscription is paused for 15 minutes, and after 7 days of errors suspended',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    type: 'notification_event',
    app_id: 'a86dr8yl',
    id: 'notif_7c5d2b0a-0000-4000-8000-000000000001',
    topic: 'contact.user.created',
    data: { type: 'notification_event_data', item: { type: 'contact', role: 'user', email: 'ann@example.com' } },
    created_at: 1767268800,
  }),
};
