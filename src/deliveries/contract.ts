/**
 * The delivery workflow's contract with everything outside it that starts, lists or signals it
 * (intake and replay: start.ts; the release of held deliveries: hold.ts; the body sweep). The
 * workflow and its signal are used by reference to their definitions (workflows/delivery.ts), as
 * a Temporal client does: the definitions are loaded, never run, outside a worker.
 */
import { deliveryWorkflow, releaseSignal } from '../../workflows/delivery';
import { DELIVERY_OUTCOME, HELD, ROBOT_ID } from '../domain/search-attributes';

export { deliveryWorkflow, releaseSignal };

/** The memo every delivery workflow starts with: whose workflow it is. */
export interface DeliveryMemo {
  deliveryId: string;
  /** When the delivery arrived (ISO 8601): the order held deliveries are released in. Since 0.4.1. */
  receivedAt?: string;
}

/** The robot's held deliveries whose workflows still wait (a Temporal visibility query). */
export function heldDeliveriesQuery(robotId: string): string {
  return (
    `${ROBOT_ID.name} = "${robotId}" AND ${DELIVERY_OUTCOME.name} = "${HELD}" ` +
    `AND ExecutionStatus = "Running" AND WorkflowType = "${deliveryWorkflow.name}"`
  );
}
