import { request } from 'node:http';
import { PassThrough } from 'node:stream';
import type { Verdict } from '../../../src/domain/senders/parts';
import { checkOf } from '../../../src/domain/senders/checks';
const basic = checkOf('basic');
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { basicAuthorization, basicSender, USERNAME } from '../../support/senders/basic';

const url = 'https://robots.example.com/api/webhooks/basic-test';
const at = new Date('2026-01-01T12:00:00Z');
const { verification, body } = basicSender;
const password = verification.secret;
const v = { scheme: 'basic' as const, username: USERNAME, secret: password };

const verify = (sent: SentRequest, settings = v) => basic.verify(settings, asReceived(sent, url, at));
const withAuthorization = (value: string): SentRequest => ({
  ...basicSender.signed(body, url, at),
  headers: { Authorization: value },
});
const deliveryIdOf = (headers: Record<string, string>) =>
  basic.deliveryId!(asReceived({ ...basicSender.signed(body, url, at), headers }, url, at));

/** The Authorization header Node's HTTP client sends for a URL with credentials in it (not sent anywhere). */
function sentByNode(credentialsUrl: string): string {
  const req = request(credentialsUrl, { method: 'POST', createConnection: () => new PassThrough() });
  const value = req.getHeader('authorization');
  req.on('error', () => undefined);
  req.destroy();
  if (typeof value !== 'string') throw new Error('no Authorization header');
  return value;
}

function reasonOf(verdict: Verdict): string {
  if (verdict.ok) throw new Error('expected a refusal');
  return verdict.reason;
}

/** A refusal's reason names the header and the rule, never the password or the credentials sent. */
function expectRefused(verdict: Verdict, reason: RegExp) {
  const text = reasonOf(verdict);
  expect(text).toMatch(reason);
  expect(text).not.toContain(password);
  expect(text).not.toMatch(/[A-Za-z0-9+/]{16}/);
}

describe('basic', () => {
  test('the user name and password set are accepted', () => {
    expect(verify(basicSender.signed(body, url, at))).toEqual({ ok: true });
  });

  test('what Node sends for https://user:password@host/… is accepted, percent-encoding decoded', () => {
    const encoded = encodeURIComponent(password);
    expect(sentByNode(`http://${USERNAME}:${encoded}@127.0.0.1:9/hook`)).toBe(basicAuthorization(USERNAME, password));
    expect(verify(withAuthorization(sentByNode(`http://${USERNAME}:${encoded}@127.0.0.1:9/hook`)))).toEqual({
      ok: true,
    });
    // A password with a colon and an @, as a sender's URL must carry them.
    const odd = { ...v, secret: `pa:ss@${password}` };
    const oddUrl = `http://${USERNAME}:${encodeURIComponent(odd.secret)}@127.0.0.1:9/hook`;
    expect(verify(withAuthorization(sentByNode(oddUrl)), odd)).toEqual({ ok: true });
  });

  test('the scheme name is case-insensitive', () => {
    const token = basicAuthorization(USERNAME, password).slice('Basic '.length);
    expect(verify(withAuthorization(`basic ${token}`))).toEqual({ ok: true });
    expect(verify(withAuthorization(`BASIC  ${token}`))).toEqual({ ok: true });
  });

  test('a wrong password or user name is refused, without saying which', () => {
    const reason = /^Authorization header: user name or password does not match$/;
    expectRefused(verify(basicSender.signedWrongly(body, url, at)), reason);
    expectRefused(verify(withAuthorization(basicAuthorization('someone-else', password))), reason);
    expectRefused(verify(withAuthorization(basicAuthorization(USERNAME, password + 'x'))), reason);
    expectRefused(verify(withAuthorization(basicAuthorization(`${USERNAME}:${password}`, ''))), reason);
  });

  test('a missing header is refused, named', () => {
    expectRefused(verify({ ...basicSender.signed(body, url, at), headers: {} }), /^missing Authorization header$/);
  });

  test('other credentials than Basic are refused', () => {
    expectRefused(verify(withAuthorization(`Bearer ${password}`)), /^Authorization header is not Basic credentials$/);
  });

  test.each([
    ['no credentials', 'Basic'],
    ['credentials that are not base64', 'Basic not*base64'],
    ['base64 without padding', 'Basic ' + Buffer.from('robot-sender:a').toString('base64').replace(/=+$/, '')],
    ['no colon in them', 'Basic ' + Buffer.from('robot-sender').toString('base64')],
    ['a second token', basicAuthorization(USERNAME, password) + ' extra'],
  ])('a header with %s is refused as malformed', (_case, value) => {
    expectRefused(verify(withAuthorization(value)), /^malformed Authorization header: expected Basic base64/);
  });

  test('deliveryId is Idempotency-Key, else webhook-id, else undefined', () => {
    const credentials = basicSender.signed(body, url, at).headers;
    expect(deliveryIdOf({ ...credentials, 'Idempotency-Key': 'k1', 'webhook-id': 'w1' })).toBe('k1');
    expect(deliveryIdOf({ ...credentials, 'webhook-id': 'w1' })).toBe('w1');
    expect(deliveryIdOf(credentials)).toBeUndefined();
  });

  test('headersRead is the id headers, never Authorization (it holds the password)', () => {
    expect(basic.headersRead(v)).toEqual(['idempotency-key', 'webhook-id']);
    expect(basic.headersRead(v)).not.toContain('authorization');
  });
});
