/**
 * OpenAI as the tests play it: Standard Webhooks headers `webhook-id`, `webhook-timestamp` (unix seconds)
 * and `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the
 * base64-decoded part of the endpoint's `whsec_…` signing secret. OpenAI's SDK (`openai`,
 * `webhooks.unwrap`/`verifySignature`, not installed here) checks exactly that, 300 s either way, and
 * takes a secret without `whsec_` as raw text. Signed and verified here with the `standardwebhooks`
 * library. `webhook-id` is the same on OpenAI's retries. No handshake.
 */
import { standardWebhooksFixture } from './standard-webhooks';

const event = {
  id: 'evt_685343a1381c819085d44c354e1b330e',
  object: 'event',
  created_at: 1767268800,
  type: 'response.completed',
  data: { id: 'resp_abc123' },
};
export const openaiSender = standardWebhooksFixture({
  name: 'openai',
  event,
  names: 'webhook',
  idPrefix: 'wh_',
  keyText: 'openai-made-up-signing-key-bytes',
});
