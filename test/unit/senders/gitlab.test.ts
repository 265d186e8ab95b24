/** GitLab (src/domain/senders/gitlab.ts), checked with the sender as test/support/senders/gitlab.ts plays it. */
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import type { Verdict } from '../../../src/domain/senders/parts';
import { checkOf } from '../../../src/domain/senders/checks';
const gitlab = checkOf('gitlab');
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { gitlabSecret as secret, gitlabSender } from '../../support/senders/gitlab';

const url = 'https://robots.example.com/api/webhooks/gitlab-test';
const at = new Date('2026-01-01T12:00:00Z');
const { body } = gitlabSender;
const v: CustomVerification = { scheme: 'gitlab', secret };

const received = (sent: SentRequest) => asReceived(sent, url, at);
const verify = (sent: SentRequest) => gitlab.verify(v, received(sent));
const without = (sent: SentRequest, ...names: string[]): SentRequest => ({
  ...sent,
  headers: Object.fromEntries(Object.entries(sent.headers).filter(([name]) => !names.includes(name))),
});

function expectRefused(verdict: Verdict, reason: RegExp) {
  if (verdict.ok) throw new Error('expected a refusal');
  expect(verdict.reason).toMatch(reason);
  expect(verdict.reason).not.toContain(secret);
}

describe('gitlab', () => {
  test('no time is signed and there is no handshake', () => {
    expect(SENDERS.gitlab.toleranceSeconds).toBeNull();
    expect(gitlabSender.toleranceSeconds).toBeNull();
    expect(gitlab.handshake).toBeUndefined();
  });

  test('a delivery with the Secret token in X-Gitlab-Token is accepted', () => {
    expect(verify(gitlabSender.signed(body, url, at))).toEqual({ ok: true });
  });

  test('a delivery with another token is refused, naming the header only', () => {
    expectRefused(verify(gitlabSender.signedWrongly(body, url, at)), /^X-Gitlab-Token header does not equal/);
  });

  test('a delivery without X-Gitlab-Token is refused, named', () => {
    expectRefused(
      verify(without(gitlabSender.signed(body, url, at), 'X-Gitlab-Token')),
      /^missing X-Gitlab-Token header$/,
    );
  });

  test('a token that only starts like the secret is refused', () => {
    const sent = gitlabSender.signed(body, url, at);
    expect(verify({ ...sent, headers: { ...sent.headers, 'X-Gitlab-Token': secret + 'x' } }).ok).toBe(false);
    expect(verify({ ...sent, headers: { ...sent.headers, 'X-Gitlab-Token': secret.slice(1) } }).ok).toBe(false);
  });

  test('the body is not signed: a changed body with the token is accepted (the credential is static)', () => {
    const sent = gitlabSender.signed(body, url, at);
    expect(verify({ ...sent, body: body.replace('main', 'dev') })).toEqual({ ok: true });
  });

  describe('the delivery id', () => {
    const idOf = (sent: SentRequest) => gitlab.deliveryId!(received(sent));

    test('is Idempotency-Key, the same when GitLab sends the event again', () => {
      const sent = gitlabSender.signed(body, url, at);
      expect(idOf(sent)).toBe(sent.headers['Idempotency-Key']);
      const resent = gitlabSender.signed(body, url, at);
      expect(resent.headers['X-Gitlab-Webhook-UUID']).not.toBe(sent.headers['X-Gitlab-Webhook-UUID']);
      expect(idOf(resent)).toBe(idOf(sent));
    });

    test('is X-Gitlab-Event-UUID without Idempotency-Key (GitLab before 17.4)', () => {
      const sent = without(gitlabSender.signed(body, url, at), 'Idempotency-Key');
      expect(idOf(sent)).toBe(sent.headers['X-Gitlab-Event-UUID']);
    });

    test('is undefined without either (the body digest then); X-Gitlab-Webhook-UUID is never one', () => {
      expect(
        idOf(without(gitlabSender.signed(body, url, at), 'Idempotency-Key', 'X-Gitlab-Event-UUID')),
      ).toBeUndefined();
    });
  });

  test('the headers kept never include X-Gitlab-Token (it is the secret)', () => {
    const read = gitlab.headersRead(v).sort();
    expect(read).toEqual([
      'idempotency-key',
      'x-gitlab-event',
      'x-gitlab-event-uuid',
      'x-gitlab-instance',
      'x-gitlab-webhook-uuid',
    ]);
    expect(read).not.toContain('x-gitlab-token');
  });
});
