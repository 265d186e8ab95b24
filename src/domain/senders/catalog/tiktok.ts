/** TikTok (for Developers): its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const tiktok: Sender = {
  label: 'TikTok (for Developers)',
  group: 'marketing',
  settings: [secret('Client secret')],
  setup:
    'developers.tiktok.com → Manage apps → your app → Webhooks: paste the URL as Callback URL (every event is ' +
    "sent once it is set). Copy the app's Client secret (Basic information) here.",
  signature: {
    family: 'hmac',
    header: 'Tiktok-Signature',
    parts: { digest: 's', separator: ',' },
    encoding: 'hex',
    content: '{time}.{body}',
    time: { part: 't', unit: 's' },
  },
  checks:
    '`Tiktok-Signature: t=<unix s>,s=<hex HMAC-SHA256 of "t.body">` under the client secret, t within 5 minutes ' +
    '(TikTok leaves the window to the receiver)',
  deliveryId: null,
  dedup: "the body's digest (an event carries no id)",
  redelivery:
    'retried with exponential back-off for up to 72 hours, then dropped; it may arrive more than once ' +
    '[unconfirmed: whether a retry is signed anew]',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    client_key: 'bwo2m45353a6k85',
    event: 'video.publish.completed',
    create_time: 1767268800,
    user_openid: 'act.example12345Example12345Example',
    content: '{"share_id":"video.6974245311675353080.VDCxrcMJ"}',
  }),
};
