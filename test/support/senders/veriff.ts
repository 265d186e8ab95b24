/**
 * Veriff as the tests play it. Veriff publishes no server library that verifies (its own demo,
 * Veriff/js-integration-demo server.ts, shows the check): `X-HMAC-SIGNATURE` is the hex HMAC-SHA256 of
 * the body, keyed with the integration's shared secret key as text; `X-AUTH-CLIENT` carries the
 * integration's API key (public, not a credential). No signed time, no handshake. The body is a decision
 * webhook; `verification.id` is the session's id, `verification.attemptId` the attempt's.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const apiKey = '3f0f4e3c-4b2a-4c8e-9d1f-0a1b2c3d4e5f';
const sharedSecretKey = madeSecret('veriff-shared-secret-key', 36);
const otherSecretKey = madeSecret('veriff-other-secret-key', 36);

const decision = {
  status: 'success',
  verification: {
    id: '12df6045-3846-3e45-946a-14fa6136d78b',
    attemptId: '00bca969-b53a-4fad-b065-e3fa9ed3d5a1',
    code: 9001,
    status: 'approved',
    reason: null,
    reasonCode: null,
    vendorData: 'customer-1234',
    decisionTime: '2026-01-01T12:00:00.000Z',
    acceptanceTime: '2026-01-01T11:58:00.000Z',
    person: { firstName: 'ANN', lastName: 'LEE', dateOfBirth: '1990-01-01', nationality: 'EE' },
    document: { number: 'B01234567', type: 'ID_CARD', country: 'EE', validUntil: '2030-01-01' },
    comments: [],
    additionalVerifiedData: {},
  },
  technicalData: { ip: '203.0.113.7' },
};
const body = JSON.stringify(decision);

/** The `X-HMAC-SIGNATURE` of `body` under `key`. */
export const veriffSignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('hex');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'X-AUTH-CLIENT': apiKey,
    'X-HMAC-SIGNATURE': veriffSignature(key, body),
  },
  body,
});

export const veriffSender: SenderFixture = {
  name: 'veriff',
  verification: { scheme: 'veriff', secret: sharedSecretKey },
  body,
  triggerData: decision,
  signed: (body) => sign(sharedSecretKey, body),
  signedWrongly: (body) => sign(otherSecretKey, body),
  toleranceSeconds: null,
};
