/** Twilio's check (src/domain/senders/twilio.ts) against what Twilio's own library signs and validates. */
import twilio from 'twilio';
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import { MISMATCH } from '../../../src/domain/senders/parts';
import { twilio as check } from '../../../src/domain/senders/families/twilio';
import { FORM_MAX_FIELDS } from '../../../src/domain/limits';
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { formParams, signedForm, signedJson, twilioSender } from '../../support/senders/twilio';
import { reasonOf } from '../../support/senders/verdicts';

const url = 'https://hooks.example.com/api/webhooks/wh_1/tok_1';
const at = new Date();
const v = twilioSender.verification as unknown as CustomVerification;
const token = twilioSender.verification.secret;
const verify = (sent: SentRequest, to = url, when = at) => check.verify(v, asReceived(sent, to, when));
const signatureOf = (sent: SentRequest) => sent.headers['X-Twilio-Signature'];

it("accepts a form POST signed by Twilio's library, as its validateRequest does", () => {
  const sent = twilioSender.signed(twilioSender.body, url, at);
  expect(twilio.validateRequest(token, signatureOf(sent), url, formParams(twilioSender.body))).toBe(true);
  expect(verify(sent)).toEqual({ ok: true });
});

it('signs no time: a capture verifies however late it comes', () => {
  expect(SENDERS.twilio.toleranceSeconds).toBeNull();
  const sent = twilioSender.signed(twilioSender.body, url, at);
  expect(verify(sent, url, new Date(at.getTime() + 365 * 86_400_000))).toEqual({ ok: true });
});

it("reads the form as Twilio's library does: names sorted, a repeated name's distinct values sorted", () => {
  const forms = [
    'b=2&a=1&a=0&a=1&c=&d=x+y%20z',
    '%C3%A9t%C3%A9=%E2%9C%93&Body=caf%C3%A9+%26+cr%C3%A8me&Z=1&_=2',
    'MediaUrl0=https%3A%2F%2Fapi.twilio.com%2Fm%3Fa%3D1%26b%3D2&MediaUrl0=https%3A%2F%2Fx',
  ];
  for (const form of forms) {
    const sent = signedForm(token, form, url);
    expect(twilio.validateRequest(token, signatureOf(sent), url, formParams(form))).toBe(true);
    expect(verify(sent)).toEqual({ ok: true });
  }
});

it('checks the URL with and without its default port, as validateRequest does', () => {
  const params = formParams(twilioSender.body);
  const cases: Array<[signedUrl: string, receivedUrl: string, accepted: boolean]> = [
    [
      'https://hooks.example.com:443/api/webhooks/wh_1/tok_1',
      'https://hooks.example.com/api/webhooks/wh_1/tok_1',
      true,
    ],
    [
      'https://hooks.example.com/api/webhooks/wh_1/tok_1',
      'https://hooks.example.com:443/api/webhooks/wh_1/tok_1',
      true,
    ],
    ['http://hooks.example.com:80/api/webhooks/wh_1/tok_1', 'http://hooks.example.com/api/webhooks/wh_1/tok_1', true],
    ['http://hooks.example.com/api/webhooks/wh_1/tok_1', 'http://hooks.example.com:80/api/webhooks/wh_1/tok_1', true],
    [
      'https://hooks.example.com:8443/api/webhooks/wh_1/tok_1',
      'https://hooks.example.com/api/webhooks/wh_1/tok_1',
      false,
    ],
    [
      'https://hooks.example.com:80/api/webhooks/wh_1/tok_1',
      'https://hooks.example.com/api/webhooks/wh_1/tok_1',
      false,
    ],
    ['https://other.example.com/api/webhooks/wh_1/tok_1', 'https://hooks.example.com/api/webhooks/wh_1/tok_1', false],
    ['https://hooks.example.com/api/webhooks/wh_1/tok_2', 'https://hooks.example.com/api/webhooks/wh_1/tok_1', false],
    // The parser's form of the URL (`'` percent-encoded), which validateRequest also tries.
    [
      'https://hooks.example.com/api/webhooks/wh_1/tok_1?n=O%27Brien',
      "https://hooks.example.com/api/webhooks/wh_1/tok_1?n=O'Brien",
      true,
    ],
    // The query as Node's querystring writes it again (validateRequest's legacy form, review D3).
    [
      "https://hooks.example.com/api/webhooks/wh_1/tok_1?n=O'Brien&x=a%20b",
      'https://hooks.example.com/api/webhooks/wh_1/tok_1?n=O%27Brien&x=a+b',
      true,
    ],
  ];
  for (const [signedUrl, receivedUrl, accepted] of cases) {
    const sent = signedForm(token, twilioSender.body, signedUrl);
    expect([signedUrl, twilio.validateRequest(token, signatureOf(sent), receivedUrl, params)]).toEqual([
      signedUrl,
      accepted,
    ]);
    expect([signedUrl, verify(sent, receivedUrl).ok]).toEqual([signedUrl, accepted]);
  }
});

it("signs the URL's query: a query changed on the way is refused", () => {
  const sent = signedForm(token, twilioSender.body, `${url}?robot=1`, '?robot=1');
  expect(verify(sent)).toEqual({ ok: true });
  expect(verify({ ...sent, query: '?robot=2' })).toEqual(MISMATCH);
});

it('accepts a JSON body signed through bodySHA256, as validateRequestWithBody does', () => {
  const json = JSON.stringify({ event: 'message.created', text: 'Hé ✓' });
  const sent = signedJson(token, json, url);
  expect(twilio.validateRequestWithBody(token, signatureOf(sent), url + sent.query, json)).toBe(true);
  expect(verify(sent)).toEqual({ ok: true });
});

it('refuses a JSON body that is not the one bodySHA256 names, or a bodySHA256 that is not the one signed', () => {
  const json = JSON.stringify({ event: 'message.created', amount: 1 });
  const forged = JSON.stringify({ event: 'message.created', amount: 1000 });
  const sent = signedJson(token, json, url);
  expect(twilio.validateRequestWithBody(token, signatureOf(sent), url + sent.query, forged)).toBe(false);
  expect(reasonOf(verify({ ...sent, body: forged }))).toBe('bodySHA256 query parameter does not match the body');
  const rehashed = { ...sent, body: forged, query: `?bodySHA256=${twilio.getExpectedBodyHash(forged)}` };
  expect(verify(rehashed)).toEqual(MISMATCH);
  // A signed bodySHA256 that is no SHA-256 digest.
  const query = '?bodySHA256=abc';
  const malformed = {
    ...sent,
    query,
    headers: { 'X-Twilio-Signature': twilio.getExpectedTwilioSignature(token, url + query, {}) },
  };
  expect(reasonOf(verify(malformed))).toBe('malformed bodySHA256 query parameter: expected hex digest of 32 bytes');
});

it('refuses a tampered form body', () => {
  const sent = twilioSender.signed(twilioSender.body, url, at);
  const tampered = twilioSender.body.replace('Hello', 'Hullo');
  expect(twilio.validateRequest(token, signatureOf(sent), url, formParams(tampered))).toBe(false);
  expect(verify({ ...sent, body: tampered })).toEqual(MISMATCH);
  expect(verify({ ...sent, body: `${twilioSender.body}&Extra=1` })).toEqual(MISMATCH);
});

it('refuses a signature made with another Auth Token', () => {
  expect(verify(twilioSender.signedWrongly(twilioSender.body, url, at))).toEqual(MISMATCH);
  expect(verify(signedJson('another-auth-token-of-32-chars!!', '{}', url))).toEqual(MISMATCH);
});

it('refuses a request without X-Twilio-Signature, or with one that is not a base64 SHA-1 digest', () => {
  const sent = twilioSender.signed(twilioSender.body, url, at);
  const { 'X-Twilio-Signature': _signature, ...unsigned } = sent.headers;
  expect(reasonOf(verify({ ...sent, headers: unsigned }))).toBe('missing X-Twilio-Signature header');
  const malformed = { ...sent, headers: { ...sent.headers, 'X-Twilio-Signature': 'c2lnbmF0dXJl' } };
  expect(reasonOf(verify(malformed))).toBe('malformed X-Twilio-Signature header: expected base64 digest of 20 bytes');
});

it("checks a Webhooks Rule's HMAC_SHA256 signature, named by X-Twilio-Webhooks-Signature-Settings", () => {
  const sent = signedForm(token, twilioSender.body, url, '', twilio.HMAC_SHA256);
  const algorithm = twilio.getSignatureAlgorithm(sent.headers['X-Twilio-Webhooks-Signature-Settings']);
  expect(twilio.validateRequest(token, signatureOf(sent), url, formParams(twilioSender.body), algorithm)).toBe(true);
  expect(verify(sent)).toEqual({ ok: true });
  // The same digest read as SHA-1 (the header dropped) is refused.
  const { 'X-Twilio-Webhooks-Signature-Settings': _settings, ...sha1 } = sent.headers;
  expect(reasonOf(verify({ ...sent, headers: sha1 }))).toMatch(/^malformed X-Twilio-Signature header/);
  const unknown = {
    ...sent,
    headers: { ...sent.headers, 'X-Twilio-Webhooks-Signature-Settings': 'algorithm=HMAC_MD5' },
  };
  expect(reasonOf(verify(unknown))).toBe(
    'unsupported algorithm in X-Twilio-Webhooks-Signature-Settings header: expected HMAC_SHA1 or HMAC_SHA256',
  );
});

it('makes no handshake', () => {
  expect(check.handshake).toBeUndefined();
  expect(SENDERS.twilio.handshake).toBeNull();
});

it('tells a form apart by its signed parameters: reordered or re-spelled, a capture is the same delivery', () => {
  const idOf = (body: string, query = '') => {
    const sent = signedForm(token, body, url + query, query);
    expect(verify(sent, url)).toEqual({ ok: true });
    return check.deliveryId!(asReceived(sent, url, at));
  };
  const first = idOf('Body=Hello+Ann&From=%2B15550100');
  expect(idOf('From=%2B15550100&Body=Hello%20Ann')).toBe(first);
  expect(idOf('Body=Hello+Bob&From=%2B15550100')).not.toBe(first);
  // A JSON body is told apart by its digest (its bodySHA256 is signed through the URL).
  const json = signedJson(token, '{"a":1}', url);
  expect(check.deliveryId!(asReceived(json, url, at))).toBeUndefined();
});

it('refuses a form of more fields than any form is read with, before reading it', () => {
  const many = Array.from({ length: FORM_MAX_FIELDS + 1 }, (_, i) => `f${i}=`).join('&');
  expect(reasonOf(verify(signedForm(token, many, url)))).toBe(`a form of more than ${FORM_MAX_FIELDS} fields`);
});

it('keeps the signature, its settings and the idempotency token with each delivery', () => {
  expect(check.headersRead(v)).toEqual([
    'x-twilio-signature',
    'x-twilio-webhooks-signature-settings',
    'i-twilio-idempotency-token',
  ]);
});
