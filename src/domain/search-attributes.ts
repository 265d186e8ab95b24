/**
 * The search attributes the service sets on its workflows, so that an operator finds every
 * delivery and run of a robot in the Temporal Web UI (`RobotId="…"`):
 *
 * | name              | on                          | value                                   |
 * |-------------------|-----------------------------|-----------------------------------------|
 * | RobotId           | delivery and run workflows  | the robot's id                          |
 * | WorkspaceId       | delivery and run workflows  | the robot's workspace (since 0.10)      |
 * | TriggerIdentifier | delivery workflows          | `custom:<uuid>` or `stripe:<uuid>`      |
 * | BodyFormat        | delivery workflows          | json, xml, csv or text                  |
 * | DeliveryOutcome   | delivery workflows          | held (paused robot), then processed,    |
 *                                                       dropped or failed                       |
 *
 * A run of a CSV (a child workflow) carries RobotId and WorkspaceId only: the rest is its delivery's, one click up
 * (`ParentWorkflowId`). Its three attributes cost the Temporal server about 3 ms per run, in every
 * round of the bench; RobotId alone showed no price the rounds could see (docs/benchmark.md).
 *
 * A delivery starts with the outcome most deliveries have, `processed` (or `held`), and the app's
 * body format: its workflow changes them only when they turn out otherwise, so the common delivery
 * costs no update of its search attributes (one visibility write fewer).
 *
 * All are Keyword. They must exist in the namespace before a workflow names them: the embedded
 * dev server is started with them, and the receiver and worker add any that are missing
 * (src/temporal/search-attribute-setup.ts). Imports only @temporalio/common, so workflows may import it.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const ROBOT_ID = defineSearchAttributeKey('RobotId', SearchAttributeType.KEYWORD);
export const WORKSPACE_ID = defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD);
const TRIGGER_IDENTIFIER = defineSearchAttributeKey('TriggerIdentifier', SearchAttributeType.KEYWORD);
export const BODY_FORMAT = defineSearchAttributeKey('BodyFormat', SearchAttributeType.KEYWORD);
export const DELIVERY_OUTCOME = defineSearchAttributeKey('DeliveryOutcome', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [ROBOT_ID, WORKSPACE_ID, TRIGGER_IDENTIFIER, BODY_FORMAT, DELIVERY_OUTCOME] as const;

/** The outcome a delivery is searchable by while it waits for a paused robot. */
export const HELD = 'held';
/** The outcome a delivery starts with when it is not held: most deliveries end so. */
const PROCESSED = 'processed';

/** What a run of a fan-out (a child workflow) is searchable by: its robot and its workspace. */
export function runAttributes(d: { robotId: string; workspaceId?: string }) {
  return [{ key: ROBOT_ID, value: d.robotId }, ...(d.workspaceId ? [{ key: WORKSPACE_ID, value: d.workspaceId }] : [])];
}

/** What a delivery's workflow starts with: its robot, trigger, body format and expected outcome. */
export function deliveryStartAttributes(d: {
  robotId: string;
  workspaceId?: string;
  triggerIdentifier: string;
  format?: string;
  held?: boolean;
}) {
  return [
    ...runAttributes(d),
    { key: TRIGGER_IDENTIFIER, value: d.triggerIdentifier },
    ...(d.format ? [{ key: BODY_FORMAT, value: d.format }] : []),
    { key: DELIVERY_OUTCOME, value: d.held ? HELD : PROCESSED },
  ];
}
