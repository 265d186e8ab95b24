/** X (Twitter) Account Activity: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const x: Sender = {
  label: 'X (Twitter) Account Activity',
  group: 'messaging',
  settings: [secret('API Key Secret (Consumer Secret)')],
  setup:
    'Register the webhook (POST /2/webhooks) with the URL, then subscribe the accounts. API Key Secret: ' +
    'developer.x.com → Projects & Apps → your app → Keys and tokens.',
  signature: {
    family: 'hmac',
    header: 'x-twitter-webhooks-signature',
    prefix: 'sha256=',
    encoding: 'base64',
    content: '{body}',
  },
  checks:
    '`x-twitter-webhooks-signature: sha256=<base64 HMAC-SHA256 of the body>` under the API Key Secret; its CRC ' +
    "(`GET ?crc_token=…`) is answered with the token's HMAC",
  deliveryId: null,
  dedup: "the body's digest (a body may batch several events)",
  redelivery: 'retried on a failure [unconfirmed]; missed events can be replayed up to 24 hours back',
  handshake: {
    kind: 'crc',
    param: 'crc_token',
    answerField: 'response_token',
    prefix: 'sha256=',
    method: 'GET',
    request: '`GET ?crc_token=…` at registration, on an update and periodically after',
    answer: '`200` JSON `{"response_token":"sha256=<base64 HMAC-SHA256 of crc_token>"}`',
  },
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    for_user_id: '2244994945',
    tweet_create_events: [
      {
        id_str: '1874000000000000001',
        text: '@XDevelopers hello from the robot',
        user: { id_str: '3001', name: 'Ann', screen_name: 'ann' },
      },
    ],
  }),
};
