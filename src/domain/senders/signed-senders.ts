/**
 * The catalog's senders that sign each delivery and send it without checking the URL first (their
 * entries; the catalog, ./catalog.ts, gathers them with the handshake senders).
 */
import type { SenderDescription, SenderName } from './entry';
import { FIVE_MINUTES, HMAC_ALGORITHMS, SIGNATURE_ENCODINGS, form, json, secret } from './entry';

export const SIGNED_SENDERS: { readonly [name in SignedSenderName]: SenderDescription } = {
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

/** The senders of this file. */
export type SignedSenderName = Extract<
  SenderName,
  | 'standard-webhooks'
  | 'github'
  | 'shopify'
  | 'slack'
  | 'twilio'
  | 'sendgrid'
  | 'calendly'
  | 'paddle'
  | 'hubspot'
  | 'square'
  | 'gitlab'
  | 'mailgun'
  | 'header-token'
  | 'basic'
  | 'hmac'
>;
