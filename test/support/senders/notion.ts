/**
 * Notion as the tests play it: when the subscription is made, Notion POSTs a body whose only field
 * is `verification_token` and needs a `200`; the person pastes the token back into Notion's Verify.
 * Its events then carry `X-Notion-Signature: sha256=<hex HMAC-SHA256 of the body>` keyed by that
 * token, and a retry the same event `id` with a higher `attempt_number`. The app has no secret
 * until the handshake: `signed` uses the token it gives. No library: Notion's SDK does not sign or
 * check webhooks; the algorithm is its published one.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

/** The token Notion gives in the handshake (its own start `secret_`). */
export const notionVerificationToken = 'secret_' + madeSecret('notion-verification-token', 43);
const otherToken = 'secret_' + madeSecret('notion-other-token', 43);

/** A Notion event, as retry `attempt` sends it. */
export const notionEvent = (attempt = 1) =>
  JSON.stringify({
    id: '5c1f3e2a-7b4d-4c6e-8f90-a1b2c3d4e5f6',
    timestamp: '2026-01-01T12:00:00.000Z',
    workspace_id: '1e2d3c4b-0000-4000-8000-000000000001',
    workspace_name: "Ann's workspace",
    subscription_id: '1e2d3c4b-0000-4000-8000-000000000002',
    integration_id: '1e2d3c4b-0000-4000-8000-000000000003',
    authors: [{ id: '1e2d3c4b-0000-4000-8000-000000000004', type: 'person' }],
    attempt_number: attempt,
    type: 'page.created',
    entity: { id: '1e2d3c4b-0000-4000-8000-000000000005', type: 'page' },
    data: { parent: { id: '1e2d3c4b-0000-4000-8000-000000000006', type: 'space' } },
  });

const body = notionEvent();

export const notionSignature = (token: string, body: string | Buffer) =>
  'sha256=' + createHmac('sha256', token).update(body).digest('hex');

const sign = (token: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'X-Notion-Signature': notionSignature(token, body) },
  body,
});

/** Notion's verification request, giving `token`. */
export const notionHandshake = (token = notionVerificationToken): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ verification_token: token }),
});

export const notionSender: SenderFixture = {
  name: 'notion',
  verification: { scheme: 'notion' },
  body,
  triggerData: JSON.parse(body),
  signed: (body) => sign(notionVerificationToken, body),
  signedWrongly: (body) => sign(otherToken, body),
  toleranceSeconds: null,
  handshake: {
    request: () => notionHandshake(),
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`Notion needs a 200, got ${answer.status}`);
    },
  },
};
