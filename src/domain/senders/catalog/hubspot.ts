/** HubSpot: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const hubspot: Sender = {
  label: 'HubSpot',
  group: 'crm',
  settings: [secret('Client secret')],
  setup:
    "developers.hubspot.com → your app → Webhooks: paste the URL as Target URL. Client secret: the app's " +
    'Auth tab.',
  signature: { family: 'hubspot' },
  checks:
    '`X-HubSpot-Signature-v3`: base64 HMAC-SHA256 of method + public URL + body + `X-HubSpot-Request-Timestamp`, ' +
    'within 5 minutes',
  deliveryId: 'own',
  dedup: "the batch's events without `attemptNumber` (signed; HubSpot's `eventId` is not unique)",
  redelivery:
    'a failed batch is resent up to 10 times, waits doubling from 2 minutes, `attemptNumber` raised; ' +
    '400/401/403/404/405 are not retried',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json([{ eventId: 1, subscriptionType: 'contact.creation', objectId: 123, portalId: 1 }]),
};
