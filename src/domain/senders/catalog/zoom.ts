/** Zoom: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const zoom: Sender = {
  label: 'Zoom',
  group: 'productivity',
  settings: [secret('Secret Token')],
  setup:
    'marketplace.zoom.us → your app → Features → Access → Event Subscription: paste the URL as Event ' +
    'notification endpoint URL and press Validate. Secret Token: the same page.',
  signature: {
    family: 'hmac',
    header: 'x-zm-signature',
    prefix: 'v0=',
    encoding: 'hex',
    content: 'v0:{time}:{body}',
    time: { header: 'x-zm-request-timestamp', unit: 's' },
  },
  checks: '`x-zm-signature: v0=<hex HMAC-SHA256 of "v0:{x-zm-request-timestamp}:{body}">`',
  deliveryId: null,
  dedup: "the body's digest",
  redelivery:
    'an answer other than 200 or 204 within 3 seconds is retried 3 times: 5, 20 and 60 minutes apart, then dropped',
  handshake: {
    kind: 'json-crc',
    when: { field: 'event', value: 'endpoint.url_validation' },
    token: 'payload.plainToken',
    echoAs: 'plainToken',
    digestAs: 'encryptedToken',
    signed: true,
    method: 'POST',
    request: 'signed `endpoint.url_validation` with `payload.plainToken`',
    answer: '`200` JSON `{ plainToken, encryptedToken }` (hex HMAC-SHA256 of plainToken)',
  },
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ event: 'meeting.started', payload: { object: { id: '1', topic: 'Standup' } } }),
};
