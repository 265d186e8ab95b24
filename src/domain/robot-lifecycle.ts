/**
 * A robot's lifecycle, as one state machine: what each state does with a delivery, and which
 * transitions the API may ask for from which state. The spec's "put to work" is `start`.
 *
 * | state   | its URL answers | a delivery is               |
 * |---------|-----------------|-----------------------------|
 * | draft   | 404             | (it has no URL yet)         |
 * | at_work | 200             | run                         |
 * | paused  | 200             | held until resume or start  |
 * | stopped | 404             | refused                     |
 *
 * Leaving `paused` or `stopped` for `at_work` releases what was held, in arrival order.
 */
import type { RobotState } from './types';

export type RobotTransition = 'start' | 'stop' | 'pause' | 'resume';

/**
 * From which states each transition is allowed, where it leads, and why it is refused otherwise;
 * `offered`: the states whose robot the dashboard offers it to (a button), where it changes what
 * the robot does (asked again, an allowed transition changes nothing and answers the robot).
 */
export const ROBOT_TRANSITIONS: Record<
  RobotTransition,
  { from: readonly RobotState[]; to: RobotState; refused: string; offered: readonly RobotState[] }
> = {
  start: { from: ['draft', 'at_work', 'paused', 'stopped'], to: 'at_work', refused: '', offered: ['draft', 'stopped'] },
  pause: {
    from: ['at_work', 'paused'],
    to: 'paused',
    refused: 'only a robot at work can be paused',
    offered: ['at_work'],
  },
  resume: {
    from: ['paused', 'at_work'],
    to: 'at_work',
    refused: 'only a paused robot can be resumed',
    offered: ['paused'],
  },
  stop: { from: ['draft', 'at_work', 'paused', 'stopped'], to: 'stopped', refused: '', offered: ['at_work', 'paused'] },
};

/** The transitions the dashboard offers a robot in `state`, in the table's order. */
export const offeredTransitions = (state: RobotState): RobotTransition[] =>
  (Object.keys(ROBOT_TRANSITIONS) as RobotTransition[]).filter((t) => ROBOT_TRANSITIONS[t].offered.includes(state));

/** Whether the robot's URL takes deliveries (200): at work, or paused (they are held). */
export const takesDeliveries = (state: RobotState) => state === 'at_work' || state === 'paused';
/** Whether a delivery accepted now is held for a resume. */
export const holdsDeliveries = (state: RobotState) => state === 'paused';
/** Whether the robot runs what arrives. */
export const runsDeliveries = (state: RobotState) => state === 'at_work';
/** Whether this transition from `from` releases what was held (the robot leaves a pause or a stop for work). */
export const releasesHeld = (transition: RobotTransition, from: RobotState) =>
  ROBOT_TRANSITIONS[transition].to === 'at_work' && from !== 'at_work';
