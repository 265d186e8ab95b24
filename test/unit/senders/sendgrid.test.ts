/**
 * SendGrid (src/domain/senders/sendgrid.ts), checked with the sender as
 * test/support/senders/sendgrid.ts plays it; `@sendgrid/eventwebhook` (SendGrid's own library:
 * EventWebhook.convertPublicKeyToECDSA and verifySignature) proves the fixture signs right and
 * agrees with every verdict the time does not decide.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { EventWebhook, EventWebhookHeader } from '@sendgrid/eventwebhook';
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import type { Verdict } from '../../../src/domain/senders/parts';
import { checkOf } from '../../../src/domain/senders/checks';
const sendgrid = checkOf('sendgrid');
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { sendgridAccount, sendgridSender, sendgridSigned } from '../../support/senders/sendgrid';

const url = 'https://robots.example.com/api/webhooks/sendgrid-test';
const at = new Date('2026-01-01T12:00:00Z');
const { body } = sendgridSender;
const key = sendgridAccount.verificationKey;
const v: CustomVerification = { scheme: 'sendgrid', publicKey: key };
const TOLERANCE = SENDERS.sendgrid.toleranceSeconds!;
const SIGNATURE = EventWebhookHeader.SIGNATURE();
const TIMESTAMP = EventWebhookHeader.TIMESTAMP();

const verify = (sent: SentRequest, when = at, app = v) => sendgrid.verify(app, asReceived(sent, url, when));
const eventWebhook = new EventWebhook();
const library = (sent: SentRequest) =>
  eventWebhook.verifySignature(
    eventWebhook.convertPublicKeyToECDSA(key),
    sent.body,
    sent.headers[SIGNATURE],
    sent.headers[TIMESTAMP],
  );
const withHeaders = (sent: SentRequest, headers: Record<string, string>): SentRequest => ({
  ...sent,
  headers: { ...sent.headers, ...headers },
});

function expectRefused(verdict: Verdict, reason: RegExp) {
  if (verdict.ok) throw new Error('expected a refusal');
  expect(verdict.reason).toMatch(reason);
  expect(verdict.reason).not.toContain(key.slice(30, 60));
}

describe('sendgrid', () => {
  test("the catalog: the console's base64 Verification Key, the 5-minute default tolerance, no handshake", () => {
    expect(new RegExp(SENDERS.sendgrid.settings[0].pattern!.source).test(key)).toBe(true);
    expect(TOLERANCE).toBe(300);
    expect(sendgridSender.toleranceSeconds).toBe(TOLERANCE);
    expect(SENDERS.sendgrid.handshake).toBeNull();
    expect(sendgrid.handshake).toBeUndefined();
  });

  test('the headers are the ones the library names', () => {
    const sent = sendgridSender.signed(body, url, at);
    expect(Object.keys(sent.headers)).toEqual(expect.arrayContaining([SIGNATURE, TIMESTAMP]));
  });

  test("the fixture signs as SendGrid does: @sendgrid/eventwebhook's verifySignature takes it", () => {
    expect(library(sendgridSender.signed(body, url, at))).toBe(true);
    expect(library(sendgridSender.signedWrongly(body, url, at))).toBe(false);
  });

  test('a delivery signed with the account key is accepted', () => {
    expect(verify(sendgridSender.signed(body, url, at))).toEqual({ ok: true });
  });

  test('a tampered body, another key or a changed timestamp is refused, as the library refuses it', () => {
    const sent = sendgridSender.signed(body, url, at);
    const cases: SentRequest[] = [
      { ...sent, body: body.replace('delivered', 'bounce') },
      sendgridSender.signedWrongly(body, url, at),
      withHeaders(sent, { [TIMESTAMP]: String(Number(sent.headers[TIMESTAMP]) - 1) }),
    ];
    for (const forged of cases) {
      expect(library(forged)).toBe(false);
      expectRefused(
        verify(forged),
        /^X-Twilio-Email-Event-Webhook-Signature does not verify with the Verification Key$/,
      );
    }
  });

  test('our verdict agrees with the library on 8 signed and forged requests', () => {
    for (let i = 0; i < 8; i++) {
      const text = JSON.stringify([{ email: 'ann@example.com', event: 'open', sg_event_id: `e${i}` }]) + '\r\n';
      const sent =
        i % 2 ? sendgridSigned(sendgridAccount.privateKey, text, at) : sendgridSender.signedWrongly(text, url, at);
      expect(verify(sent).ok).toBe(library(sent));
    }
  });

  test.each([[SIGNATURE], [TIMESTAMP]])('a missing %s header is refused, named', (name) => {
    const sent = sendgridSender.signed(body, url, at);
    const { [name]: _gone, ...headers } = sent.headers;
    expectRefused(verify({ ...sent, headers }), new RegExp(`^missing ${name} header$`));
  });

  test('a signature that is not base64 DER ECDSA, or a timestamp not in unix seconds, is refused', () => {
    const sent = sendgridSender.signed(body, url, at);
    for (const bad of ['not base64!', 'A'.repeat(100), 'QUJD']) {
      const verdict = verify(withHeaders(sent, { [SIGNATURE]: bad }));
      expectRefused(verdict, /^(malformed X-Twilio-Email-Event-Webhook-Signature header|.* does not verify)/);
    }
    // The same signature as r || s (IEEE P1363), not DER, is no SendGrid signature.
    const p1363 = sign('sha256', Buffer.from(sent.headers[TIMESTAMP] + body), {
      key: sendgridAccount.privateKey,
      dsaEncoding: 'ieee-p1363',
    }).toString('base64');
    expectRefused(verify(withHeaders(sent, { [SIGNATURE]: p1363 })), /does not verify with the Verification Key$/);
    const iso = withHeaders(sent, { [TIMESTAMP]: at.toISOString() });
    expectRefused(verify(iso), new RegExp(`^malformed ${TIMESTAMP} header: expected unix seconds$`));
  });

  test('a signature older or newer than the catalog tolerance is refused; within it, accepted', () => {
    const sent = sendgridSender.signed(body, url, at);
    expect(verify(sent, new Date(at.getTime() + TOLERANCE * 1000))).toEqual({ ok: true });
    expectRefused(verify(sent, new Date(at.getTime() + (TOLERANCE + 1) * 1000)), /^timestamp outside the 300-second/);
    expectRefused(verify(sent, new Date(at.getTime() - (TOLERANCE + 1) * 1000)), /^timestamp outside/);
  });

  test('a Verification Key node cannot read as P-256 refuses with a clear reason, never throws', () => {
    const sent = sendgridSender.signed(body, url, at);
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' })
      .publicKey.export({ type: 'spki', format: 'der' })
      .toString('base64');
    for (const bad of ['AAAA', key.slice(0, 40), p384, '']) {
      expectRefused(
        verify(sent, at, { scheme: 'sendgrid', publicKey: bad }),
        /^the Verification Key is not a P-256 public key/,
      );
    }
  });

  test('no delivery id: deliveries are told apart by the body digest', () => {
    expect(sendgrid.deliveryId).toBeUndefined();
  });

  test('the headers kept are the signature and its timestamp', () => {
    expect(sendgrid.headersRead(v)).toEqual([SIGNATURE.toLowerCase(), TIMESTAMP.toLowerCase()]);
  });
});
