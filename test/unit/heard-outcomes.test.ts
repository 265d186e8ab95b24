/** Outcomes heard in a worker (src/history/heard-outcomes.ts): offered to the keeper until used, bounded. */
import { HEARD_OUTCOME_MS, HeardOutcomes } from '../../src/history/heard-outcomes';
import { HEARD_OUTCOMES_KEPT } from '../../src/domain/limits';

const at = (msAgo = 0) => ({ status: 'succeeded' as const, finishedAt: new Date(Date.now() - msAgo) });

function offered(heard: HeardOutcomes, robotId: string, use: (runId: string) => boolean = () => true): string[] {
  const seen: string[] = [];
  heard.offer(robotId, (runId) => {
    seen.push(runId);
    return use(runId);
  });
  return seen;
}

it("offers a robot's outcomes until the keeper uses them", () => {
  const heard = new HeardOutcomes();
  heard.heard('r1', 'd-00000000', at());
  heard.heard('r1', 'd-00000001', at());
  heard.heard('r2', 'e-00000000', at());
  // Run 1 is not placed yet: kept for the next step.
  expect(offered(heard, 'r1', (id) => id.endsWith('0'))).toEqual(['d-00000000', 'd-00000001']);
  expect(offered(heard, 'r1')).toEqual(['d-00000001']);
  expect(offered(heard, 'r1')).toEqual([]);
  expect(offered(heard, 'r2')).toEqual(['e-00000000']);
});

it('forgets an outcome nobody used within HEARD_OUTCOME_MS', () => {
  const heard = new HeardOutcomes();
  heard.heard('r1', 'old-00000000', at(HEARD_OUTCOME_MS + 1000));
  expect(offered(heard, 'r1', () => false)).toEqual(['old-00000000']);
  expect(offered(heard, 'r1', () => false)).toEqual([]);
});

it('says whether a robot was heard from lately', () => {
  const heard = new HeardOutcomes();
  expect(heard.heardWithin('r1', 60_000)).toBe(false);
  heard.heard('r1', 'd-00000000', at());
  expect(heard.heardWithin('r1', 60_000)).toBe(true);
});

it('keeps at most HEARD_OUTCOMES_KEPT, forgetting the robot heard from longest ago', () => {
  const heard = new HeardOutcomes();
  heard.heard('quiet', 'q-00000000', at());
  for (let i = 0; i < HEARD_OUTCOMES_KEPT; i++) heard.heard('busy', `b-${i}`, at());
  expect(offered(heard, 'quiet')).toEqual([]);
  expect(offered(heard, 'busy')).toHaveLength(HEARD_OUTCOMES_KEPT);
});
