/** Dropbox: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const dropbox: Sender = {
  label: 'Dropbox',
  group: 'productivity',
  settings: [secret('App secret', { minLength: 15 })],
  setup: 'dropbox.com/developers → your app → Webhooks: paste the URL and Add. App secret: the Settings tab.',
  signature: { family: 'hmac', header: 'X-Dropbox-Signature', encoding: 'hex', content: '{body}' },
  checks: '`X-Dropbox-Signature: <hex HMAC-SHA256 of the body>`',
  deliveryId: null,
  dedup: "the body's digest for 60 s (a notification only says an account changed, and says it again the same way)",
  redelivery:
    'anything but 200, or a timeout, is retried with exponential back-off for about 10 minutes, then shown as ' +
    'failed in the App Console',
  handshake: {
    kind: 'echo-query',
    param: 'challenge',
    method: 'GET',
    request: '`GET ?challenge=…`',
    answer: '`200 text/plain` the challenge, `X-Content-Type-Options: nosniff`',
  },
  toleranceSeconds: null,
  bodyWindowSeconds: 60,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ list_folder: { accounts: ['dbid:1'] }, delta: { users: [1] } }),
};
