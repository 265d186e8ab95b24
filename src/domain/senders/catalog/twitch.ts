/** Twitch EventSub: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const twitch: Sender = {
  label: 'Twitch EventSub',
  group: 'messaging',
  settings: [secret('secret (the one you give the subscription, 10 to 100 characters)', { minLength: 10 })],
  setup:
    'Create the EventSub subscription with transport `{ method: "webhook", callback: <the URL>, secret }`, ' +
    'and the same secret here.',
  signature: { family: 'twitch' },
  checks:
    '`Twitch-Eventsub-Message-Signature: sha256=<hex HMAC-SHA256 of id + timestamp + body>`; the timestamp ' +
    'within 10 minutes; what a message is comes from its signed body (not the type header); a `revocation` is ' +
    'logged and recorded as a handshake',
  deliveryId: 'own',
  dedup: '`Twitch-Eventsub-Message-Id`: signed',
  redelivery:
    'at least once: resent with the same `Twitch-Eventsub-Message-Id` when unsure it arrived [unconfirmed: ' +
    'schedule]; repeated failures revoke it',
  handshake: {
    kind: 'own',
    method: 'POST',
    request: 'signed `webhook_callback_verification` with `challenge`',
    answer: '`200 text/plain` the challenge',
  },
  toleranceSeconds: 600,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ subscription: { type: 'channel.follow' }, event: { user_name: 'ann' } }),
};
