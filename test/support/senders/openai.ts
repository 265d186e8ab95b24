/**
 * OpenAI as the tests play it: Standard Webhooks headers `webhook-id`, `webhook-timestamp` (unix seconds)
 * and `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the
 * base64-decoded part of the endpoint's `whsec_…` signing secret. OpenAI's SDK (`openai`,
 * `webhooks.unwrap`/`verifySignature`, not installed here) checks exactly that, 300 s either way, and
 * takes a secret without `whsec_` as raw text. Signed and verified here with the `standardwebhooks`
 * library. `webhook-id` is the same on OpenAI's retries. No handshake.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { SenderFixture, SentRequest } from './fixture';

// A signing secret as the OpenAI dashboard shows it once: `whsec_` and base64.
const secret = 'whsec_' + Buffer.from('openai-made-up-signing-key-bytes').toString('base64');
const otherSecret = 'whsec_' + Buffer.from('openai-another-signing-key-bytes').toString('base64');

const event = {
  id: 'evt_685343a1381c819085d44c354e1b330e',
  object: 'event',
  created_at: 1767268800,
  type: 'response.completed',
  data: { id: 'resp_abc123' },
};
const body = JSON.stringify(event);

function sign(secret: string, body: string, at: Date): SentRequest {
  const id = `wh_${randomUUID().replace(/-/g, '')}`;
  return {
    method: 'POST',
    query: '',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, body),
    },
    body,
  };
}

export const openaiSender: SenderFixture = {
  name: 'openai',
  verification: { scheme: 'openai', secret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(secret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: 300,
  sdkAccepts(sent) {
    new Webhook(secret).verify(String(sent.body), sent.headers);
  },
};
