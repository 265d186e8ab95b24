/**
 * The catalog's senders that check the URL before they send events (a handshake: a challenge to
 * echo, a token to match, a secret to learn); their entries, gathered by ./catalog.ts.
 */
import type { SenderDescription, SenderName } from './entry';
import { secret, FIVE_MINUTES, json } from './entry';

export const HANDSHAKE_SENDERS: { readonly [name in HandshakeSenderName]: SenderDescription } = {
  meta: {
    label: 'Meta (WhatsApp, Messenger, Instagram)',
    settings: [
      secret('App Secret', { minLength: 32 }),
      { name: 'verifyToken', label: 'Verify token (one you choose)', secret: true, minLength: 16 },
    ],
    setup:
      'developers.facebook.com → your app → WhatsApp (or Webhooks) → Configuration: paste the URL as Callback URL ' +
      'and the same Verify token as here. App Secret: App settings → Basic.',
    checks: '`X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`',
    dedup: "the body's digest",
    handshake: {
      method: 'GET',
      request: '`GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`',
      answer: '`200 text/plain` the challenge when the token matches, else `403`',
    },
    toleranceSeconds: null,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages' }] }] }),
  },
  zoom: {
    label: 'Zoom',
    settings: [secret('Secret Token')],
    setup:
      'marketplace.zoom.us → your app → Features → Access → Event Subscription: paste the URL as Event ' +
      'notification endpoint URL and press Validate. Secret Token: the same page.',
    checks: '`x-zm-signature: v0=<hex HMAC-SHA256 of "v0:{x-zm-request-timestamp}:{body}">`',
    dedup: "the body's digest",
    handshake: {
      method: 'POST',
      request: 'signed `endpoint.url_validation` with `payload.plainToken`',
      answer: '`200` JSON `{ plainToken, encryptedToken }` (hex HMAC-SHA256 of plainToken)',
    },
    toleranceSeconds: FIVE_MINUTES,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ event: 'meeting.started', payload: { object: { id: '1', topic: 'Standup' } } }),
  },
  'microsoft-graph': {
    label: 'Microsoft Graph',
    settings: [secret('clientState (one you choose)')],
    setup:
      'Create the subscription (POST /subscriptions) with the URL as notificationUrl and the same clientState as ' +
      'here. A batch (`value: […]`) is one delivery: read `{{trigger.value}}`.',
    checks: "every notification's `clientState` equals the secret",
    dedup: "the body's digest for 60 s (notifications have no id; the same change twice is one run within a minute)",
    handshake: {
      method: 'POST',
      request: '`POST ?validationToken=…`, empty body',
      answer: '`200 text/plain` the token',
    },
    toleranceSeconds: null,
    bodyWindowSeconds: 60,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ value: [{ changeType: 'created', resource: 'me/messages/1', clientState: 'sample' }] }),
  },
  twitch: {
    label: 'Twitch EventSub',
    settings: [secret('secret (the one you give the subscription, 10 to 100 characters)', { minLength: 10 })],
    setup:
      'Create the EventSub subscription with transport `{ method: "webhook", callback: <the URL>, secret }`, ' +
      'and the same secret here.',
    checks:
      '`Twitch-Eventsub-Message-Signature: sha256=<hex HMAC-SHA256 of id + timestamp + body>`; the timestamp ' +
      'within 10 minutes; what a message is comes from its signed body (not the type header); a `revocation` is ' +
      'logged and recorded as a handshake',
    dedup: '`Twitch-Eventsub-Message-Id`: signed',
    handshake: {
      method: 'POST',
      request: 'signed `webhook_callback_verification` with `challenge`',
      answer: '`200 text/plain` the challenge',
    },
    toleranceSeconds: 600,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ subscription: { type: 'channel.follow' }, event: { user_name: 'ann' } }),
  },
  dropbox: {
    label: 'Dropbox',
    settings: [secret('App secret', { minLength: 15 })],
    setup: 'dropbox.com/developers → your app → Webhooks: paste the URL and Add. App secret: the Settings tab.',
    checks: '`X-Dropbox-Signature: <hex HMAC-SHA256 of the body>`',
    dedup: "the body's digest for 60 s (a notification only says an account changed, and says it again the same way)",
    handshake: {
      method: 'GET',
      request: '`GET ?challenge=…`',
      answer: '`200 text/plain` the challenge, `X-Content-Type-Options: nosniff`',
    },
    toleranceSeconds: null,
    bodyWindowSeconds: 60,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ list_folder: { accounts: ['dbid:1'] }, delta: { users: [1] } }),
  },
  okta: {
    label: 'Okta event hooks',
    settings: [
      { name: 'header', label: 'Authentication field', secret: false, default: 'Authorization' },
      secret('Authentication secret'),
    ],
    setup:
      'Admin Console → Workflow → Event Hooks → Create: paste the URL, the same Authentication field and ' +
      'secret as here, then Verify.',
    checks: 'the named header equals the secret (constant time)',
    dedup: "the body's digest",
    handshake: {
      method: 'GET',
      request: '`GET` with `x-okta-verification-challenge`',
      answer: '`200` JSON `{ "verification": … }`',
    },
    toleranceSeconds: null,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ eventType: 'com.okta.event_hook', data: { events: [{ eventType: 'user.session.start' }] } }),
  },
  asana: {
    label: 'Asana',
    settings: [],
    setup:
      'Create the webhook (POST /webhooks) with the URL as target. Nothing to fill in: Asana gives its secret in ' +
      "its first request; confirm it on this robot's card (its events are refused until then; Asana retries them).",
    checks: '`X-Hook-Signature: <hex HMAC-SHA256 of the body>` under the secret of the handshake',
    dedup: "the body's digest",
    handshake: {
      method: 'POST',
      request: '`X-Hook-Secret` header',
      answer:
        "`200` with the same `X-Hook-Secret`; a new secret is kept pending on the robot's URL until an editor confirms it",
    },
    toleranceSeconds: null,
    bodyFormat: 'json',
    refusalStatus: 400,
    secretFromHandshake: {},
    sample: json({ events: [{ action: 'changed', resource: { gid: '1', resource_type: 'task' } }] }),
  },
  notion: {
    label: 'Notion',
    settings: [],
    setup:
      'notion.so/profile/integrations → your integration → Webhooks → Create a subscription: paste the URL. ' +
      'Confirm the token it sent on this robot\'s card, which then shows it once: paste it into Notion\'s "Verify".',
    checks: '`X-Notion-Signature: sha256=<hex HMAC-SHA256 of the body>` under the verification token',
    dedup: "the event `id` (signed; Notion's retries change `attempt_number`)",
    handshake: {
      method: 'POST',
      request: '`{"verification_token":"…"}`',
      answer: "`200`; the token is kept pending on the robot's URL until an editor confirms it (shown then once)",
    },
    toleranceSeconds: null,
    bodyFormat: 'json',
    refusalStatus: 400,
    secretFromHandshake: { pasteBack: 'Notion verification token' },
    sample: json({ id: 'evt-1', type: 'page.created', entity: { id: 'page-1', type: 'page' }, attempt_number: 1 }),
  },
  discord: {
    label: 'Discord',
    settings: [
      {
        name: 'publicKey',
        label: 'Public Key',
        secret: false,
        pattern: { source: '^[0-9a-fA-F]{64}$', message: '64 hex characters' },
        ed25519PublicKey: true,
      },
    ],
    setup:
      'discord.com/developers → your app → Webhooks (events) or General Information (Interactions Endpoint URL): ' +
      'paste the URL. Public Key: General Information.',
    checks:
      'Ed25519 `X-Signature-Ed25519` over `X-Signature-Timestamp` + body; a bad one `401`. Interactions other ' +
      'than PING need an answer of their own: not supported',
    dedup: "the body's digest",
    handshake: {
      method: 'POST',
      request: 'signed PING (`type` 1 for interactions, 0 for webhook events)',
      answer: '`200` JSON `{"type":1}`, or `204` for webhook events',
    },
    toleranceSeconds: FIVE_MINUTES,
    bodyFormat: 'json',
    refusalStatus: 401,
    sample: json({ version: 1, type: 1, event: { type: 'APPLICATION_AUTHORIZED', data: { user: { id: '1' } } } }),
  },
};

/** The senders of this file. */
export type HandshakeSenderName = Extract<
  SenderName,
  'meta' | 'zoom' | 'microsoft-graph' | 'twitch' | 'dropbox' | 'okta' | 'asana' | 'notion' | 'discord'
>;
