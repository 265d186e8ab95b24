import { Signature } from '@hubspot/api-client';
import { SENDERS } from '../../../src/domain/senders/catalog';
import { hubspot, signedUri } from '../../../src/domain/senders/families/hubspot';
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { hubspotSender, hubspotSigned } from '../../support/senders/hubspot';
import { expectRefused } from '../../support/senders/verdicts';

const url = 'https://robots.example.com/api/webhooks/hubspot-test';
const { verification, body } = hubspotSender;
const key = verification.secret;
const v = { scheme: 'hubspot' as const, secret: key };

const verify = (sent: SentRequest, receivedAt = new Date(), method: string = sent.method) =>
  hubspot.verify(v, { ...asReceived(sent, url, receivedAt), method });
const headersOf = (sent: SentRequest) => ({
  signature: sent.headers['X-HubSpot-Signature-v3'],
  timestamp: Number(sent.headers['X-HubSpot-Request-Timestamp']),
});

/** HubSpot's library's verdict on a request to `uri` (it throws on a stale timestamp). */
function sdkAccepts(sent: SentRequest, uri = url, sentBody = String(sent.body)): boolean {
  return Signature.isValid({
    signatureVersion: 'v3',
    method: sent.method,
    url: uri,
    requestBody: sentBody,
    clientSecret: key,
    ...headersOf(sent),
  });
}

describe('hubspot', () => {
  test("the tolerance is HubSpot's 5 minutes, as its library checks", () => {
    expect(SENDERS.hubspot.toleranceSeconds).toBe(300);
    expect(Signature.MAX_ALLOWED_TIMESTAMP).toBe(300 * 1000);
  });

  test("a delivery signed by HubSpot's library is accepted by the library and by the check", () => {
    const sent = hubspotSender.signed(body, url, new Date());
    expect(headersOf(sent).signature).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(sdkAccepts(sent)).toBe(true);
    expect(verify(sent)).toEqual({ ok: true });
  });

  test('a tampered body is refused, as the library refuses it', () => {
    const sent = hubspotSender.signed(body, url, new Date());
    const tampered = body.replace('"objectId":123', '"objectId":124');
    expect(sdkAccepts(sent, url, tampered)).toBe(false);
    expectRefused(verify({ ...sent, body: tampered }), /signature does not match/, key);
  });

  test('a delivery signed with another secret is refused, as the library refuses it', () => {
    const sent = hubspotSender.signedWrongly(body, url, new Date());
    expect(sdkAccepts(sent)).toBe(false);
    expectRefused(verify(sent), /signature does not match/, key);
  });

  test('another URL or method is refused, as the library refuses it', () => {
    const sent = hubspotSender.signed(body, url, new Date());
    expect(sdkAccepts(sent, url + '/other')).toBe(false);
    expectRefused(hubspot.verify(v, asReceived(sent, url + '/other', new Date())), /signature does not match/, key);
    expect(sdkAccepts({ ...sent, method: 'GET' })).toBe(false);
    expectRefused(verify(sent, new Date(), 'PUT'), /signature does not match/, key);
  });

  test('a signature older than 5 minutes is refused, as the library refuses it', () => {
    const sent = hubspotSender.signed(body, url, new Date(Date.now() - 301_000));
    expect(() => sdkAccepts(sent)).toThrow(/Timestamp is invalid/);
    expectRefused(verify(sent), /300-second tolerance/, key);
  });

  test('within the tolerance of arrival it is accepted; beyond it, either way, refused', () => {
    const at = new Date('2026-01-01T12:00:00.123Z');
    const sent = hubspotSender.signed(body, url, at);
    expect(verify(sent, new Date(at.getTime() + 300_000))).toEqual({ ok: true });
    expectRefused(verify(sent, new Date(at.getTime() + 300_001)), /tolerance/, key);
    expectRefused(verify(sent, new Date(at.getTime() - 300_001)), /tolerance/, key);
  });

  test("the URI is signed with HubSpot's listed percent-encoded characters decoded", () => {
    const at = new Date();
    const query = '?to=a%3Ab%2Fc%3Fd%40e%21f%24g%27h%28i%29j%2Ak%2Cl%3Bm&q=a%20b%2Bc&lower=%3a';
    const decoded = "?to=a:b/c?d@e!f$g'h(i)j*k,l;m&q=a%20b%2Bc&lower=:";
    expect(signedUri(url + query)).toBe(url + decoded);
    const sent = hubspotSigned(key, body, url + decoded, at, query);
    expect(sdkAccepts(sent, url + decoded)).toBe(true);
    expect(verify(sent)).toEqual({ ok: true });
    // Signed as sent, without the decoding, it is not HubSpot's signature.
    expectRefused(verify(hubspotSigned(key, body, url + query, at, query)), /signature does not match/, key);
  });

  test('decoding is one pass: an encoded percent sign stays encoded', () => {
    expect(signedUri(`${url}?a=%253A`)).toBe(`${url}?a=%253A`);
  });

  test('missing headers are refused, named', () => {
    const sent = hubspotSender.signed(body, url, new Date());
    const without = (name: string): SentRequest => ({
      ...sent,
      headers: Object.fromEntries(Object.entries(sent.headers).filter(([k]) => k !== name)),
    });
    expectRefused(verify(without('X-HubSpot-Signature-v3')), /^missing X-HubSpot-Signature-v3 header$/, key);
    expectRefused(verify(without('X-HubSpot-Request-Timestamp')), /^missing X-HubSpot-Request-Timestamp header$/, key);
  });

  test('a timestamp that is not milliseconds is refused', () => {
    const sent = hubspotSender.signed(body, url, new Date());
    const headers = (timestamp: string) => ({ ...sent.headers, 'X-HubSpot-Request-Timestamp': timestamp });
    expectRefused(verify({ ...sent, headers: headers('soon') }), /malformed X-HubSpot-Request-Timestamp/, key);
    // Seconds are a time in 1970.
    const seconds = String(Math.floor(Date.now() / 1000));
    expectRefused(verify({ ...sent, headers: headers(seconds) }), /tolerance/, key);
  });

  test('a signature that is not a base64 SHA-256 digest is refused as malformed', () => {
    const sent = hubspotSender.signed(body, url, new Date());
    const headers = { ...sent.headers, 'X-HubSpot-Signature-v3': 'abc' };
    expectRefused(verify({ ...sent, headers }), /malformed X-HubSpot-Signature-v3 header/, key);
  });

  test('deliveryId: a retry of a batch (attemptNumber raised) is one delivery, another batch with its ids two', () => {
    const of = (text: string) =>
      hubspot.deliveryId!(asReceived({ ...hubspotSender.signed(text, url, new Date()) }, url, new Date()));
    const event = { eventId: 100, subscriptionId: 7, objectId: 55, occurredAt: 1700000000000, attemptNumber: 0 };
    const first = of(JSON.stringify([event, { ...event, eventId: 101 }]));
    expect(first).toMatch(/^events:[0-9a-f]{64}$/);
    // HubSpot's own retry: the same events, attemptNumber raised, in another order.
    expect(
      of(
        JSON.stringify([
          { ...event, eventId: 101, attemptNumber: 1 },
          { ...event, attemptNumber: 1 },
        ]),
      ),
    ).toBe(first);
    // eventId is not unique (HubSpot's docs): the same ids on other objects are another batch.
    expect(
      of(
        JSON.stringify([
          { ...event, objectId: 56 },
          { ...event, eventId: 101, objectId: 56 },
        ]),
      ),
    ).not.toBe(first);
    expect(of(JSON.stringify({ eventId: 1 }))).toBeUndefined();
    expect(of('[]')).toBeUndefined();
    expect(of(JSON.stringify([{ eventId: 1 }, { objectId: 2 }]))).toBeUndefined();
    expect(of(JSON.stringify([{ eventId: '1' }]))).toBeUndefined();
    expect(of('[{"eventId": 9007199254740993}]')).toBeUndefined();
    expect(of('not json')).toBeUndefined();
  });

  test('headersRead is the signature and its timestamp', () => {
    expect(hubspot.headersRead(v)).toEqual(['x-hubspot-signature-v3', 'x-hubspot-request-timestamp']);
  });
});
