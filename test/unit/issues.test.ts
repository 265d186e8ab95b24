/**
 * The rules of issues (src/domain/issues.ts, docs/issues.md): a refusal's reason read from its
 * check's text, a failed delivery's from its failure, a failed run's from its step; the issue's id;
 * its status from its times, so that a failure after a resolve reopens it; when a flush opened or
 * reopened it, and when that notifies.
 */
import {
  failedReason,
  issueChange,
  issueDeliveriesPath,
  issueStatus,
  notifiesNow,
  refusedReason,
  runFailedReason,
} from '../../src/domain/issues';
import { issueId } from '../../src/domain/issue-ids';
import { ISSUE_REASON_CHARS } from '../../src/domain/limits';
import { BODY_NOT_KEPT, OVER_CAP, UNPARSABLE_BODY } from '../../src/domain/types';

const at = (s: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, s));

describe('a refusal reason', () => {
  it.each([
    ['missing X-Hub-Signature-256 header', 'missing_header'],
    ['missing webhook-id header (or svix-id)', 'missing_header'],
    ['timestamp outside the 300-second tolerance', 'stale_time'],
    ['token expired', 'stale_time'],
    ['signature does not match the signing secret', 'signature'],
    ['malformed X-Signature header: expected base64', 'signature'],
    ['signed with the secret sha256:0123 a handshake gave, which no editor has confirmed', 'signature'],
  ])('%s is %s', (text, reason) => {
    expect(refusedReason(text)).toBe(reason);
  });
});

describe('a failed delivery reason', () => {
  it('names the failure, and the fan-out quota apart from the other caps', () => {
    expect(failedReason(UNPARSABLE_BODY, 'Unexpected token')).toBe('unparsable');
    expect(failedReason(BODY_NOT_KEPT, "the delivery's body is no longer kept")).toBe('body_gone');
    expect(failedReason(OVER_CAP, 'over CSV_MAX_ROWS: more than 10 rows')).toBe('over_cap');
    expect(failedReason(OVER_CAP, "over FANOUT_ROWS_PER_HOUR: this URL's CSV deliveries made 9 rows")).toBe(
      'over_quota',
    );
    expect(failedReason(OVER_CAP, 'over FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: 9 rows')).toBe('over_quota');
  });
});

it("names a failed run's step, cut to ISSUE_REASON_CHARS", () => {
  expect(runFailedReason('compose')).toBe('step:compose');
  const long = runFailedReason('x'.repeat(5000));
  expect(long).toHaveLength(ISSUE_REASON_CHARS);
  expect(long.startsWith('step:xxx')).toBe(true);
});

describe('the issue id', () => {
  it('is the same for the same robot, kind and reason, URL-safe, and differs when any differs', () => {
    const id = issueId('r1', 'refused', 'signature');
    expect(id).toMatch(/^iss_[0-9a-f]{24}$/);
    expect(issueId('r1', 'refused', 'signature')).toBe(id);
    expect(issueId('r2', 'refused', 'signature')).not.toBe(id);
    expect(issueId('r1', 'handshake', 'signature')).not.toBe(id);
    expect(issueId('r1', 'refused', 'stale_time')).not.toBe(id);
  });
});

describe('the status', () => {
  it('is open until someone acknowledges or resolves it', () => {
    expect(issueStatus({ lastSeen: at(5) })).toBe('open');
    expect(issueStatus({ lastSeen: at(5), acknowledgedAt: at(6) })).toBe('acknowledged');
    // Acknowledged stays so while the failure goes on.
    expect(issueStatus({ lastSeen: at(9), acknowledgedAt: at(6) })).toBe('acknowledged');
  });

  it('is resolved until a failure comes after the resolve, which reopens it', () => {
    expect(issueStatus({ lastSeen: at(5), resolvedAt: at(6) })).toBe('resolved');
    expect(issueStatus({ lastSeen: at(6), resolvedAt: at(6) })).toBe('resolved');
    expect(issueStatus({ lastSeen: at(7), resolvedAt: at(6) })).toBe('open');
    // An acknowledgement before the resolve is over: reopened is open, not acknowledged.
    expect(issueStatus({ lastSeen: at(7), acknowledgedAt: at(4), resolvedAt: at(6) })).toBe('open');
    expect(issueStatus({ lastSeen: at(9), acknowledgedAt: at(8), resolvedAt: at(6) })).toBe('acknowledged');
  });
});

describe('what a flush did', () => {
  it('opened an issue there was none of', () => {
    expect(issueChange(null, at(1))).toBe('opened');
  });

  it('reopened a resolved one only with a failure after the resolve', () => {
    const resolved = { lastSeen: at(5), resolvedAt: at(6) };
    expect(issueChange(resolved, at(7))).toBe('reopened');
    // Counted late: failures from before the resolve leave it resolved.
    expect(issueChange(resolved, at(6))).toBeNull();
  });

  it('neither opened nor reopened one open or acknowledged', () => {
    expect(issueChange({ lastSeen: at(5) }, at(7))).toBeNull();
    expect(issueChange({ lastSeen: at(5), acknowledgedAt: at(6) }, at(7))).toBeNull();
  });
});

it('notifies when never notified, or not within the interval', () => {
  expect(notifiesNow(undefined, at(0), 3_600_000)).toBe(true);
  expect(notifiesNow(at(0), at(59), 60_000)).toBe(false);
  expect(notifiesNow(at(0), new Date(at(0).getTime() + 60_000), 60_000)).toBe(true);
  expect(notifiesNow(at(0), at(0), 0)).toBe(true);
});

it('links an issue to what it counted', () => {
  expect(issueDeliveriesPath('r1', 'refused')).toBe('/api/robots/r1/deliveries?outcome=rejected');
  expect(issueDeliveriesPath('r1', 'handshake')).toBe('/api/robots/r1/deliveries?outcome=rejected');
  expect(issueDeliveriesPath('r1', 'failed')).toBe('/api/robots/r1/deliveries?outcome=failed');
  expect(issueDeliveriesPath('r1', 'run_failed')).toBe('/api/robots/r1/runs');
});
