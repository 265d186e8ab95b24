/**
 * Discord's handshakes (src/domain/senders/handshakes.ts, `discord`), both signed: a webhook events
 * PING (type 0) is answered 204, an interactions PING (type 1, no event) with the PONG
 * `discord-interactions` (Discord's own library) sends; any other event is a delivery. Its library's
 * verifyKey proves the fixture signs as Discord does, and agrees with every verdict the time does not decide.
 */
import { InteractionResponseType, InteractionType, verifyKey, WebhookType } from 'discord-interactions';
import type { CustomVerification } from '../../../src/domain/senders/catalog';
import { verifySender } from '../../../src/domain/senders/checks';
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import {
  DISCORD_EVENTS_PING,
  DISCORD_INTERACTIONS_PING,
  discordApp,
  discordSender,
  discordSigned,
} from '../../support/senders/discord';
import { answered, handshakeOf } from '../../support/senders/verdicts';

const url = 'https://robots.example.com/api/webhooks/discord-test';
const at = new Date('2026-01-01T12:00:00Z');
const v: CustomVerification = { scheme: 'discord', publicKey: discordApp.publicKeyHex };
const signed = (body: string) => discordSigned(discordApp.privateKey, body, at);
const library = (sent: SentRequest) =>
  verifyKey(
    sent.body,
    sent.headers['X-Signature-Ed25519'] ?? '',
    sent.headers['X-Signature-Timestamp'] ?? '',
    v.publicKey!,
  );

test('a webhook events PING (type 0) is answered 204 with no body', () => {
  expect(JSON.parse(DISCORD_EVENTS_PING).type).toBe(WebhookType.PING);
  expect(answered(handshakeOf(v, signed(DISCORD_EVENTS_PING), url, at)).answer).toEqual({ status: 204 });
});

test("an interactions PING (type 1) is answered 200 JSON, the PONG discord-interactions' middleware sends", () => {
  expect(JSON.parse(DISCORD_INTERACTIONS_PING).type).toBe(InteractionType.PING);
  expect(answered(handshakeOf(v, signed(DISCORD_INTERACTIONS_PING), url, at)).answer).toEqual({
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify({ type: InteractionResponseType.PONG }),
  });
});

test('a webhook event (type 1 with an event), another interaction or a body not JSON is a delivery', () => {
  const command = JSON.stringify({ id: '1', token: 't', type: InteractionType.APPLICATION_COMMAND, data: {} });
  for (const body of [discordSender.body, command, 'not json'])
    expect(handshakeOf(v, signed(body), url, at)).toBeNull();
});

test('a PING not signed with the app key is never answered', () => {
  expect(handshakeOf(v, discordSender.signedWrongly(DISCORD_EVENTS_PING, url, at), url, at)).toBeNull();
});

test('verifyKey takes what the fixture signs, and agrees with our verdict on 20 signed and forged requests', async () => {
  await expect(library(discordSender.signed(discordSender.body, url, at))).resolves.toBe(true);
  for (let i = 0; i < 20; i++) {
    const text = JSON.stringify({ version: 1, type: 1, event: { type: 'ENTITLEMENT_CREATE', data: { n: i } } });
    const sent = i % 2 ? signed(text) : discordSender.signedWrongly(text, url, at);
    const moved = { ...sent, headers: { ...sent.headers, 'X-Signature-Timestamp': String(at.getTime() / 1000 + 1) } };
    for (const s of [sent, moved]) expect(verifySender(v, asReceived(s, url, at)).ok).toBe(await library(s));
  }
});
