/** Meta (WhatsApp, Messenger, Instagram): its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const meta: Sender = {
  label: 'Meta (WhatsApp, Messenger, Instagram)',
  group: 'messaging',
  settings: [
    secret('App Secret', { minLength: 32 }),
    { name: 'verifyToken', label: 'Verify token (one you choose)', secret: true, minLength: 16 },
  ],
  setup:
    'developers.facebook.com → your app → WhatsApp (or Webhooks) → Configuration: paste the URL as Callback URL ' +
    'and the same Verify token as here. App Secret: App settings → Basic.',
  signature: { family: 'hmac', header: 'X-Hub-Signature-256', prefix: 'sha256=', encoding: 'hex', content: '{body}' },
  checks: '`X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`',
  deliveryId: null,
  dedup: "the body's digest",
  redelivery:
    'a failed notification is tried again a few times at once, then less often; the app is unsubscribed after ' +
    'long failure [unconfirmed]',
  handshake: {
    kind: 'echo-query',
    param: 'hub.challenge',
    verifyToken: { param: 'hub.verify_token', mode: { param: 'hub.mode', value: 'subscribe' } },
    method: 'GET',
    request: '`GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`',
    answer: '`200 text/plain` the challenge when the token matches, else `403`',
  },
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages' }] }] }),
};
