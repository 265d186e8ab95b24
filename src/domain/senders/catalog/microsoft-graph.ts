/** Microsoft Graph: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const microsoftGraph: Sender = {
  label: 'Microsoft Graph',
  group: 'productivity',
  settings: [secret('clientState (one you choose)')],
  setup:
    'Create the subscription (POST /subscriptions) with the URL as notificationUrl and the same clientState as ' +
    'here. A batch (`value: […]`) is one delivery: read `{{trigger.value}}`.',
  signature: { family: 'microsoft-graph' },
  checks: "every notification's `clientState` equals the secret",
  deliveryId: null,
  dedup: "the body's digest for 60 s (notifications have no id; the same change twice is one run within a minute)",
  redelivery:
    'no 2xx within 3 seconds: retried with exponential back-off for up to 4 hours; a slow endpoint is ' +
    'delayed, then dropped',
  handshake: {
    kind: 'own',
    method: 'POST',
    request: '`POST ?validationToken=…`, empty body',
    answer: '`200 text/plain` the token',
  },
  toleranceSeconds: null,
  bodyWindowSeconds: 60,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ value: [{ changeType: 'created', resource: 'me/messages/1', clientState: 'sample' }] }),
};
