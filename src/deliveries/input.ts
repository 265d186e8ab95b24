/**
 * The one place a delivery workflow's input is made, for a request the receiver took, a replay and
 * a test delivery alike: the body inline or stored (body.ts), or a kept body a replay refers to, the
 * robot's name, body format and steps version as they are at acceptance, and `held` when the robot
 * is paused.
 */
import type { DeliveryInput, RequestCapture, RobotState } from '../domain/types';
import type { Models } from '../storage/models';
import type { RobotDoc } from '../storage/documents';
import { robotBodyReading, type BodyReading } from '../robots/settings';
import { deliveryBody } from './body';
import { holdsDeliveries } from '../domain/robot-lifecycle';

/** The robot as it is when a delivery is accepted: the delivery follows its body format and steps version. */
interface AcceptingRobot extends BodyReading {
  id: string;
  workspaceId: string;
  name: string;
  state: RobotState;
  stepsVersion: number;
}

/** A stored robot as a delivery asked for through the API (a replay, a test) is accepted by. */
export async function acceptingRobot(models: Models, robot: RobotDoc): Promise<AcceptingRobot> {
  const reading = await robotBodyReading(models, robot);
  return {
    id: robot._id,
    workspaceId: robot.workspaceId,
    name: robot.name,
    state: robot.state,
    ...reading,
    stepsVersion: robot.stepsVersion ?? 0,
  };
}

/** What is known of a delivery when it is accepted. */
interface AcceptedDelivery {
  deliveryId: string;
  robot: AcceptingRobot;
  triggerIdentifier: string;
  receivedAt: Date;
  dedupKey: string;
  contentType: string | null;
  /** The body's bytes, or (a replay of a large body) the kept body it refers to and its size. */
  bytes: Buffer | { size: number; kept: { ownerId: string; chunks: number } };
  verified: boolean | null;
  headers: Record<string, string>;
  /** The delivery this one replays. */
  replayOf?: string;
  /** A test delivery (./test-delivery.ts). */
  test?: boolean;
  /** The request as the inspector shows it (a replay: its original's). */
  request?: RequestCapture;
}

/** The delivery's workflow input; a body over `inlineBodyBytes` is stored first. */
export async function deliveryInput(
  models: Models,
  inlineBodyBytes: number,
  d: AcceptedDelivery,
): Promise<DeliveryInput> {
  return {
    deliveryId: d.deliveryId,
    robotId: d.robot.id,
    workspaceId: d.robot.workspaceId,
    triggerIdentifier: d.triggerIdentifier,
    receivedAt: d.receivedAt.toISOString(),
    dedupKey: d.dedupKey,
    contentType: d.contentType,
    size: Buffer.isBuffer(d.bytes) ? d.bytes.length : d.bytes.size,
    body: Buffer.isBuffer(d.bytes)
      ? await deliveryBody(models, inlineBodyBytes, d.deliveryId, d.bytes)
      : { kind: 'stored', chunks: d.bytes.kept.chunks, ownerId: d.bytes.kept.ownerId },
    verified: d.verified,
    robotName: d.robot.name,
    format: d.robot.format,
    ...(d.robot.formEnvelope ? { formEnvelope: true as const } : {}),
    stepsVersion: d.robot.stepsVersion,
    headers: d.headers,
    ...(d.replayOf ? { replayOf: d.replayOf } : {}),
    ...(d.test ? { test: true as const } : {}),
    ...(d.request ? { request: d.request } : {}),
    ...(holdsDeliveries(d.robot.state) ? { held: true } : {}),
  };
}
