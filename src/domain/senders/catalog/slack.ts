/** Slack: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const slack: Sender = {
  label: 'Slack',
  group: 'messaging',
  settings: [secret('Signing Secret')],
  setup:
    'api.slack.com/apps → your app → Event Subscriptions (or Interactivity, or Slash Commands): paste the ' +
    'URL as Request URL. Signing Secret: Basic Information → App Credentials.',
  signature: {
    family: 'hmac',
    header: 'X-Slack-Signature',
    prefix: 'v0=',
    encoding: 'hex',
    content: 'v0:{time}:{body}',
    time: { header: 'X-Slack-Request-Timestamp', unit: 's' },
  },
  checks:
    '`X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:timestamp:body">`; interactivity (form `payload=`) and ' +
    'slash commands (form fields) give objects',
  deliveryId: null,
  dedup: "the body's digest",
  redelivery:
    'retried up to 3 times (at once, then after about 1 and 5 minutes), `X-Slack-Retry-Num` counting; ' +
    '`X-Slack-No-Retry: 1` stops it [unconfirmed]',
  handshake: {
    kind: 'echo-json',
    field: 'challenge',
    when: { field: 'type', value: 'url_verification' },
    echo: 'text',
    signed: true,
    method: 'POST',
    request: 'signed `{"type":"url_verification","challenge":"…"}`',
    answer: '`200 text/plain` the challenge',
  },
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  formEnvelope: true,
  refusalStatus: 400,
  sample: json({ type: 'event_callback', event: { type: 'message', text: 'Hello from Ann', user: 'U1' } }),
};
