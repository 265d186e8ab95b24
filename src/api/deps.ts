/** What the management API's routes are built from, and the parts they share (made once per process). */
import type { Client } from '@temporalio/client';
import type { BackgroundWork } from '../core/background';
import type { Config } from '../core/config';
import type { Logger } from '../core/log';
import type { ReceiverMetrics } from '../core/metrics';
import type { Throttle } from '../core/throttle';
import type { TriggerCache } from '../receiver/trigger-cache';
import type { RobotLifecycle } from '../robots/lifecycle';
import type { StepsVersions } from '../robots/steps-versions';
import type { Models } from '../storage/models';
import { routesFor, type ApiRoute, type RouteGuard } from '../contract/route';
import type { AuditLog } from '../workspaces/audit';
import type { Keys } from '../workspaces/keys';
import type { RobotDirectory } from '../workspaces/robot-directory';
import type { Workspaces } from '../workspaces/workspaces';
import type { NamedDocs } from './lookups';

/** What the process gives the management API (src/runtime/app.ts). */
export interface ManagementInput {
  config: Config;
  models: Models;
  temporal: Client;
  triggers: TriggerCache;
  log: Logger;
  /** Releases of held deliveries, which go on after the answer (src/core/background.ts). */
  background: BackgroundWork;
  /** Wrong credentials per client address (src/core/throttle.ts). */
  authFailures: Throttle;
  /** The OpenAPI document (src/contract/openapi.ts), served at GET /api/openapi.json. */
  document: Record<string, unknown>;
  /** The receiver's metrics (refused credentials, audit entries never recorded, channel tests); none when not given. */
  metrics?: Pick<ReceiverMetrics, 'credentialsRefused' | 'auditUnrecorded' | 'notifications'>;
}

/** What every route's handler is given: the process's parts, and those the routes share. */
export interface ManagementDeps extends ManagementInput, RouteGuard {
  workspaces: Workspaces;
  keys: Keys;
  audit: AuditLog;
  /** The robots page's directory (src/workspaces/robot-directory.ts). */
  directory: RobotDirectory;
  /** The robot's lifecycle (src/robots/lifecycle.ts), wired to the receivers and the release of held deliveries. */
  lifecycle: RobotLifecycle;
  /** Steps versions, kept once read (src/robots/steps-versions.ts). */
  versions: StepsVersions;
}

/**
 * Gives a management operation (src/contract/management.ts) its handler, typed from its declaration:
 * what its path names is handed to it as its document (./lookups.ts).
 */
export const route = routesFor<ManagementDeps, NamedDocs>();
export type ManagementRoute = ApiRoute<ManagementDeps>;
