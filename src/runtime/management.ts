/**
 * The management API's parts, made once a process (src/runtime/app.ts) from what the process
 * gives it: the workspaces, keys, audit log, steps versions and robots directory its routes share,
 * the robot's lifecycle (./robot-lifecycle.ts), who a caller is, the audit of writes, and what a
 * path names, found in the caller's workspace (src/api/lookups.ts).
 */
import type { ManagementDeps, ManagementInput } from '../api/deps';
import { namedIn } from '../api/lookups';
import { auditActor } from '../domain/workspaces';
import { StepsVersions } from '../robots/steps-versions';
import { AuditLog } from '../workspaces/audit';
import { identifyCaller } from '../workspaces/callers';
import { Keys } from '../workspaces/keys';
import { RobotDirectory } from '../workspaces/robot-directory';
import { Workspaces } from '../workspaces/workspaces';
import { robotLifecycle } from './robot-lifecycle';

export function managementParts(input: ManagementInput): ManagementDeps {
  const { models, config, authFailures, log, metrics } = input;
  const workspaces = new Workspaces(models);
  const keys = new Keys(models);
  const audit = new AuditLog(models, config.auditRetentionMs);
  return {
    ...input,
    lifecycle: robotLifecycle(input),
    versions: new StepsVersions(models),
    workspaces,
    keys,
    audit,
    directory: new RobotDirectory(models),
    identify: (ctx, op) =>
      identifyCaller(ctx, op, {
        adminToken: config.adminToken,
        authFailures,
        keys,
        workspaces,
        refused: (reason) => metrics?.credentialsRefused.inc({ reason }),
      }),
    find: namedIn(models, keys),
    recordWrite: ({ caller, action, resource, workspaceId, outcome }) =>
      audit.record(caller, action, resource, workspaceId, outcome),
    settleWrite: (entryId, { outcome, resource }) => audit.settle(entryId, outcome, resource),
    // The log line is the entry's last record: everything the entry would have held.
    unrecorded: ({ caller, action, resource, workspaceId, outcome }, err) => {
      metrics?.auditUnrecorded.inc();
      log.error('an audit entry was not recorded', {
        workspaceId,
        actor: auditActor(caller.actor),
        action,
        outcome,
        resource,
        address: caller.address,
        err,
      });
    },
  };
}
