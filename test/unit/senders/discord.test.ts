/**
 * Discord (src/domain/senders/discord.ts), checked with the sender as test/support/senders/discord.ts
 * plays it; `discord-interactions` (Discord's own library: verifyKey) proves the fixture signs
 * right and agrees with every verdict the time does not decide.
 */
import { InteractionResponseType, InteractionType, verifyKey, WebhookType } from 'discord-interactions';
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import type { Handshake, HandshakeAnswer, Verdict } from '../../../src/domain/senders/parts';
import { checkOf } from '../../../src/domain/senders/checks';
const discord = checkOf('discord');
import {
  DISCORD_EVENTS_PING,
  DISCORD_INTERACTIONS_PING,
  discordApp,
  discordKeys,
  discordSender,
  discordSigned,
} from '../../support/senders/discord';
import { asReceived, type Answer, type SentRequest } from '../../support/senders/fixture';

const url = 'https://robots.example.com/api/webhooks/discord-test';
const at = new Date('2026-01-01T12:00:00Z');
const { body } = discordSender;
const publicKey = discordApp.publicKeyHex;
const v: CustomVerification = { scheme: 'discord', publicKey };
const TOLERANCE = SENDERS.discord.toleranceSeconds!;

const verify = (sent: SentRequest, receivedAt = at, app = v) => discord.verify(app, asReceived(sent, url, receivedAt));
const handshakeOf = (sent: SentRequest) => discord.handshakes.signed!(v, asReceived(sent, url, at));
const library = (sent: SentRequest) =>
  verifyKey(
    sent.body,
    sent.headers['X-Signature-Ed25519'] ?? '',
    sent.headers['X-Signature-Timestamp'] ?? '',
    publicKey,
  );
const withHeaders = (sent: SentRequest, headers: Record<string, string>): SentRequest => ({
  ...sent,
  headers: { ...sent.headers, ...headers },
});

function expectRefused(verdict: Verdict, reason: RegExp) {
  if (verdict.ok) throw new Error('expected a refusal');
  expect(verdict.reason).toMatch(reason);
  expect(verdict.reason).not.toMatch(/[0-9a-f]{16}/);
}

function answerOf(h: Handshake | null): HandshakeAnswer {
  if (!h || !('answer' in h)) throw new Error(`expected an answer, got ${JSON.stringify(h)}`);
  return h.answer;
}

const asAnswer = (a: HandshakeAnswer): Answer => ({
  status: a.status,
  headers: a.contentType ? { 'content-type': a.contentType } : {},
  body: a.body ?? '',
});

describe('discord', () => {
  test('the catalog: a Public Key of 64 hex, the 5-minute default tolerance, refusals 401', () => {
    expect(SENDERS.discord.settings.map((s) => s.name)).toEqual(['publicKey']);
    expect(new RegExp(SENDERS.discord.settings[0].pattern!.source).test(publicKey)).toBe(true);
    expect(TOLERANCE).toBe(300);
    expect(discordSender.toleranceSeconds).toBe(TOLERANCE);
    expect(SENDERS.discord.refusalStatus).toBe(401);
  });

  test("the fixture signs as Discord does: discord-interactions' verifyKey takes it", async () => {
    await expect(library(discordSender.signed(body, url, at))).resolves.toBe(true);
    await expect(library(discordSender.signedWrongly(body, url, at))).resolves.toBe(false);
  });

  test('a delivery signed with the app key is accepted', () => {
    expect(verify(discordSender.signed(body, url, at))).toEqual({ ok: true });
  });

  test('a tampered body, another key or a changed timestamp is refused, as verifyKey refuses it', async () => {
    const sent = discordSender.signed(body, url, at);
    const cases: SentRequest[] = [
      { ...sent, body: body.replace('ann', 'bob') },
      discordSender.signedWrongly(body, url, at),
      withHeaders(sent, { 'X-Signature-Timestamp': String(Number(sent.headers['X-Signature-Timestamp']) + 1) }),
    ];
    for (const forged of cases) {
      await expect(library(forged)).resolves.toBe(false);
      expectRefused(verify(forged), /^X-Signature-Ed25519 does not verify with the Public Key$/);
    }
  });

  test('our verdict agrees with verifyKey on 20 signed and forged requests', async () => {
    for (let i = 0; i < 20; i++) {
      const text = JSON.stringify({ version: 1, type: 1, event: { type: 'ENTITLEMENT_CREATE', data: { n: i } } });
      const sent = i % 2 ? discordSigned(discordApp.privateKey, text, at) : discordSender.signedWrongly(text, url, at);
      expect(verify(sent).ok).toBe(await library(sent));
    }
  });

  test.each([
    ['X-Signature-Ed25519', /^missing X-Signature-Ed25519 header$/],
    ['X-Signature-Timestamp', /^missing X-Signature-Timestamp header$/],
  ])('a missing %s header is refused, named', (name, reason) => {
    const { [name]: _gone, ...headers } = discordSender.signed(body, url, at).headers;
    expectRefused(verify({ ...discordSender.signed(body, url, at), headers }), reason);
  });

  test('a signature not of 64 hex bytes, or a timestamp not in unix seconds, is refused as malformed', () => {
    const sent = discordSender.signed(body, url, at);
    const short = sent.headers['X-Signature-Ed25519'].slice(2);
    expectRefused(verify(withHeaders(sent, { 'X-Signature-Ed25519': short })), /^malformed X-Signature-Ed25519 /);
    expectRefused(
      verify(withHeaders(sent, { 'X-Signature-Ed25519': 'z'.repeat(128) })),
      /^malformed X-Signature-Ed25519/,
    );
    const iso = withHeaders(sent, { 'X-Signature-Timestamp': at.toISOString() });
    expectRefused(verify(iso), /^malformed X-Signature-Timestamp header: expected unix seconds$/);
  });

  test('a signature older or newer than the catalog tolerance is refused; within it, accepted', () => {
    const sent = discordSender.signed(body, url, at);
    expect(verify(sent, new Date(at.getTime() + TOLERANCE * 1000))).toEqual({ ok: true });
    expect(verify(sent, new Date(at.getTime() - TOLERANCE * 1000))).toEqual({ ok: true });
    expectRefused(verify(sent, new Date(at.getTime() + (TOLERANCE + 1) * 1000)), /^timestamp outside the 300-second/);
    expectRefused(verify(sent, new Date(at.getTime() - (TOLERANCE + 1) * 1000)), /^timestamp outside/);
  });

  test('a Public Key node cannot read refuses with a reason, never throws', () => {
    const sent = discordSender.signed(body, url, at);
    for (const bad of ['zz'.repeat(32), publicKey.slice(2), '']) {
      expectRefused(
        verify(sent, at, { scheme: 'discord', publicKey: bad }),
        /^the Public Key is not an Ed25519 public key/,
      );
    }
  });

  test('a key pair of its own signs only for its own Public Key', () => {
    const other = discordKeys();
    const sent = discordSigned(other.privateKey, body, at);
    expect(verify(sent, at, { scheme: 'discord', publicKey: other.publicKeyHex })).toEqual({ ok: true });
    expect(verify(sent).ok).toBe(false);
  });

  describe('handshakes', () => {
    test('are signed: looked at only once verify passed', () => {
      expect(discord.handshakes.signed).toBeDefined();
      expect(verify(discordSender.handshake!.request(url, at))).toEqual({ ok: true });
    });

    test('a webhook events PING (type 0) is answered 204, empty, as Discord takes it', () => {
      expect(JSON.parse(DISCORD_EVENTS_PING).type).toBe(WebhookType.PING);
      const answer = answerOf(handshakeOf(discordSender.handshake!.request(url, at)));
      expect(answer).toEqual({ status: 204 });
      expect(() => discordSender.handshake!.accepts(asAnswer(answer))).not.toThrow();
    });

    test("an interactions PING (type 1) is answered 200 JSON, the PONG discord-interactions' middleware sends", () => {
      expect(JSON.parse(DISCORD_INTERACTIONS_PING).type).toBe(InteractionType.PING);
      const answer = answerOf(handshakeOf(discordSigned(discordApp.privateKey, DISCORD_INTERACTIONS_PING, at)));
      expect(answer).toEqual({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ type: InteractionResponseType.PONG }),
      });
    });

    test('a webhook event (type 1 with an event) and other interactions are deliveries', () => {
      expect(handshakeOf(discordSender.signed(body, url, at))).toBeNull();
      const command = JSON.stringify({ id: '1', token: 't', type: InteractionType.APPLICATION_COMMAND, data: {} });
      expect(handshakeOf(discordSigned(discordApp.privateKey, command, at))).toBeNull();
      expect(handshakeOf(discordSigned(discordApp.privateKey, 'not json', at))).toBeNull();
    });
  });

  test('no delivery id: deliveries are told apart by the body digest', () => {
    expect(discord.deliveryId).toBeUndefined();
  });

  test('the headers kept are the signature and its timestamp', () => {
    expect(discord.headersRead(v)).toEqual(['x-signature-ed25519', 'x-signature-timestamp']);
  });
});
