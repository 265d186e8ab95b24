import {
  holdsDeliveries,
  releasesHeld,
  ROBOT_TRANSITIONS,
  runsDeliveries,
  takesDeliveries,
} from '../../src/domain/robot-lifecycle';
import { ROBOT_STATES, type RobotState } from '../../src/domain/types';

describe("the robot's lifecycle", () => {
  it.each<[RobotState, boolean, boolean, boolean]>([
    ['draft', false, false, false],
    ['at_work', true, false, true],
    ['paused', true, true, false],
    ['stopped', false, false, false],
  ])('%s: takes %s, holds %s, runs %s', (state, takes, holds, runs) => {
    expect([takesDeliveries(state), holdsDeliveries(state), runsDeliveries(state)]).toEqual([takes, holds, runs]);
  });

  it('pauses only a robot at work (or paused), resumes only a paused one (or at work); start and stop from anywhere', () => {
    const allowed = (t: keyof typeof ROBOT_TRANSITIONS) =>
      ROBOT_STATES.filter((s) => ROBOT_TRANSITIONS[t].from.includes(s));
    expect(allowed('pause')).toEqual(['at_work', 'paused']);
    expect(allowed('resume')).toEqual(['at_work', 'paused']);
    expect(allowed('start')).toEqual([...ROBOT_STATES]);
    expect(allowed('stop')).toEqual([...ROBOT_STATES]);
  });

  it('releases what was held when a pause or a stop ends in work, never otherwise', () => {
    expect(releasesHeld('resume', 'paused')).toBe(true);
    expect(releasesHeld('start', 'stopped')).toBe(true);
    expect(releasesHeld('start', 'paused')).toBe(true);
    expect(releasesHeld('resume', 'at_work')).toBe(false);
    expect(releasesHeld('start', 'at_work')).toBe(false);
    expect(releasesHeld('pause', 'at_work')).toBe(false);
    expect(releasesHeld('stop', 'paused')).toBe(false);
  });
});
