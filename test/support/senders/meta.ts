/**
 * Meta (WhatsApp Cloud API) as the tests play it, by its published algorithm (Meta has no Node
 * library that signs): `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body under the App
 * Secret>`; the handshake is the verification GET with `hub.mode=subscribe`, the verify token and a
 * challenge (the docs' example challenge), which Meta checks is answered with the challenge alone.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

const appSecret = madeSecret('meta-app-secret', 32);
const otherSecret = madeSecret('meta-other-secret', 32);
export const metaVerifyToken = madeSecret('meta-verify-token', 24);
/** The docs' example challenge. */
export const metaChallenge = '1158201444';

const event = {
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '100000000000001',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550100', phone_number_id: '100000000000002' },
            contacts: [{ profile: { name: 'Ann' }, wa_id: '15550199' }],
            messages: [
              {
                from: '15550199',
                id: 'wamid.sample1',
                timestamp: '1700000000',
                type: 'text',
                text: { body: 'Hé Ann ✓' },
              },
            ],
          },
        },
      ],
    },
  ],
};

const signedWith = (secret: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'X-Hub-Signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
  },
  body,
});

/** The verification GET's query, with the given verify token. */
export function metaVerification(verifyToken: string, challenge = metaChallenge): SentRequest {
  const query = new URLSearchParams({
    'hub.mode': 'subscribe',
    'hub.challenge': challenge,
    'hub.verify_token': verifyToken,
  });
  return { method: 'GET', query: `?${query.toString()}`, headers: {}, body: '' };
}

export const metaSender: SenderFixture = {
  name: 'meta',
  verification: { scheme: 'meta', secret: appSecret, verifyToken: metaVerifyToken },
  body: JSON.stringify(event),
  triggerData: event,
  signed: (body) => signedWith(appSecret, body),
  signedWrongly: (body) => signedWith(otherSecret, body),
  toleranceSeconds: null,
  handshake: {
    request: () => metaVerification(metaVerifyToken),
    // Meta takes the answer to be the challenge it sent, with a 200.
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`Meta expects 200, got ${answer.status}`);
      if (answer.body !== metaChallenge)
        throw new Error(`Meta expects the challenge, got ${JSON.stringify(answer.body)}`);
    },
  },
};
