/**
 * Jira Cloud (admin webhooks) as the tests play it. Atlassian publishes no library that signs Jira's
 * webhooks: deliveries are signed as its "Secure admin webhooks" documentation describes (the WebSub
 * `method=signature` form), `X-Hub-Signature: sha256=<hex HMAC-SHA256 of the body>`, keyed with the
 * webhook's Secret (typed or generated in System → WebHooks) as text. No signed time, no handshake.
 * `X-Atlassian-Webhook-Identifier` names the delivery and stays the same on Jira's retries (not signed).
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// Jira's "Generate secret" gives a random string of letters and digits; a person may type their own.
const secret = madeSecret('jira-admin-webhook-secret', 40);
const otherSecret = madeSecret('jira-other-webhook-secret', 40);

const event = {
  timestamp: 1767268800000,
  webhookEvent: 'jira:issue_created',
  issue_event_type_name: 'issue_created',
  user: { accountId: '5b10ac8d82e05b22cc7d4ef5', displayName: 'Ann', active: true },
  issue: {
    id: '10042',
    self: 'https://example.atlassian.net/rest/api/2/issue/10042',
    key: 'ENG-42',
    fields: {
      summary: 'Ship it',
      issuetype: { id: '10001', name: 'Task' },
      project: { id: '10000', key: 'ENG', name: 'Engineering' },
      status: { id: '10000', name: 'To Do' },
      priority: { id: '3', name: 'Medium' },
      created: '2026-01-01T12:00:00.000+0000',
    },
  },
};
const body = JSON.stringify(event);

/** The `X-Hub-Signature` of `body` under `key`. */
export const jiraSignature = (key: string, body: string | Buffer) =>
  `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json; charset=utf-8',
    'User-Agent': 'Atlassian Webhook HTTP Client',
    'X-Atlassian-Webhook-Identifier': '7c2d2b0a-0000-4000-8000-000000000042',
    'X-Atlassian-Webhook-Flow': 'Primary',
    'X-Hub-Signature': jiraSignature(key, body),
  },
  body,
});

export const jiraSender: SenderFixture = {
  name: 'jira',
  verification: { scheme: 'jira', secret },
  body,
  triggerData: event,
  signed: (body) => sign(secret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
