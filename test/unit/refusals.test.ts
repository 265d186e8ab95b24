/**
 * What a webhook URL's refusals say (src/receiver/refusals.ts): one line each, from one table, and a
 * signature refused is told apart only as far as its sender can act on it.
 */
import { REFUSALS, refusalByStatus, signatureRefusal } from '../../src/receiver/refusals';
import { MISMATCH, outside } from '../../src/domain/senders/parts';

test('every answer is one short line', () => {
  for (const line of Object.values(REFUSALS)) {
    expect(line).not.toMatch(/[\r\n]/);
    expect(line.length).toBeLessThanOrEqual(100);
  }
});

test('a refusal thrown from elsewhere is answered by its status, and a status not in the table by nothing', () => {
  expect(refusalByStatus(404)).toBe('no webhook at this URL: it is unknown or its robot is stopped');
  expect(refusalByStatus(429)).toBe(REFUSALS.throttled);
  expect(refusalByStatus(503)).toBe(REFUSALS.unavailable);
  expect(refusalByStatus(413)).toBe(REFUSALS.tooLarge);
  expect(refusalByStatus(408)).toBe(REFUSALS.slow);
  expect(refusalByStatus(405)).toBe(REFUSALS.method);
  expect(refusalByStatus(400)).toBeUndefined();
});

test.each([
  [MISMATCH.ok ? '' : MISMATCH.reason, 400, REFUSALS.signature],
  ['signature does not match the signing secret', 401, REFUSALS.signature],
  ['signature does not match the signing secret', 498, REFUSALS.signature],
  ['Authorization header: user name or password does not match', 400, REFUSALS.signature],
  ['signed with the secret ab12 a handshake gave, which no editor has confirmed', 400, REFUSALS.signature],
  ['missing X-Hub-Signature-256 header', 400, REFUSALS.missing],
  ['missing Stripe-Signature header', 400, REFUSALS.missing],
  ['token without an iat time', 400, REFUSALS.missing],
  ['malformed X-Slack-Request-Timestamp header: expected unix seconds', 400, REFUSALS.malformed],
  [(outside(300) as { reason: string }).reason, 400, REFUSALS.stale],
  ['token expired', 401, REFUSALS.stale],
  ['hub.verify_token does not match', 403, REFUSALS.verifyToken],
  ['missing hub.verify_token', 403, REFUSALS.verifyToken],
])('%s (%i): %s', (reason, status, line) => {
  expect(signatureRefusal(reason, status)).toBe(line);
});
