/**
 * Twitch EventSub as the tests play it, by its published algorithm (Twitch has no official Node
 * library that signs): `Twitch-Eventsub-Message-Signature: sha256=<hex HMAC-SHA256 of message id +
 * timestamp + body>` under the subscription's secret, the timestamp RFC 3339 with nanoseconds as
 * Twitch sends it; the handshake is a signed `webhook_callback_verification` (the docs' example
 * challenge), which Twitch checks is answered 200 with the raw challenge as text.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { SENDERS } from '../../../src/domain/senders/catalog';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

const secret = madeSecret('twitch-eventsub-secret', 32);
const otherSecret = madeSecret('twitch-other-secret', 32);
/** The docs' example challenge. */
export const twitchChallenge = 'pogchamp-kappa-360noscope-vohiyo';

const subscription = (status: string) => ({
  id: 'f1c2a387-161a-49f9-a165-0f21d7a4e1c4',
  status,
  type: 'channel.follow',
  version: '2',
  cost: 0,
  condition: { broadcaster_user_id: '12826', moderator_user_id: '12826' },
  transport: { method: 'webhook', callback: 'https://example.com/webhooks/callback' },
  created_at: '2019-11-16T10:11:12.634234626Z',
});

const notification = {
  subscription: subscription('enabled'),
  event: {
    user_id: '1337',
    user_login: 'ann',
    user_name: 'Ann',
    broadcaster_user_id: '12826',
    broadcaster_user_login: 'twitch',
    broadcaster_user_name: 'Twitch',
    followed_at: '2020-07-15T18:16:11.17106713Z',
  },
};

/** The time as Twitch writes it: RFC 3339, nanoseconds. */
export const twitchTime = (at: Date) => at.toISOString().replace('Z', '123456Z');

/** A message of `type` signed under `key` at `at`, with a new message id unless one is given. */
export function twitchSigned(
  key: string,
  body: string,
  at: Date,
  type = 'notification',
  id: string = randomUUID(),
): SentRequest {
  const timestamp = twitchTime(at);
  return {
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json',
      'Twitch-Eventsub-Message-Id': id,
      'Twitch-Eventsub-Message-Retry': '0',
      'Twitch-Eventsub-Message-Type': type,
      'Twitch-Eventsub-Message-Signature': `sha256=${createHmac('sha256', key)
        .update(id + timestamp + body)
        .digest('hex')}`,
      'Twitch-Eventsub-Message-Timestamp': timestamp,
      'Twitch-Eventsub-Subscription-Type': 'channel.follow',
      'Twitch-Eventsub-Subscription-Version': '2',
    },
    body,
  };
}

/** A revocation, as Twitch sends when it ends the subscription. */
export const twitchRevocation = (at: Date, status = 'authorization_revoked') =>
  twitchSigned(secret, JSON.stringify({ subscription: subscription(status) }), at, 'revocation');

export const twitchVerificationBody = (challenge = twitchChallenge) =>
  JSON.stringify({ challenge, subscription: subscription('webhook_callback_verification_pending') });

export const twitchSender: SenderFixture = {
  name: 'twitch',
  verification: { scheme: 'twitch', secret },
  body: JSON.stringify(notification),
  triggerData: notification,
  signed: (body, _url, at) => twitchSigned(secret, body, at),
  signedWrongly: (body, _url, at) => twitchSigned(otherSecret, body, at),
  toleranceSeconds: SENDERS.twitch.toleranceSeconds,
  handshake: {
    request: (_url, at) => twitchSigned(secret, twitchVerificationBody(), at, 'webhook_callback_verification'),
    // Twitch: a 200 whose body is the raw challenge (its docs: as text/plain).
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`Twitch expects 200, got ${answer.status}`);
      if (answer.body !== twitchChallenge) throw new Error(`Twitch expects the raw challenge, got ${answer.body}`);
      if (!answer.headers['content-type']?.startsWith('text/plain')) {
        throw new Error(`Twitch expects text/plain, got ${answer.headers['content-type']}`);
      }
    },
  },
};
