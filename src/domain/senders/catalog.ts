/**
 * The sender catalog: every sender a custom app can name as `verification.scheme`, declared once as
 * data. What a person fills in, where they paste the URL, how the sender signs, what its deliveries
 * are told apart by and how it checks the URL first: the API's validation (src/contract/requests.ts),
 * its answers and OpenAPI schema, docs/api.md's table of senders (checked against this list by
 * test/unit/senders.test.ts), the dashboard's app form and a test delivery's sample body all read it.
 * How each sender's request is checked lives beside it, one file per sender (./checks.ts lists
 * them; the compiler refuses a sender here without its check).
 *
 * Pure data and types: the dashboard bundles this module.
 */
import type { BodyFormat } from '../types';

/** Every sender by its scheme name, in the order the dashboard offers them. */
export const SENDER_NAMES = [
  'standard-webhooks',
  'github',
  'shopify',
  'slack',
  'twilio',
  'meta',
  'zoom',
  'microsoft-graph',
  'twitch',
  'dropbox',
  'okta',
  'asana',
  'notion',
  'discord',
  'sendgrid',
  'calendly',
  'paddle',
  'hubspot',
  'square',
  'gitlab',
  'mailgun',
  'header-token',
  'basic',
  'hmac',
] as const;
export type SenderName = (typeof SENDER_NAMES)[number];

export const HMAC_ALGORITHMS = ['sha256', 'sha1', 'sha512'] as const;
export const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;

/** The settings a sender may take; which ones each takes is its entry's `settings`. */
export const SETTING_NAMES = [
  'secret',
  'verifyToken',
  'publicKey',
  'header',
  'username',
  'algorithm',
  'encoding',
  'prefix',
] as const;
export type SettingName = (typeof SETTING_NAMES)[number];

/**
 * A custom app's verification as stored (sealed, whole) and as the checks read it: the scheme and
 * the settings its entry names. `secret` is absent only for a sender that gives it in its handshake
 * (Asana, Notion) before that handshake came.
 */
export interface CustomVerification {
  scheme: SenderName;
  secret?: string;
  verifyToken?: string;
  publicKey?: string;
  header?: string;
  username?: string;
  algorithm?: (typeof HMAC_ALGORITHMS)[number];
  encoding?: (typeof SIGNATURE_ENCODINGS)[number];
  prefix?: string;
}

/** One setting a person fills in, as the sender's console names it. */
export interface SenderSetting {
  name: SettingName;
  /** What the sender's console calls it. */
  label: string;
  /** A secret is write-only: the API never returns it. Every setting is stored sealed with it. */
  secret: boolean;
  /** The sender's own format decides the shortest (MIN_SIGNING_SECRET_LENGTH for one the person chooses). */
  minLength?: number;
  /** The value's shape, as a regular expression's source, and what to say when it does not match. */
  pattern?: { source: string; message: string };
  /** A fixed list of values. */
  choices?: readonly string[];
  /** Taken when left out. */
  default?: string;
  optional?: boolean;
}

/** How the sender checks the URL before it sends events, if it does. */
export interface SenderHandshake {
  /** GET handshakes are the only GETs a webhook URL answers (for an app of that sender). */
  method: 'GET' | 'POST';
  /** The request, as the sender's docs describe it. */
  request: string;
  /** What the receiver answers. */
  answer: string;
}

export interface SenderDescription {
  /** The sender's name as people know it. */
  label: string;
  /** Examples of who sends this way (for a generic scheme). */
  examples?: string;
  /** What the person fills in. */
  settings: readonly SenderSetting[];
  /** Two or three lines: where to paste the URL, where each setting is found. */
  setup: string;
  /** What the receiver checks, over the exact raw bytes. */
  checks: string;
  /** What its deliveries are told apart by (src/domain/dedup.ts). */
  dedup: string;
  handshake: SenderHandshake | null;
  /**
   * How far its signed time may be from the moment the request arrived, in seconds, as its docs
   * say (5 minutes where they say nothing); null when it signs no time, so a capture verifies for ever.
   */
  toleranceSeconds: number | null;
  /**
   * For a sender whose notifications carry neither an id nor a signed time and may be legitimately
   * identical (Dropbox, Microsoft Graph): how long the same body is one delivery.
   */
  bodyWindowSeconds?: number;
  /** The body format its deliveries are in. */
  bodyFormat: BodyFormat;
  /**
   * It posts JSON, or the same as a form (`payload=<JSON>`) or form fields, as the person set it
   * up (GitHub's content type, Slack's interactivity and slash commands): a json app of it reads
   * both, told apart by the body itself (src/domain/form-bodies.ts, `jsonOrForm`).
   */
  formEnvelope?: true;
  /**
   * It gives its secret in its handshake (Asana, Notion): nothing to fill in; the secret is kept
   * sealed when it comes. `pasteBack`: the person must paste it back into the sender, so the app
   * shows it under this label.
   */
  secretFromHandshake?: { pasteBack?: string };
  /** What a refused request is answered (400 unless the sender requires another). */
  refusalStatus: 400 | 401;
  /**
   * It signs less than the body (Mailgun: its signature's timestamp and token): a key read from the
   * body (`body`, `jsonPath`) would let a capture with another body run again; only `auto` (its
   * signed id) is taken.
   */
  signsPartOfBody?: true;
  /** A sample delivery of its, for test deliveries and the card's example. */
  sample: { contentType: string; body: string };
}

/** A signing secret the person chooses or copies: at least 16 characters (MIN_SIGNING_SECRET_LENGTH). */
const secret = (label: string, extra: Partial<SenderSetting> = {}): SenderSetting => ({
  name: 'secret',
  label,
  secret: true,
  ...extra,
});

const FIVE_MINUTES = 300;
const json = (value: unknown) => ({ contentType: 'application/json', body: JSON.stringify(value) });
const form = (fields: Record<string, string>) => ({
  contentType: 'application/x-www-form-urlencoded',
  body: new URLSearchParams(fields).toString(),
});

export const SENDERS: { readonly [name in SenderName]: SenderDescription } = {
  'standard-webhooks': {
    label: 'Standard Webhooks / Svix',
    examples: 'Clerk, Resend, Brex, Svix-powered senders, OpenAI',
    settings: [
      secret('Signing secret (whsec_…)', {
        pattern: {
          source: '^(whsec_)?[A-Za-z0-9+/=]+$',
          message: 'a standard-webhooks secret: whsec_ followed by base64',
        },
      }),
    ],
    setup:
      "In the sender's webhook settings add an endpoint: paste the URL. " + 'Copy its signing secret (whsec_…) here.',
    checks:
      '`webhook-signature` (or `svix-signature`) over `id.timestamp.body`, HMAC-SHA256, with the `standardwebhooks` package; ' +
      'the `webhook-*` names are read, else `svix-*`',
    dedup: '`webhook-id` (or `svix-id`): signed',
    handshake: null,
    toleranceSeconds: FIVE_MINUTES,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ type: 'user.created', data: { id: 'user_1', email: 'ann@example.com' } }),
  },
  github: {
    label: 'GitHub',
    settings: [secret('Secret')],
    setup:
      'Repository (or organization) → Settings → Webhooks → Add webhook: paste the URL as Payload URL; ' +
      'either content type works. Choose a Secret and paste the same here.',
    checks:
      '`X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`; a form body (`payload=`) gives the same trigger data',
    dedup: "the body's digest (`X-GitHub-Delivery` is kept, not signed)",
    handshake: {
      method: 'POST',
      request: 'a `ping` event when the hook is made',
      answer: 'none needed: it runs as a delivery',
    },
    toleranceSeconds: null,
    bodyFormat: 'json',
    formEnvelope: true,
    refusalStatus: 400,
    sample: json({ zen: 'Keep it logically awesome.', hook_id: 1, repository: { full_name: 'octo/hello' } }),
  },
  shopify: {
    label: 'Shopify',
    settings: [secret('Client secret (or the webhook signing key)')],
    setup:
      'Settings → Notifications → Webhooks → Create webhook (JSON): paste the URL. ' +
      'The signing key is shown under the list; for an app, its client secret.',
    checks: '`X-Shopify-Hmac-Sha256: <base64 HMAC-SHA256 of the body>`',
    dedup: "the body's digest (`X-Shopify-Webhook-Id` is kept, not signed)",
    handshake: null,
    toleranceSeconds: null,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ id: 820982911946154500, email: 'ann@example.com', total_price: '19.99' }),
  },
  slack: {
    label: 'Slack',
    settings: [secret('Signing Secret')],
    setup:
      'api.slack.com/apps → your app → Event Subscriptions (or Interactivity, or Slash Commands): paste the ' +
      'URL as Request URL. Signing Secret: Basic Information → App Credentials.',
    checks:
      '`X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:timestamp:body">`; interactivity (form `payload=`) and ' +
      'slash commands (form fields) give objects',
    dedup: "the body's digest",
    handshake: {
      method: 'POST',
      request: 'signed `{"type":"url_verification","challenge":"…"}`',
      answer: '`200 text/plain` the challenge',
    },
    toleranceSeconds: FIVE_MINUTES,
    bodyFormat: 'json',
    formEnvelope: true,
    refusalStatus: 400,
    sample: json({ type: 'event_callback', event: { type: 'message', text: 'Hello from Ann', user: 'U1' } }),
  },
  twilio: {
    label: 'Twilio',
    settings: [secret('Auth Token', { minLength: 32 })],
    setup:
      'Console → Phone Numbers → your number → "A message comes in": paste the URL, HTTP POST. ' +
      'Auth Token: Console → Account info.',
    checks:
      '`X-Twilio-Signature`: base64 HMAC-SHA1 of the public URL (`BASE_URL` + path + query) and the sorted form ' +
      'params (HMAC-SHA256 where `X-Twilio-Webhooks-Signature-Settings` says so); a JSON body by its `bodySHA256` ' +
      'query param; the URL with and without its default port; at most 1,000 form fields',
    dedup:
      "the digest of its signed parameters (the same form reordered or re-spelled is one delivery); a JSON body's digest",
    handshake: null,
    toleranceSeconds: null,
    bodyFormat: 'form',
    refusalStatus: 400,
    sample: form({ MessageSid: 'SM1', From: '+15550100', To: '+15550199', Body: 'Hello from Ann' }),
  },
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
      'its first request, which is kept sealed; to take a new one, save the verification again.',
    checks: '`X-Hook-Signature: <hex HMAC-SHA256 of the body>` under the secret of the handshake',
    dedup: "the body's digest",
    handshake: {
      method: 'POST',
      request: '`X-Hook-Secret` header',
      answer:
        '`200` with the same `X-Hook-Secret`, the first time only (later ones `400`, until the verification is saved again)',
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
      'The verification token appears on this robot\'s card: paste it back into Notion\'s "Verify".',
    checks: '`X-Notion-Signature: sha256=<hex HMAC-SHA256 of the body>` under the verification token',
    dedup: "the event `id` (signed; Notion's retries change `attempt_number`)",
    handshake: {
      method: 'POST',
      request: '`{"verification_token":"…"}`',
      answer: '`200`; the token is kept sealed and shown on the card, to be pasted back',
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
  sendgrid: {
    label: 'SendGrid Event Webhook',
    settings: [
      {
        name: 'publicKey',
        label: 'Verification Key',
        secret: false,
        pattern: { source: '^[A-Za-z0-9+/=]{40,400}$', message: 'the base64 key the console shows' },
      },
    ],
    setup:
      'Settings → Mail Settings → Event Webhooks: paste the URL as Post URL, turn on Signed Event Webhook and ' +
      'copy its Verification Key here.',
    checks: 'ECDSA P-256 `X-Twilio-Email-Event-Webhook-Signature` over `X-Twilio-Email-Event-Webhook-Timestamp` + body',
    dedup: "the body's digest",
    handshake: null,
    toleranceSeconds: FIVE_MINUTES,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json([{ email: 'ann@example.com', event: 'delivered', sg_event_id: 'e1', timestamp: 1700000000 }]),
  },
  calendly: {
    label: 'Calendly',
    settings: [secret('Webhook signing key')],
    setup:
      'Create the webhook subscription (POST /webhook_subscriptions) with the URL and a signing_key; paste the ' +
      'same key here.',
    checks: '`Calendly-Webhook-Signature: t=…,v1=<hex HMAC-SHA256 of "t.body">`, t within 3 minutes',
    dedup: "the body's digest",
    handshake: null,
    toleranceSeconds: 180,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ event: 'invitee.created', payload: { email: 'ann@example.com', name: 'Ann' } }),
  },
  paddle: {
    label: 'Paddle',
    settings: [secret('Secret key (pdl_ntfset_…)')],
    setup: 'Paddle → Developer Tools → Notifications → New destination: paste the URL. Copy its secret key here.',
    checks: '`Paddle-Signature: ts=…;h1=<hex HMAC-SHA256 of "ts:body">`, ts within 5 seconds (as its SDK)',
    dedup: '`notification_id` (signed)',
    handshake: null,
    toleranceSeconds: 5,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ event_id: 'evt_1', event_type: 'transaction.completed', notification_id: 'ntf_1', data: {} }),
  },
  hubspot: {
    label: 'HubSpot',
    settings: [secret('Client secret')],
    setup:
      "developers.hubspot.com → your app → Webhooks: paste the URL as Target URL. Client secret: the app's " +
      'Auth tab.',
    checks:
      '`X-HubSpot-Signature-v3`: base64 HMAC-SHA256 of method + public URL + body + `X-HubSpot-Request-Timestamp`, ' +
      'within 5 minutes',
    dedup: "every event's `eventId` (signed)",
    handshake: null,
    toleranceSeconds: FIVE_MINUTES,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json([{ eventId: 1, subscriptionType: 'contact.creation', objectId: 123, portalId: 1 }]),
  },
  square: {
    label: 'Square',
    settings: [secret('Signature key')],
    setup:
      'developer.squareup.com → your app → Webhooks → Add subscription: paste the URL. Copy its Signature key here.',
    checks: '`x-square-hmacsha256-signature`: base64 HMAC-SHA256 of the public URL + body',
    dedup: '`event_id` (signed)',
    handshake: null,
    toleranceSeconds: null,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ merchant_id: 'M1', type: 'payment.created', event_id: 'e1', data: { type: 'payment' } }),
  },
  gitlab: {
    label: 'GitLab',
    settings: [secret('Secret token')],
    setup: 'Project → Settings → Webhooks → Add new webhook: paste the URL and the same Secret token as here.',
    checks: '`X-Gitlab-Token` equals the secret (constant time)',
    dedup: '`Idempotency-Key`, else `X-Gitlab-Event-UUID` (the credential is a static token)',
    handshake: null,
    toleranceSeconds: null,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ object_kind: 'push', ref: 'refs/heads/main', project: { path_with_namespace: 'ann/hello' } }),
  },
  mailgun: {
    label: 'Mailgun',
    settings: [secret('HTTP webhook signing key')],
    setup: 'Sending → Webhooks → Add webhook: paste the URL. HTTP webhook signing key: the same page.',
    checks: "the body's `signature` object: hex HMAC-SHA256 of timestamp + token, the timestamp within 5 minutes",
    dedup: "the signature's `token` (signed; an app of it keeps `auto`)",
    signsPartOfBody: true,
    handshake: null,
    toleranceSeconds: FIVE_MINUTES,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({
      signature: { timestamp: '1700000000', token: 'sample', signature: '0' },
      'event-data': { event: 'delivered', recipient: 'ann@example.com' },
    }),
  },
  'header-token': {
    label: 'A fixed header',
    examples: "n8n's Header Auth, Convoy's API-key verifier, in-house senders",
    settings: [{ name: 'header', label: 'Header name', secret: false }, secret('Header value')],
    setup: 'In the sender, add the header with the value you give here.',
    checks: 'the header equals the value (constant time)',
    dedup: "`Idempotency-Key`, else `webhook-id`, else the body's digest (the credential is a static token)",
    handshake: null,
    toleranceSeconds: null,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ name: 'Ann', customer: { email: 'ann@example.com' } }),
  },
  basic: {
    label: 'HTTP Basic credentials',
    examples: 'senders that only take https://user:pass@… URLs',
    settings: [{ name: 'username', label: 'User name', secret: false }, secret('Password')],
    setup: 'Give the sender the URL with the credentials in it: https://user:password@host/api/webhooks/…',
    checks: '`Authorization: Basic` with the user name and password (constant time)',
    dedup: "`Idempotency-Key`, else `webhook-id`, else the body's digest (the credential is a static token)",
    handshake: null,
    toleranceSeconds: null,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ name: 'Ann', customer: { email: 'ann@example.com' } }),
  },
  hmac: {
    label: 'Any HMAC header',
    examples: 'senders that sign the body with HMAC in one header',
    settings: [
      secret('Signing secret'),
      { name: 'header', label: 'Signature header', secret: false },
      { name: 'algorithm', label: 'Algorithm', secret: false, choices: HMAC_ALGORITHMS },
      { name: 'encoding', label: 'Encoding', secret: false, choices: SIGNATURE_ENCODINGS },
      { name: 'prefix', label: 'Prefix before the digest (e.g. sha256=)', secret: false, optional: true },
    ],
    setup: 'Paste the URL where the sender asks for it, and its signing secret here; name its header and format.',
    checks: '`<header>: <prefix><HMAC of the body>`',
    dedup: "the body's digest",
    handshake: null,
    toleranceSeconds: null,
    bodyFormat: 'json',
    refusalStatus: 400,
    sample: json({ name: 'Ann', customer: { email: 'ann@example.com' } }),
  },
};

/** Whether a json app of this sender reads form bodies too (`formEnvelope`). */
export const readsFormEnvelope = (format: BodyFormat, sender: SenderName | null): boolean =>
  format === 'json' && sender !== null && SENDERS[sender].formEnvelope === true;

/** Whether a sender's signature carries a time: a capture verifies only within its tolerance. */
export const signsTime = (name: SenderName): boolean => SENDERS[name].toleranceSeconds !== null;
