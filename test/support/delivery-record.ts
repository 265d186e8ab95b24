/** A delivery record written straight to the history (no workflow), for tests of what the history lists. */
import { newId } from '../../src/domain/secrets';
import type { NewDelivery } from '../../src/history/slots';

/** A dropped JSON delivery of the robot, with `fields` over it. */
export function deliveryRecordOf(robotId: string, fields: Partial<NewDelivery> = {}): NewDelivery {
  return {
    _id: newId(),
    robotId,
    triggerIdentifier: 'custom:x',
    workflowId: null,
    dedupKey: `k:${newId()}`,
    receivedAt: new Date(),
    format: 'json',
    contentType: null,
    size: 1,
    outcome: 'dropped',
    runCount: 0,
    reason: 'test',
    error: null,
    verified: null,
    stepCount: 0,
    previewsJson: '[]',
    ...fields,
  };
}
