/**
 * Persona as the tests play it. Persona publishes no library that signs or verifies; deliveries are
 * signed by its documented algorithm (Webhook Best Practices, "Checking signatures"):
 * `Persona-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<body>">` under the webhook secret taken as
 * text. While a secret rotates the header holds two such `t=…,v1=…` sets separated by a space. The docs
 * read name no time window, so the receiver's 5 minutes apply. The event's `data.id` (`evt_…`, signed)
 * names it; Persona says an event may arrive more than once. No handshake.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const webhookSecret = 'wbhsec_' + madeSecret('persona-webhook-secret', 36);
const otherSecret = 'wbhsec_' + madeSecret('persona-other-secret', 36);

const event = {
  data: {
    type: 'event',
    id: 'evt_XGuYWp7WuDzNxie5z16s7sGJ',
    attributes: {
      name: 'inquiry.approved',
      payload: {
        data: {
          type: 'inquiry',
          id: 'inq_2CVZ4HyVg7qaboXz2PUHknAn',
          attributes: {
            status: 'approved',
            'reference-id': null,
            'created-at': '2026-01-01T11:50:00.000Z',
            'completed-at': '2026-01-01T11:55:00.000Z',
          },
        },
      },
      'created-at': '2026-01-01T12:00:00.000Z',
    },
  },
};
const body = JSON.stringify(event);

/** One `t=…,v1=…` set for `body` under `secret` at `seconds`. */
export const personaSignature = (secret: string, body: string | Buffer, seconds: number) =>
  `t=${seconds},v1=${createHmac('sha256', secret).update(`${seconds}.`).update(body).digest('hex')}`;

const sign = (secrets: string[], body: string, at: Date): SentRequest => {
  const seconds = Math.floor(at.getTime() / 1000);
  return {
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json',
      'Persona-Signature': secrets.map((secret) => personaSignature(secret, body, seconds)).join(' '),
    },
    body,
  };
};

export const personaSender: SenderFixture = {
  name: 'persona',
  verification: { scheme: 'persona', secret: webhookSecret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign([webhookSecret], body, at),
  signedWrongly: (body, _url, at) => sign([otherSecret], body, at),
  toleranceSeconds: 300,
};

/** While the secret rotates: two space-separated sets, the app's secret second. */
export const personaRotatingSender: SenderFixture = {
  ...personaSender,
  variant: 'rotating secret (two sets)',
  signed: (body, _url, at) => sign([otherSecret, webhookSecret], body, at),
};
