/**
 * Telnyx as the tests play it. Telnyx's library (`telnyx`, `TelnyxWebhook.verify` behind
 * `client.webhooks.unwrap`) only verifies, so deliveries are signed by the algorithm it checks:
 * `telnyx-signature-ed25519: <base64 Ed25519 signature of "<telnyx-timestamp>|<body>">`, with
 * `telnyx-timestamp` in unix seconds, refused by the library when more than 300 s off either way. The key
 * a person pastes is the account's public key from the portal, the base64 of its 32 raw bytes. The event's
 * `data.id` (signed) is the same on Telnyx's retries, while `meta.attempt` grows. No handshake.
 */
import { generateKeyPairSync, sign as ed25519Sign, type KeyObject } from 'node:crypto';
import { TelnyxWebhook } from 'telnyx/lib/webhooks';
import type { SenderFixture, SentRequest } from './fixture';

const pair = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');

/** The base64 of an Ed25519 public key's 32 raw bytes, as Telnyx's portal shows it. */
export const telnyxPublicKey = (key: KeyObject) =>
  Buffer.from(String(key.export({ format: 'jwk' }).x), 'base64url').toString('base64');

const publicKey = telnyxPublicKey(pair.publicKey);

const event = {
  data: {
    event_type: 'message.received',
    id: 'b301ed3f-1490-491f-995f-6e64e69674d4',
    occurred_at: '2026-01-01T12:00:00.000+00:00',
    payload: {
      id: '84cca175-9755-4859-b67f-4730d7f58aa3',
      direction: 'inbound',
      from: { phone_number: '+13125550001', carrier: 'Made Up Wireless', line_type: 'Wireless' },
      to: [{ phone_number: '+13125550002', status: 'webhook_delivered' }],
      text: 'Hello',
      type: 'SMS',
      record_type: 'message',
    },
    record_type: 'event',
  },
  meta: { attempt: 1, delivered_to: 'https://example.com/webhooks' },
};
const body = JSON.stringify(event);

function sign(privateKey: KeyObject, body: string, at: Date): SentRequest {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = ed25519Sign(null, Buffer.from(`${timestamp}|${body}`), privateKey).toString('base64');
  return {
    method: 'POST',
    query: '',
    headers: {
      'content-type': 'application/json',
      'telnyx-signature-ed25519': signature,
      'telnyx-timestamp': timestamp,
    },
    body,
  };
}

export const telnyxSender: SenderFixture = {
  name: 'telnyx',
  verification: { scheme: 'telnyx', publicKey },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(pair.privateKey, body, at),
  signedWrongly: (body, _url, at) => sign(other.privateKey, body, at),
  toleranceSeconds: 300,
  async sdkAccepts(sent) {
    await new TelnyxWebhook(publicKey).verify(String(sent.body), sent.headers);
  },
};
