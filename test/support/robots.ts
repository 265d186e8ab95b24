/**
 * A robot at work stored directly (no API, no Temporal): a custom app of the given body format and
 * a robot whose one compose step renders `template`, for the tests of activities and workflows.
 */
import { randomUUID } from 'node:crypto';
import type { BodyFormat } from '../../src/domain/types';
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
