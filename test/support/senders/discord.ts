/**
 * Discord as the tests play it: its own key pair (Ed25519, made at run time with node:crypto; the
 * app's Public Key is the hex of the raw 32-byte public key, as the developer portal shows it).
 * Each request carries `X-Signature-Timestamp` (unix seconds) and `X-Signature-Ed25519`, the hex
 * signature of timestamp + body. `discord-interactions` only verifies (its `verifyKey`), so the
 * unit test proves with it that these sign right. The delivery is a webhook event (`type` 1 with an
 * `event`); the handshake is the webhook events PING (`type` 0), which Discord takes only as `204`
 * with an empty body (as the library's verifyWebhookEventMiddleware answers it).
 */
import { generateKeyPairSync, sign as ed25519Sign, type KeyObject } from 'node:crypto';
import type { Answer, SenderFixture, SentRequest } from './fixture';

/** A key pair as Discord holds it, and its Public Key as the portal shows it. */
export function discordKeys(): { privateKey: KeyObject; publicKeyHex: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  return { privateKey, publicKeyHex: Buffer.from(x!, 'base64url').toString('hex') };
}

export const discordApp = discordKeys();
const otherApp = discordKeys();
export const DISCORD_APPLICATION_ID = '1234567890123456789';

const body = JSON.stringify({
  version: 1,
  application_id: DISCORD_APPLICATION_ID,
  type: 1,
  event: {
    type: 'APPLICATION_AUTHORIZED',
    timestamp: '2026-01-01T12:00:00.000000',
    data: {
      integration_type: 1,
      scopes: ['applications.commands'],
      user: { id: '80351110224678912', username: 'ann' },
    },
  },
});

/** `body` signed at `at` with `privateKey`, as Discord sends it. */
export function discordSigned(privateKey: KeyObject, body: string, at: Date): SentRequest {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = ed25519Sign(null, Buffer.from(timestamp + body, 'utf8'), privateKey).toString('hex');
  return {
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'Discord-Interactions/1.0 (+https://discord.com)',
      'X-Signature-Ed25519': signature,
      'X-Signature-Timestamp': timestamp,
    },
    body,
  };
}

/** The webhook events PING; an interactions PING has `type` 1, an `id` and a `token`, and no `event`. */
export const DISCORD_EVENTS_PING = JSON.stringify({ version: 1, application_id: DISCORD_APPLICATION_ID, type: 0 });
export const DISCORD_INTERACTIONS_PING = JSON.stringify({
  app_permissions: '0',
  application_id: DISCORD_APPLICATION_ID,
  entitlements: [],
  id: '1234567890123456790',
  token: 'aW50ZXJhY3Rpb24tdG9rZW4tbWFkZS1mb3ItdGVzdHM',
  type: 1,
  user: { id: '80351110224678912', username: 'ann' },
  version: 1,
});

export const discordSender: SenderFixture = {
  name: 'discord',
  verification: { scheme: 'discord', publicKey: discordApp.publicKeyHex },
  body,
  triggerData: JSON.parse(body),
  signed: (body, _url, at) => discordSigned(discordApp.privateKey, body, at),
  signedWrongly: (body, _url, at) => discordSigned(otherApp.privateKey, body, at),
  toleranceSeconds: 300,
  handshake: {
    request: (_url, at) => discordSigned(discordApp.privateKey, DISCORD_EVENTS_PING, at),
    accepts(answer: Answer) {
      if (answer.status !== 204)
        throw new Error(`Discord takes a webhook events PING only as 204, got ${answer.status}`);
      if (answer.body !== '') throw new Error('Discord takes a webhook events PING only with an empty body');
    },
  },
};
