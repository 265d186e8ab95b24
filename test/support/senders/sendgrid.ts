/**
 * SendGrid's Signed Event Webhook as the tests play it: its own key pair (ECDSA P-256, made at run
 * time with node:crypto); the Verification Key is the public key's SPKI DER in base64, as the
 * console shows it. Each POST carries `X-Twilio-Email-Event-Webhook-Timestamp` (unix seconds) and
 * `X-Twilio-Email-Event-Webhook-Signature`, the base64 DER ECDSA signature (SHA-256) of timestamp +
 * body. `@sendgrid/eventwebhook` only verifies (EventWebhook.verifySignature), so the unit test
 * proves with it that these sign right. No handshake.
 */
import { generateKeyPairSync, sign as ecdsaSign, type KeyObject } from 'node:crypto';
import type { SenderFixture, SentRequest } from './fixture';

/** A key pair as SendGrid holds it, and its Verification Key as the console shows it. */
export function sendgridKeys(): { privateKey: KeyObject; verificationKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { privateKey, verificationKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64') };
}

export const sendgridAccount = sendgridKeys();
const otherAccount = sendgridKeys();

// SendGrid posts a JSON array of events, each line ended by CRLF.
const body =
  JSON.stringify([
    {
      email: 'ann@example.com',
      timestamp: 1767268800,
      event: 'delivered',
      'smtp-id': '<14c5d75ce93.dfd.64b469@ismtpd-555>',
      sg_event_id: 'ZGVsaXZlcmVkLTAtMTIzNDU2Nzg5',
      sg_message_id: '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0',
      response: '250 OK',
    },
  ]) + '\r\n';

/** `body` signed at `at` with `privateKey`, as SendGrid sends it. */
export function sendgridSigned(privateKey: KeyObject, body: string, at: Date): SentRequest {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = ecdsaSign('sha256', Buffer.from(timestamp + body, 'utf8'), privateKey).toString('base64');
  return {
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'SendGrid Event API',
      'X-Twilio-Email-Event-Webhook-Signature': signature,
      'X-Twilio-Email-Event-Webhook-Timestamp': timestamp,
    },
    body,
  };
}

export const sendgridSender: SenderFixture = {
  name: 'sendgrid',
  verification: { scheme: 'sendgrid', publicKey: sendgridAccount.verificationKey },
  body,
  triggerData: JSON.parse(body),
  signed: (body, _url, at) => sendgridSigned(sendgridAccount.privateKey, body, at),
  signedWrongly: (body, _url, at) => sendgridSigned(otherAccount.privateKey, body, at),
  toleranceSeconds: 300,
};
