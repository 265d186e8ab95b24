/**
 * The engine trusts only what this service sealed (docs/security.md): whoever can reach Temporal
 * could start a delivery workflow with an input of their own (`verified: true`, any robot). Every
 * payload the receivers and workers send is sealed with the payload key (src/temporal/payload-codec.ts),
 * and the worker's codec hands a workflow this value in place of any payload it did not seal; the
 * workflows refuse it (fail at once, with a warning in the worker's log), so such a start makes no
 * run and records nothing.
 */

/** The failure type of a workflow refused for it. */
export const UNSEALED_INPUT = 'UnsealedInput';

/** The key of the value given in place of a payload nobody sealed. */
const UNSEALED_KEY = 'unsealedPayloadRefused';

/** The value a workflow gets in place of a payload that was not sealed by this service. */
export const UNSEALED_STAND_IN = { [UNSEALED_KEY]: 'a payload not sealed by this service' } as const;

/** Whether a workflow's argument is the stand-in for a payload nobody sealed. */
export function isUnsealed(value: unknown): boolean {
  return typeof value === 'object' && value !== null && UNSEALED_KEY in value;
}

/**
 * The failure type of a workflow whose sealed input was sealed for another workflow: a copy of a
 * delivery's input (read from its history) in a start under another ID, or of a run's input in a
 * start that no delivery made. The seal proves who made the input, not where it belongs, so each
 * workflow checks its own ID against its input (workflows/refuse-unsealed.ts).
 */
export const COPIED_INPUT = 'CopiedInput';
