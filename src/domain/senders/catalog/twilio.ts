/** Twilio: its check's parameters (../families/) and what a person sees. */
import { form, secret, type Sender } from './sender';

export const twilio: Sender = {
  label: 'Twilio',
  group: 'messaging',
  settings: [secret('Auth Token', { minLength: 32 })],
  setup:
    'Console → Phone Numbers → your number → "A message comes in": paste the URL, HTTP POST. ' +
    'Auth Token: Console → Account info.',
  signature: { family: 'twilio' },
  checks:
    '`X-Twilio-Signature`: base64 HMAC-SHA1 of the public URL (`BASE_URL` + path + query) and the sorted form ' +
    'params (HMAC-SHA256 where `X-Twilio-Webhooks-Signature-Settings` says so); a JSON body by its `bodySHA256` ' +
    'query param; the URL with and without its default port; at most 1,000 form fields',
  deliveryId: 'own',
  dedup:
    "the digest of its signed parameters (the same form reordered or re-spelled is one delivery); a JSON body's digest",
  redelivery:
    'by default one retry when the connection fails (`#rc=`, `#rp=` on the URL change it), then the fallback ' +
    'URL where one is set',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'form',
  refusalStatus: 400,
  sample: form({ MessageSid: 'SM1', From: '+15550100', To: '+15550199', Body: 'Hello from Ann' }),
};
