/**
 * A robot at work stored directly (no API, no Temporal): a custom app of the given body format and
 * a robot whose one compose step renders `template`, for the tests of activities and workflows.
 */
import { randomUUID } from 'node:crypto';
import type { BodyFormat, RobotState } from '../../src/domain/types';
import type { RobotDoc } from '../../src/storage/documents';
import { DEFAULT_WORKSPACE } from '../../src/domain/workspaces';
import type { Models } from '../../src/storage/models';

export async function robotAtWork(models: Models, bodyFormat: BodyFormat, template: unknown): Promise<string> {
  const appId = randomUUID();
  const robotId = randomUUID();
  await models.App.create({
    _id: appId,
    workspaceId: DEFAULT_WORKSPACE,
    name: 'A',
    supportsInboundTrigger: true,
    bodyFormat,
    createdAt: new Date(),
  });
  await models.Robot.create({
    _id: robotId,
    workspaceId: DEFAULT_WORKSPACE,
    name: 'R',
    state: 'at_work',
    trigger: { kind: 'custom', appId, connectionId: null, identifier: `custom:${randomUUID()}`, token: 't' },
    steps: [{ name: 'compose', type: 'compose', templateJson: JSON.stringify(template) }],
    createdAt: new Date(),
  });
  return robotId;
}

/** A draft-like robot document of the workspace on an app, as the lists' tests store thousands at once. */
export const storedRobotDoc = (workspaceId: string, appId: string, name: string, state: RobotState, createdAt: Date) =>
  ({
    _id: randomUUID(),
    workspaceId,
    name,
    state,
    trigger: { kind: 'custom', appId, connectionId: null, identifier: null },
    steps: [{ name: 's', type: 'compose', templateJson: '{}' }],
    stepsVersion: 0,
    rulesJson: null,
    heldSince: null,
    createdAt,
  }) satisfies RobotDoc as RobotDoc;
