/**
 * Twitch EventSub (webhook transport): `Twitch-Eventsub-Message-Signature: sha256=<hex HMAC-SHA256 of
 * id + timestamp + body>` under the subscription's secret, where id and timestamp are the
 * `Twitch-Eventsub-Message-Id` and `-Message-Timestamp` headers as sent (the timestamp RFC 3339, with
 * up to nanoseconds), the timestamp within 10 minutes as Twitch asks. What a verified message is
 * comes from its signed body, never from `Twitch-Eventsub-Message-Type` (not signed: a capture sent
 * again under another type is what it was): one with a `challenge` is the handshake
 * (`webhook_callback_verification`), answered with it as text; one without an `event` is a
 * `revocation`, answered 200 and noted with the subscription's status; one with an `event` is a
 * notification, a delivery told apart by its message id, signed and the same when Twitch sends it again.
 */
import { headerValue } from '../../headers';
import { SENDERS } from '../catalog';
import {
  digestHeader,
  echoable,
  fail,
  hmac,
  jsonObject,
  outside,
  setting,
  withinTolerance,
  type SenderCheck,
} from '../parts';

const TOLERANCE = SENDERS.twitch.toleranceSeconds!;
const ID = 'Twitch-Eventsub-Message-Id';
const TIMESTAMP = 'Twitch-Eventsub-Message-Timestamp';
const SIGNATURE = 'Twitch-Eventsub-Message-Signature';

/** Seconds since the epoch of an RFC 3339 date-time (fractional seconds of any length), or undefined. */
function rfc3339Seconds(text: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i.exec(text);
  if (!match) return undefined;
  const [, dateTime, fraction = '', zone] = match;
  const ms = Date.parse(`${dateTime.toUpperCase()}.${fraction.padEnd(3, '0').slice(0, 3)}${zone.toUpperCase()}`);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

/** A value of the body's `subscription` object. */
function subscriptionField(body: Buffer, name: string): unknown {
  const subscription = jsonObject(body)?.subscription;
  return subscription && typeof subscription === 'object' && name in subscription
    ? (subscription as Record<string, unknown>)[name]
    : undefined;
}

export const twitch: SenderCheck = {
  verify(v, { headers, body, receivedAtMs }) {
    if (!headerValue(headers, SIGNATURE)) return fail(`missing ${SIGNATURE} header`);
    const id = headerValue(headers, ID);
    if (!id) return fail(`missing ${ID} header`);
    const text = headerValue(headers, TIMESTAMP);
    if (!text) return fail(`missing ${TIMESTAMP} header`);
    const timestamp = rfc3339Seconds(text);
    if (timestamp === undefined) return fail(`malformed ${TIMESTAMP} header: expected an RFC 3339 date-time`);
    if (!withinTolerance(timestamp, receivedAtMs, TOLERANCE)) return outside(TOLERANCE);
    return digestHeader(headers, SIGNATURE, hmac('sha256', setting(v, 'secret'), id, text, body), 'hex', 'sha256=');
  },
  handshake: {
    signed: true,
    of(_v, { body }) {
      const message = jsonObject(body);
      if (message && 'challenge' in message) {
        const challenge = echoable(message.challenge);
        if (!challenge) return { refused: 'webhook_callback_verification without a challenge', status: 400 };
        return { answer: { status: 200, contentType: 'text/plain', body: challenge } };
      }
      if (message && !('event' in message)) {
        const status = subscriptionField(body, 'status');
        const shown = typeof status === 'string' && /^[\w.-]{1,100}$/.test(status) ? status : 'no status given';
        return { answer: { status: 200 }, note: `Twitch revoked the subscription: ${shown}` };
      }
      return null;
    },
  },
  deliveryId: ({ headers }) => headerValue(headers, ID),
  headersRead: () => [
    'twitch-eventsub-message-id',
    'twitch-eventsub-message-timestamp',
    'twitch-eventsub-message-signature',
    'twitch-eventsub-message-type',
    'twitch-eventsub-message-retry',
    'twitch-eventsub-subscription-type',
    'twitch-eventsub-subscription-version',
  ],
};
