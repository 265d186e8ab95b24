/**
 * DocuSign Connect (JSON, HMAC on) as the tests play it. DocuSign's libraries do not verify Connect
 * messages; deliveries are signed by its documented algorithm ("How to validate an HMAC signature"):
 * one header per active Connect key, `X-DocuSign-Signature-1`, `-2`, … (up to 100), each the base64
 * HMAC-SHA256 of the whole body under that key taken as text; `X-Authorization-Digest: HMACSHA256`.
 * One matching header is enough. Nothing carries a signed time. Here the account has two keys, the
 * settings' `secret` and `secondarySecret`. No handshake.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// Connect keys as Admin > Connect > Connect Keys shows them once: 44 base64-looking characters.
const firstKey = madeSecret('docusign-connect-key-one', 44);
const secondKey = madeSecret('docusign-connect-key-two', 44);
const otherKeys = [madeSecret('docusign-other-key-one', 44), madeSecret('docusign-other-key-two', 44)];

const event = {
  event: 'envelope-completed',
  apiVersion: 'v2.1',
  uri: '/restapi/v2.1/accounts/8c1d0000-0000-4000-8000-000000000001/envelopes/5b3e0000-0000-4000-8000-000000000002',
  retryCount: 0,
  configurationId: 10000001,
  generatedDateTime: '2026-01-01T12:00:00.0000000Z',
  data: {
    accountId: '8c1d0000-0000-4000-8000-000000000001',
    userId: '2f7a0000-0000-4000-8000-000000000003',
    envelopeId: '5b3e0000-0000-4000-8000-000000000002',
  },
};
const body = JSON.stringify(event);

/** One `X-DocuSign-Signature-N` value for `body` under `key`. */
export const docusignSignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('base64');

function sign(keys: string[], body: string): SentRequest {
  const signatures = Object.fromEntries(
    keys.map((key, i) => [`X-DocuSign-Signature-${i + 1}`, docusignSignature(key, body)]),
  );
  return {
    method: 'POST',
    query: '',
    headers: { 'Content-Type': 'application/json', 'X-Authorization-Digest': 'HMACSHA256', ...signatures },
    body,
  };
}

export const docusignSender: SenderFixture = {
  name: 'docusign',
  verification: { scheme: 'docusign', secret: firstKey, secondarySecret: secondKey },
  body,
  triggerData: event,
  signed: (body) => sign([firstKey, secondKey], body),
  signedWrongly: (body) => sign(otherKeys, body),
  toleranceSeconds: null,
};
