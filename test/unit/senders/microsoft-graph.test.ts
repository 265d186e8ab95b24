/**
 * Microsoft Graph's check (src/domain/senders/microsoft-graph.ts): every notification's clientState,
 * lifecycle notifications the same way, and the validationToken handshake as Graph checks it.
 */
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import { HANDSHAKE_CHALLENGE_MAX_CHARS } from '../../../src/domain/senders/parts';
import { microsoftGraph as check } from '../../../src/domain/senders/families/microsoft-graph';
import { senderTriggerData } from '../../../src/domain/senders/checks';
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { graphLifecycle, graphValidationToken, microsoftGraphSender } from '../../support/senders/microsoft-graph';
import { asAnswer, reasonOf } from '../../support/senders/verdicts';

const url = 'https://hooks.example.com/api/webhooks/wh_1/tok_1';
const at = new Date();
const v = microsoftGraphSender.verification as unknown as CustomVerification;
const clientState = microsoftGraphSender.verification.secret;
const verify = (sent: SentRequest, when = at) => check.verify(v, asReceived(sent, url, when));
const handshake = (sent: SentRequest) => check.handshake!.of(v, asReceived(sent, url, at));
const post = (body: unknown): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const batch = JSON.parse(microsoftGraphSender.body) as { value: Array<Record<string, unknown>> };

it('accepts a batch whose every notification carries the clientState, at any time', () => {
  expect(verify(microsoftGraphSender.signed(microsoftGraphSender.body, url, at))).toEqual({ ok: true });
  expect(SENDERS['microsoft-graph'].toleranceSeconds).toBeNull();
  const late = new Date(at.getTime() + 86_400_000);
  expect(verify(microsoftGraphSender.signed(microsoftGraphSender.body, url, at), late)).toEqual({ ok: true });
});

it('accepts lifecycle notifications (same clientState), which run as deliveries', () => {
  for (const event of ['reauthorizationRequired', 'subscriptionRemoved', 'missed'])
    expect(verify(post({ value: [graphLifecycle(clientState, event)] }))).toEqual({ ok: true });
  expect(verify(post({ value: [graphLifecycle('another-client-state-of-32-chars')] }))).toEqual({
    ok: false,
    reason: 'notification 0: clientState does not match the secret',
  });
});

it('refuses a batch with another clientState, in any of its notifications', () => {
  expect(reasonOf(verify(microsoftGraphSender.signedWrongly(microsoftGraphSender.body, url, at)))).toBe(
    'notification 0: clientState does not match the secret',
  );
  const second = { value: [batch.value[0], { ...batch.value[1], clientState: `${clientState}x` }] };
  expect(reasonOf(verify(post(second)))).toBe('notification 1: clientState does not match the secret');
});

it('refuses a notification without a clientState', () => {
  const { clientState: _state, ...stateless } = batch.value[0];
  expect(reasonOf(verify(post({ value: [batch.value[0], stateless] })))).toBe('notification 1 has no clientState');
  expect(reasonOf(verify(post({ value: [{ ...batch.value[0], clientState: 1 }] })))).toBe(
    'notification 0 has no clientState',
  );
  for (const item of [null, 'text', [clientState]])
    expect(reasonOf(verify(post({ value: [item] })))).toBe('notification 0 has no clientState');
});

it('refuses a body that is no batch of notifications', () => {
  const reason = 'body is not a JSON object with a value array of notifications';
  for (const body of ['not json', '', '[]', JSON.stringify(batch.value), '{"value":{}}', '{"clientState":"x"}'])
    expect(reasonOf(verify(post(body)))).toBe(reason);
  expect(reasonOf(verify(post({ value: [] })))).toBe('the value array has no notifications');
});

it('signs nothing but the clientState: a body changed elsewhere passes (Graph gives no more to check)', () => {
  const changed = { value: [{ ...batch.value[0], changeType: 'deleted' }] };
  expect(verify(post(changed))).toEqual({ ok: true });
});

it("answers Graph's validation POST with the token, decoded, as text, before any check", () => {
  expect(check.handshake!.signed).toBe(false);
  expect(SENDERS['microsoft-graph'].handshake?.method).toBe('POST');
  const request = microsoftGraphSender.handshake!.request(url, at);
  expect(request.query).not.toContain(' ');
  const answered = handshake(request);
  expect(answered).toEqual({ answer: { status: 200, contentType: 'text/plain', body: graphValidationToken } });
  if (!answered || !('answer' in answered)) throw new Error('expected an answer');
  expect(() => microsoftGraphSender.handshake!.accepts(asAnswer(answered.answer))).not.toThrow();
  // With a body too.
  expect(handshake({ ...request, body: '{}' })).toEqual(answered);
});

it('takes nothing else for a handshake: a GET, no, an empty or an overlong token, a notification', () => {
  const request = microsoftGraphSender.handshake!.request(url, at);
  const others: SentRequest[] = [
    { ...request, method: 'GET' },
    { ...request, query: '' },
    { ...request, query: '?validationToken=' },
    { ...request, query: `?validationToken=${'x'.repeat(HANDSHAKE_CHALLENGE_MAX_CHARS + 1)}` },
    microsoftGraphSender.signed(microsoftGraphSender.body, url, at),
  ];
  for (const sent of others) expect(handshake(sent)).toBeNull();
});

it('names no delivery id (the same body is one delivery within the body window) and keeps no header', () => {
  expect(check.deliveryId).toBeUndefined();
  expect(SENDERS['microsoft-graph'].bodyWindowSeconds).toBe(60);
  expect(check.headersRead(v)).toEqual([]);
});

it("leaves the clientState (the app's secret) out of each notification's trigger data (review R2)", () => {
  const notification = { subscriptionId: 's-1', clientState, changeType: 'created', resource: 'me/messages/1' };
  const data = senderTriggerData('microsoft-graph', { value: [notification, 'odd'] });
  expect(data).toEqual({ value: [{ subscriptionId: 's-1', changeType: 'created', resource: 'me/messages/1' }, 'odd'] });
  expect(JSON.stringify(data)).not.toContain(clientState);
  expect(senderTriggerData('github', { clientState })).toEqual({ clientState });
});
