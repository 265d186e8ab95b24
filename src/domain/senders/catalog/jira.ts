/** Jira: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const jira: Sender = {
  label: 'Jira Cloud',
  group: 'productivity',
  settings: [secret('Secret')],
  setup:
    'Jira → Settings (gear) → System → WebHooks → Create a WebHook: paste the URL, pick the events (and JQL), ' +
    'Generate secret (or type one) and paste it here, then Create. Only admin webhooks with a secret are signed.',
  signature: { family: 'hmac', header: 'X-Hub-Signature', prefix: 'sha256=', encoding: 'hex', content: '{body}' },
  checks: '`X-Hub-Signature: sha256=<hex HMAC-SHA256 of the body>` under the Secret as text',
  deliveryId: null,
  dedup: "the body's digest (`X-Atlassian-Webhook-Identifier` stays the same on retries but is not signed; kept)",
  redelivery:
    'retried up to 5 times with back-off on 408, 409, 425, 429, 5xx or a timeout, the same identifier and ' +
    'body, `X-Atlassian-Webhook-Retry` counting [unconfirmed]',
  keeps: ['x-atlassian-webhook-identifier', 'x-atlassian-webhook-retry', 'x-atlassian-webhook-flow'],
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    timestamp: 1767268800000,
    webhookEvent: 'jira:issue_created',
    issue_event_type_name: 'issue_created',
    user: { accountId: '5b10ac8d82e05b22cc7d4ef5', displayName: 'Ann' },
    issue: { id: '10042', key: 'ENG-42', fields: { summary: 'Ship it', status: { name: 'To Do' } } },
  }),
};
