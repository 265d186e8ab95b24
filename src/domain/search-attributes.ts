/**
 * The search attributes the service sets on its workflows, so that an operator finds every
 * delivery and run of a robot in the Temporal Web UI (`RobotId="…"`):
 *
 * | name              | on                          | value                                   |
 * |-------------------|-----------------------------|-----------------------------------------|
 * | RobotId           | delivery and run workflows  | the robot's id                          |
 * | TriggerIdentifier | delivery and run workflows  | `custom:<uuid>` or `stripe:<uuid>`      |
 * | BodyFormat        | delivery and run workflows  | json, xml, csv or text (once parsed)    |
 * | DeliveryOutcome   | delivery workflows          | held (paused robot), then processed,    |
 *                                                       dropped or failed                       |
 *
 * All are Keyword. They must exist in the namespace before a workflow names them: the embedded
 * dev server is started with them, and the receiver and worker add any that are missing
 * (src/search-attribute-setup.ts). Imports only @temporalio/common, so workflows may import it.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const ROBOT_ID = defineSearchAttributeKey('RobotId', SearchAttributeType.KEYWORD);
export const TRIGGER_IDENTIFIER = defineSearchAttributeKey('TriggerIdentifier', SearchAttributeType.KEYWORD);
export const BODY_FORMAT = defineSearchAttributeKey('BodyFormat', SearchAttributeType.KEYWORD);
export const DELIVERY_OUTCOME = defineSearchAttributeKey('DeliveryOutcome', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [ROBOT_ID, TRIGGER_IDENTIFIER, BODY_FORMAT, DELIVERY_OUTCOME] as const;

/** What a delivery's workflows carry from their start: its robot and trigger (and, for runs, the format). */
export function deliveryAttributes(robotId: string, triggerIdentifier: string) {
  return [
    { key: ROBOT_ID, value: robotId },
    { key: TRIGGER_IDENTIFIER, value: triggerIdentifier },
  ];
}
