/**
 * Senders whose own library verifies but whose fixture names no `sdkAccepts`: the library takes what
 * the fixture signs, and refuses what our check refuses, where the time does not decide. SendGrid's
 * `@sendgrid/eventwebhook`, Paddle's `@paddle/paddle-node-sdk` (its own clock: signed now) and
 * Square's `square` WebhooksHelper (the URL it was given, its query included, is signed).
 */
import { EventWebhook, EventWebhookHeader } from '@sendgrid/eventwebhook';
import { Paddle, WebhooksValidator } from '@paddle/paddle-node-sdk';
import { WebhooksHelper } from 'square';
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import { senderDeliveryId, verifySender } from '../../../src/domain/senders/checks';
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { sendgridAccount, sendgridSender, sendgridSigned } from '../../support/senders/sendgrid';
import { paddleDigest, paddleSender, paddleSignature } from '../../support/senders/paddle';
import { squareSender, squareSignature } from '../../support/senders/square';
import { reasonOf } from '../../support/senders/verdicts';

const url = 'https://robots.example.com/api/webhooks/library-test';
const ours = (v: CustomVerification, sent: SentRequest, to = url, at = new Date()) =>
  verifySender(v, asReceived(sent, to, at));

describe('sendgrid', () => {
  const at = new Date('2026-01-01T12:00:00Z');
  const v: CustomVerification = { scheme: 'sendgrid', publicKey: sendgridAccount.verificationKey };
  const [SIGNATURE, TIMESTAMP] = [EventWebhookHeader.SIGNATURE(), EventWebhookHeader.TIMESTAMP()];
  const webhook = new EventWebhook();
  const library = (sent: SentRequest) =>
    webhook.verifySignature(
      webhook.convertPublicKeyToECDSA(v.publicKey!),
      sent.body,
      sent.headers[SIGNATURE],
      sent.headers[TIMESTAMP],
    );

  test('its library takes what the fixture signs, under the header names it gives', () => {
    const sent = sendgridSender.signed(sendgridSender.body, url, at);
    expect(Object.keys(sent.headers)).toEqual(expect.arrayContaining([SIGNATURE, TIMESTAMP]));
    expect(library(sent)).toBe(true);
  });

  test('it agrees with our verdict on signed, forged and re-timed requests', () => {
    for (let i = 0; i < 8; i++) {
      const text = JSON.stringify([{ email: 'ann@example.com', event: 'open', sg_event_id: `e${i}` }]) + '\r\n';
      const sent =
        i % 2 ? sendgridSigned(sendgridAccount.privateKey, text, at) : sendgridSender.signedWrongly(text, url, at);
      const moved = { ...sent, headers: { ...sent.headers, [TIMESTAMP]: String(at.getTime() / 1000 - 1) } };
      for (const s of [sent, moved]) expect(ours(v, s, url, at).ok).toBe(library(s));
    }
  });
});

describe('paddle', () => {
  const sdk = new Paddle('pdl_sdbx_apikey_' + 'x'.repeat(20));
  const key = paddleSender.verification.secret;
  const v: CustomVerification = { scheme: 'paddle', secret: key };
  const otherKey = 'pdl_ntfset_01other_' + 'y'.repeat(32);
  const body = paddleSender.body;
  const sdkAccepts = (header: string, text = body) => sdk.webhooks.isSignatureValid(text, key, header);
  const withSignature = (header: string): SentRequest => ({
    method: 'POST',
    query: '',
    headers: { 'Paddle-Signature': header },
    body,
  });
  const now = () => Math.floor(Date.now() / 1000);

  test("its tolerance is the SDK's, and its SDK reads the notification_id our check takes as the delivery's id", async () => {
    expect(SENDERS.paddle.toleranceSeconds).toBe(WebhooksValidator['MAX_VALID_TIME_DIFFERENCE']);
    const sent = paddleSender.signed(body, url, new Date());
    const event = await sdk.webhooks.unmarshal(body, key, sent.headers['Paddle-Signature']);
    expect(senderDeliveryId(v, asReceived(sent, url, new Date()))).toBe(event.notificationId);
  });

  test('its SDK refuses what our check refuses: a tampered body, another key, a moved or old ts', async () => {
    const ts = now();
    const cases: Array<[string, string]> = [
      [paddleSignature([key], body, ts), body.replace('Ann', 'Bob')],
      [paddleSignature([otherKey], body, ts), body],
      [`ts=${ts - 1};h1=${paddleDigest(key, body, ts)}`, body],
      [paddleSignature([key], body, ts - 7), body],
    ];
    for (const [header, text] of cases) {
      await expect(sdkAccepts(header, text)).resolves.toBe(false);
      expect(reasonOf(ours(v, { ...withSignature(header), body: text }))).not.toBe('accepted');
    }
  });

  test('during a rotation any h1 may match: the SDK reads only the last, our check every one', async () => {
    const ts = now();
    await expect(sdkAccepts(paddleSignature([otherKey, key], body, ts))).resolves.toBe(true);
    expect(ours(v, withSignature(paddleSignature([otherKey, key], body, ts)))).toEqual({ ok: true });
    expect(ours(v, withSignature(paddleSignature([key, otherKey], body, ts)))).toEqual({ ok: true });
  });
});

describe('square', () => {
  const at = new Date('2026-01-01T12:00:00Z');
  const key = squareSender.verification.secret;
  const v: CustomVerification = { scheme: 'square', secret: key };
  const sdkAccepts = (sent: SentRequest, notificationUrl = url) =>
    WebhooksHelper.verifySignature({
      requestBody: String(sent.body),
      signatureHeader: sent.headers['x-square-hmacsha256-signature'],
      signatureKey: key,
      notificationUrl,
    });

  test('its SDK takes what the fixture signs, and refuses with our check a tampered body, another key or URL', async () => {
    const sent = squareSender.signed(squareSender.body, url, at);
    await expect(sdkAccepts(sent)).resolves.toBe(true);
    const forged: Array<[SentRequest, string]> = [
      [{ ...sent, body: squareSender.body.replace('APPROVED', 'COMPLETED') }, url],
      [squareSender.signedWrongly(squareSender.body, url, at), url],
      [sent, url + '/other'],
    ];
    for (const [s, to] of forged) {
      await expect(sdkAccepts(s, to)).resolves.toBe(false);
      expect(ours(v, s, to, at).ok).toBe(false);
    }
  });

  test('the URL with its query is signed as sent', async () => {
    const query = '?shop=ann&x=%3A';
    const headers = { 'x-square-hmacsha256-signature': squareSignature(key, url + query, squareSender.body) };
    const sent: SentRequest = { ...squareSender.signed(squareSender.body, url, at), query, headers };
    await expect(sdkAccepts(sent, url + query)).resolves.toBe(true);
    expect(ours(v, sent, url, at)).toEqual({ ok: true });
    expect(ours(v, { ...sent, query: '?a=1' }, url, at).ok).toBe(false);
  });
});
