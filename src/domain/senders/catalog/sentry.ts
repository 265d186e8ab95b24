/** Sentry: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const sentry: Sender = {
  label: 'Sentry',
  group: 'dev-tools',
  settings: [secret('Client Secret', { pattern: { source: '^[0-9a-fA-F]{64}$', message: '64 hex characters' } })],
  setup:
    'Sentry → Settings → Developer Settings → Custom Integrations → Create New Integration (Internal): paste ' +
    'the URL as Webhook URL, tick the resources (and Alert Rule Action for alerts), Save. Copy its Client ' +
    'Secret (Credentials) here.',
  signature: { family: 'hmac', header: 'Sentry-Hook-Signature', encoding: 'hex', content: '{body}' },
  checks:
    '`Sentry-Hook-Signature: <hex HMAC-SHA256 of the body>` under the Client Secret as text; ' +
    '`Sentry-Hook-Timestamp` is not signed, so no time is checked',
  deliveryId: null,
  dedup: "the body's digest (`Request-ID` is kept, not signed)",
  redelivery: 'no retry documented for integration webhooks [unconfirmed]',
  keeps: ['sentry-hook-resource', 'sentry-hook-timestamp', 'request-id'],
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    action: 'created',
    installation: { uuid: '7a485448-a9e2-4c85-8a3c-4f44175783c9' },
    data: { issue: { id: '1170820242', shortId: 'ROBOT-42', title: 'TypeError in run', level: 'error' } },
    actor: { type: 'application', id: 'sentry', name: 'Sentry' },
  }),
};
