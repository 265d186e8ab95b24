import { SENDERS } from '../../../src/domain/senders/catalog';
import { SIGNED_FORM_MAX_BYTES } from '../../../src/domain/limits';
import { mailgun } from '../../../src/domain/senders/families/mailgun';
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { mailgunSender, mailgunSignature, withSignature } from '../../support/senders/mailgun';
import { expectRefused } from '../../support/senders/verdicts';

const url = 'https://robots.example.com/api/webhooks/mailgun-test';
const at = new Date('2026-01-01T12:00:00Z');
const seconds = at.getTime() / 1000;
const { verification, body: event } = mailgunSender;
const key = verification.secret;
const v = { scheme: 'mailgun' as const, secret: key };
const token = 'a'.repeat(50);

const verify = (sent: SentRequest, receivedAt = at) => mailgun.verify(v, asReceived(sent, url, receivedAt));
const sending = (body: string): SentRequest => ({ ...mailgunSender.signed(event, url, at), body });
const sentBody = (sent: SentRequest) => JSON.parse(String(sent.body)) as Record<string, any>;

describe('mailgun', () => {
  test('the tolerance is 5 minutes (Mailgun names none)', () => {
    expect(SENDERS.mailgun.toleranceSeconds).toBe(300);
    expect(mailgunSender.toleranceSeconds).toBe(300);
  });

  test('a delivery signed with the signing key is accepted; its signature object is as Mailgun sends it', () => {
    const sent = mailgunSender.signed(event, url, at);
    const { signature } = sentBody(sent);
    const text = expect.any(String);
    expect(signature).toEqual({ timestamp: String(seconds), token: text, signature: text });
    expect(signature.token).toHaveLength(50);
    expect(signature.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verify(sent)).toEqual({ ok: true });
    expect(sentBody(sent)).toEqual(mailgunSender.triggerData);
  });

  test('a tampered token or timestamp is refused', () => {
    const sent = mailgunSender.signed(event, url, at);
    const parsed = sentBody(sent);
    const tokenChanged = { ...parsed, signature: { ...parsed.signature, token: token } };
    expectRefused(verify(sending(JSON.stringify(tokenChanged))), /signature does not match/, key, 'ann@example.com');
    const timeChanged = { ...parsed, signature: { ...parsed.signature, timestamp: String(seconds + 1) } };
    expectRefused(verify(sending(JSON.stringify(timeChanged))), /signature does not match/, key, 'ann@example.com');
  });

  test("event data is not signed (Mailgun's scheme): changed under the same signature, one delivery", () => {
    const sent = mailgunSender.signed(event, url, at);
    const changed = String(sent.body).replace('ann@example.com', 'bob@example.com');
    expect(verify(sending(changed))).toEqual({ ok: true });
    const id = (body: string) => mailgun.deliveryId!(asReceived(sending(body), url, at));
    expect(id(changed)).toBe(id(String(sent.body)));
  });

  test('a delivery signed with another key is refused', () => {
    expectRefused(
      verify(mailgunSender.signedWrongly(event, url, at)),
      /signature does not match/,
      key,
      'ann@example.com',
    );
  });

  test('a signature older or newer than the tolerance is refused; within it, accepted', () => {
    const sent = mailgunSender.signed(event, url, at);
    expect(verify(sent, new Date(at.getTime() + 300_000))).toEqual({ ok: true });
    expectRefused(verify(sent, new Date(at.getTime() + 301_000)), /300-second tolerance/, key, 'ann@example.com');
    expectRefused(verify(sent, new Date(at.getTime() - 301_000)), /tolerance/, key, 'ann@example.com');
  });

  test('a timestamp sent as a JSON number is read as the digits it was signed as', () => {
    const signature = mailgunSignature(key, seconds, token);
    const body = JSON.stringify({ signature: { ...signature, timestamp: seconds }, 'event-data': {} });
    expect(verify(sending(body))).toEqual({ ok: true });
  });

  test.each([
    ['no signature object', JSON.stringify({ 'event-data': {} })],
    ['a signature that is a string', JSON.stringify({ signature: 'abc', 'event-data': {} })],
    ['a signature that is an array', JSON.stringify({ signature: ['abc'] })],
    ['a form without its fields', 'subject=Hello&sender=ann%40example.com'],
    ['a body that is a JSON array', '[]'],
  ])('%s is refused: missing signature', (_case, body) => {
    expectRefused(verify(sending(body)), /^missing signature in the body/, key, 'ann@example.com');
  });

  describe("a route's form (review D5): timestamp, token and signature as top-level fields", () => {
    const fields = { ...mailgunSignature(key, seconds, token) };
    const route = (body: string | Buffer, type: string): SentRequest => ({
      method: 'POST',
      query: '',
      headers: { 'Content-Type': type },
      body,
    });
    const urlencoded = (f: Record<string, string>) =>
      route(
        new URLSearchParams({ sender: 'ann@example.com', subject: 'Hello', ...f }).toString(),
        'application/x-www-form-urlencoded',
      );
    const multipart = (f: Record<string, string>) => {
      const parts = Object.entries({ subject: 'Hello', ...f }).map(
        ([name, value]) => `--b0undary\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
      const file =
        '--b0undary\r\nContent-Disposition: form-data; name="attachment-1"; filename="a.txt"\r\n' +
        'Content-Type: text/plain\r\n\r\nname="signature"\r\n';
      return route(parts.join('') + file + '--b0undary--\r\n', 'multipart/form-data; boundary=b0undary');
    };

    test.each([
      ['urlencoded', urlencoded],
      ['multipart', multipart],
    ])('a %s route is accepted, told apart by its token, and refused with another key or token', (_c, make) => {
      expect(verify(make(fields))).toEqual({ ok: true });
      expect(mailgun.deliveryId!(asReceived(make(fields), url, at))).toBe(token);
      const other = mailgunSignature('another-signing-key-of-32-chars!', seconds, token);
      expectRefused(verify(make({ ...other })), /signature does not match/, key, 'ann@example.com');
      expectRefused(
        verify(make({ ...fields, token: 'b'.repeat(50) })),
        /signature does not match/,
        key,
        'ann@example.com',
      );
      expectRefused(verify(make({ ...fields, timestamp: String(seconds - 600) })), /tolerance/, key, 'ann@example.com');
    });

    test('a form past SIGNED_FORM_MAX_BYTES is refused unread', () => {
      const large = urlencoded({ ...fields, 'body-plain': 'x'.repeat(SIGNED_FORM_MAX_BYTES) });
      expectRefused(verify(large), /^a form body of more than/, key, 'ann@example.com');
    });
  });

  test.each([
    ['no token', { timestamp: '1', signature: 'a' }],
    ['an empty token', { timestamp: '1', token: '', signature: 'a' }],
    ['a numeric token', { timestamp: '1', token: 5, signature: 'a' }],
    ['no signature', { timestamp: '1', token: 'b' }],
    ['a fractional timestamp', { timestamp: 1.5, token: 'b', signature: 'a' }],
  ])('a signature object with %s is refused as malformed', (_case, signature) => {
    const body = JSON.stringify({ signature, 'event-data': {} });
    expectRefused(verify(sending(body)), /^malformed signature object in the body/, key, 'ann@example.com');
  });

  test('a timestamp that is not unix seconds is refused', () => {
    const body = withSignature(event, { ...mailgunSignature(key, seconds, token), timestamp: 'now' });
    expectRefused(verify(sending(body)), /^malformed signature.timestamp in the body/, key, 'ann@example.com');
  });

  test('a signature that is not a hex SHA-256 digest is refused as malformed', () => {
    const body = withSignature(event, { ...mailgunSignature(key, seconds, token), signature: 'abc' });
    expectRefused(verify(sending(body)), /^malformed signature.signature in the body/, key, 'ann@example.com');
  });

  test("deliveryId is the signature's token, else undefined", () => {
    const id = (body: string) => mailgun.deliveryId!(asReceived(sending(body), url, at));
    const sent = mailgunSender.signed(event, url, at);
    expect(id(String(sent.body))).toBe(sentBody(sent).signature.token);
    expect(id(withSignature(event, mailgunSignature(key, seconds, token)))).toBe(token);
    expect(id(JSON.stringify({ 'event-data': {} }))).toBeUndefined();
    expect(id('not json')).toBeUndefined();
  });

  test('headersRead is empty: Mailgun signs in the body', () => {
    expect(mailgun.headersRead(v)).toEqual([]);
  });
});
