/**
 * A test delivery (POST /api/robots/:id/test-delivery, "Send test delivery" on the robot page):
 * a body in the robot's body format, the person's own or a sample: its app's sender's
 * (src/domain/senders/catalog.ts) when that is in the app's format, else the format's (src/domain/samples.ts),
 * taken as the receiver takes a delivery once it has checked the sender: the same workflow input,
 * the same start, held while the robot is paused. So its runs are real runs and its fields are
 * listed with the robot's.
 *
 * - It is marked `test` in the deliveries log, in the run history and on each run, and its
 *   workflow's summary says "Test delivery".
 * - Its dedup key is its own (`test:<delivery id>`): two tests with the same body make two runs.
 * - No signature is checked (the admin token sent it) and none is claimed: `verified` is null.
 * - Headers may be given (trigger rules read them); they are kept with it as a sender's would be.
 * - A robot stopped or never put to work refuses it (409), as a replay.
 */
import { testDeliveryKey } from '../domain/dedup';
import { deliveryWorkflowId } from '../domain/ids';
import { newId } from '../domain/secrets';
import { appSample, samplePaymentEvent, type SampleBody } from '../domain/samples';
import type { RobotDoc } from '../storage/documents';
import { acceptingRobot, deliveryInput } from './input';
import { refuseUnlessTakingDeliveries, startDelivery, type StartDeps } from './start';

/** What the person sends; each may be left out. */
interface TestDeliveryRequest {
  body?: string;
  contentType?: string;
  /** Headers it carries (kept with it, by lower-case name), for trigger rules that read them. */
  headers?: Record<string, string>;
}

/** Sends a test delivery to the robot; returns its delivery id. */
export async function sendTestDelivery(
  deps: StartDeps,
  robot: RobotDoc,
  request: TestDeliveryRequest,
): Promise<string> {
  refuseUnlessTakingDeliveries(robot);
  const identifier = robot.trigger.identifier;
  if (!identifier) throw new Error(`robot ${robot._id} takes deliveries but has no trigger identifier`);
  const accepting = await acceptingRobot(deps.models, robot);
  const sample: SampleBody =
    robot.trigger.kind === 'stripe'
      ? samplePaymentEvent(robot.trigger.events)
      : appSample(accepting.format, accepting.sender);
  const deliveryId = newId();
  const dedupKey = testDeliveryKey(deliveryId);
  const input = await deliveryInput(deps.models, deps.config.inlineBodyBytes, {
    deliveryId,
    robot: accepting,
    triggerIdentifier: identifier,
    receivedAt: new Date(),
    dedupKey,
    contentType: request.body === undefined ? sample.contentType : (request.contentType ?? null),
    bytes: Buffer.from(request.body ?? sample.body, 'utf8'),
    verified: null,
    headers: Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    test: true,
  });
  await startDelivery(deps, input, deliveryWorkflowId(identifier, dedupKey));
  return deliveryId;
}
