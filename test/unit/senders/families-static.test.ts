/**
 * The static family's own edge cases, once (src/domain/senders/families/static.ts): a header equal
 * to the secret (n8n's Header Auth, GitLab, Okta's Authentication field) and HTTP Basic credentials
 * (RFC 7617, as Node sends them for https://user:password@host/…). Nothing is signed; the header
 * carrying the credential is never kept. Every sender's fixture runs through ../senders.test.ts.
 */
import { request } from 'node:http';
import { PassThrough } from 'node:stream';
import { credentialHeaders, headersRead, senderDeliveryId } from '../../../src/domain/senders/checks';
import { staticCheck } from '../../../src/domain/senders/families/static';
import { asReceived } from '../../support/senders/fixture';
import { expectRefused, verdictOf } from '../../support/senders/verdicts';

const SECRET = 'static-secret-0123456789abcdef';

describe('a header equal to the secret', () => {
  const named = staticCheck({ family: 'static', header: { setting: 'header' } }, 'Header value');
  const v = { header: 'X-Webhook-Token', secret: SECRET };
  const sent = (headers: Record<string, string>, body = '{}') => verdictOf(named, v, headers, body, 0);

  test('is accepted whatever the case of the name set, and whatever the body (nothing is signed)', () => {
    expect(sent({ 'x-webhook-token': SECRET })).toEqual({ ok: true });
    expect(verdictOf(named, { ...v, header: 'X-WEBHOOK-TOKEN' }, { 'x-webhook-token': SECRET }, 'a', 0)).toEqual({
      ok: true,
    });
  });

  test('a value that only begins or ends like it is refused, the header named, neither value said', () => {
    for (const wrong of [SECRET.slice(0, -1), SECRET + 'x', SECRET.slice(1)])
      expectRefused(
        sent({ 'x-webhook-token': wrong }),
        /^X-Webhook-Token header does not equal the Header value$/,
        SECRET,
      );
  });

  test('a missing or empty header, or the secret in another header, is refused as missing', () => {
    for (const headers of [{}, { 'x-webhook-token': '' }, { authorization: SECRET }] as Array<Record<string, string>>)
      expectRefused(sent(headers), 'missing X-Webhook-Token header', SECRET);
  });

  test("a file's default header is read when the person names none (Okta's Authorization)", () => {
    const okta = staticCheck({ family: 'static', header: { setting: 'header', default: 'Authorization' } }, 'secret');
    expect(verdictOf(okta, { secret: SECRET }, { authorization: SECRET }, '{}', 0)).toEqual({ ok: true });
    expectRefused(
      verdictOf(okta, { secret: SECRET, header: 'X-Okta-Hook-Key' }, { authorization: SECRET }, '{}', 0),
      'missing X-Okta-Hook-Key header',
    );
    expect(okta.credentialHeaders!({ secret: SECRET, header: 'X-Okta-Hook-Key' })).toEqual(['x-okta-hook-key']);
  });

  test('the delivery id is the first id header of its file present; the credential header is never kept', () => {
    const app = { scheme: 'header-token' as const, ...v };
    const idOf = (headers: Record<string, string>) =>
      senderDeliveryId(
        app,
        asReceived({ method: 'POST', query: '', headers, body: '{}' }, 'https://h.example/x', new Date()),
      );
    expect(idOf({ 'Idempotency-Key': 'k1', 'webhook-id': 'w1' })).toBe('k1');
    expect(idOf({ 'webhook-id': 'w1' })).toBe('w1');
    expect(idOf({})).toBeUndefined();
    // The person may name an id header as the credential's: it is then never kept.
    expect(headersRead({ ...app, header: 'Webhook-ID' })).toEqual(['idempotency-key']);
    expect(credentialHeaders({ ...app, header: 'Webhook-ID' })).toEqual(['webhook-id']);
  });
});

describe('HTTP Basic credentials', () => {
  const basic = staticCheck({ family: 'basic' }, 'Password');
  const v = { username: 'robot-sender', secret: SECRET };
  const authorization = (user: string, password: string) =>
    `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
  const sent = (value: string, settings = v) => verdictOf(basic, settings, { authorization: value }, '{}', 0);

  /** The Authorization header Node's HTTP client sends for a URL with credentials in it (sent nowhere). */
  function sentByNode(user: string, password: string): string {
    const url = `http://${user}:${encodeURIComponent(password)}@127.0.0.1:9/hook`;
    const req = request(url, { method: 'POST', createConnection: () => new PassThrough() });
    const value = req.getHeader('authorization');
    req.on('error', () => undefined);
    req.destroy();
    if (typeof value !== 'string') throw new Error('no Authorization header');
    return value;
  }

  test('what Node sends for user:password@ is accepted, percent-encoding decoded, a colon and @ in the password', () => {
    expect(sent(sentByNode(v.username, v.secret))).toEqual({ ok: true });
    const odd = { ...v, secret: `pa:ss@${SECRET}` };
    expect(sent(sentByNode(odd.username, odd.secret), odd)).toEqual({ ok: true });
  });

  test('the scheme name is case-insensitive, and spaces after it are tolerated', () => {
    const token = authorization(v.username, v.secret).slice('Basic '.length);
    expect(sent(`basic ${token}`)).toEqual({ ok: true });
    expect(sent(`BASIC  ${token}`)).toEqual({ ok: true });
  });

  test('a wrong password or user name is refused without saying which (the user name ends at its first colon)', () => {
    const reason = 'Authorization header: user name or password does not match';
    for (const [user, password] of [
      ['someone-else', v.secret],
      [v.username, v.secret + 'x'],
      [`${v.username}:${v.secret}`, ''],
    ])
      expectRefused(sent(authorization(user, password)), reason, SECRET);
  });

  test.each([
    ['no credentials', 'Basic'],
    ['credentials that are not base64', 'Basic not*base64'],
    ['base64 without padding', 'Basic ' + Buffer.from('robot-sender:a').toString('base64').replace(/=+$/, '')],
    ['no colon in them', 'Basic ' + Buffer.from('robot-sender').toString('base64')],
    ['a second token', authorization('robot-sender', SECRET) + ' extra'],
  ])('a header with %s is refused as malformed', (_case, value) => {
    expectRefused(sent(value), /^malformed Authorization header: expected Basic base64/, SECRET);
  });

  test('other credentials than Basic, or none, are refused, the header named', () => {
    expectRefused(sent(`Bearer ${SECRET}`), 'Authorization header is not Basic credentials', SECRET);
    expectRefused(verdictOf(basic, v, {}, '{}', 0), 'missing Authorization header');
  });
});
