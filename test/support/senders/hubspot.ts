/**
 * HubSpot as the tests play it: deliveries are signed by HubSpot's own library
 * (`@hubspot/api-client`'s `Signature.getSignature`, signature v3: base64 HMAC-SHA256 of method +
 * URI + body + timestamp in milliseconds, under the app's client secret). HubSpot signs the URI
 * with certain percent-encoded characters decoded (its docs list them); `hubspotSigned` signs a
 * URI as given.
 */
import { Signature } from '@hubspot/api-client';
import { SENDERS } from '../../../src/domain/senders/catalog';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// A client secret is a UUID.
const clientSecret = madeSecret('00000000-hubspot-client-secret', 36);
const otherSecret = madeSecret('00000000-hubspot-other-secret', 36);

const body = JSON.stringify(
  [
    { eventId: 101, subscriptionId: 1, portalId: 62515, appId: 54321, occurredAt: 1767268800000, attemptNumber: 0 },
    { eventId: 100, subscriptionId: 1, portalId: 62515, appId: 54321, occurredAt: 1767268800000, attemptNumber: 0 },
  ].map((event) => ({ ...event, subscriptionType: 'contact.creation', objectId: 123, changeSource: 'CRM' })),
);

/** The v3 signature HubSpot's library makes of a request. */
export const hubspotSignature = (secret: string, method: string, uri: string, body: string, timestampMs: number) =>
  Signature.getSignature(method, 'v3', {
    clientSecret: secret,
    requestBody: body,
    url: uri,
    timestamp: timestampMs,
    signature: '',
  });

/**
 * A delivery signed with `secret` for the URI `signedUri` (as HubSpot signs it), sent with `query`
 * appended to the webhook URL (as HubSpot sends it).
 */
export function hubspotSigned(secret: string, body: string, signedUri: string, at: Date, query = ''): SentRequest {
  const timestampMs = at.getTime();
  return {
    method: 'POST',
    query,
    headers: {
      'Content-Type': 'application/json',
      'X-HubSpot-Signature-v3': hubspotSignature(secret, 'POST', signedUri, body, timestampMs),
      'X-HubSpot-Request-Timestamp': String(timestampMs),
    },
    body,
  };
}

export const hubspotSender: SenderFixture = {
  name: 'hubspot',
  verification: { scheme: 'hubspot', secret: clientSecret },
  body,
  triggerData: JSON.parse(body),
  signed: (body, url, at) => hubspotSigned(clientSecret, body, url, at),
  signedWrongly: (body, url, at) => hubspotSigned(otherSecret, body, url, at),
  toleranceSeconds: SENDERS.hubspot.toleranceSeconds,
};
