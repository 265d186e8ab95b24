/** What the management API's routes are built from. */
import type { Client } from '@temporalio/client';
import type { BackgroundWork } from '../background';
import type { Config } from '../config';
import type { Logger } from '../log';
import type { Throttle } from '../throttle';
import type { TriggerCache } from '../receiver/trigger-cache';
import type { Models } from '../storage/models';

export interface ManagementDeps {
  config: Config;
  models: Models;
  temporal: Client;
  triggers: TriggerCache;
  log: Logger;
  /** Releases of held deliveries, which go on after the answer (src/background.ts). */
  background: BackgroundWork;
  /** Wrong admin tokens per client address (src/throttle.ts). */
  authFailures: Throttle;
  /** The OpenAPI document (src/api/openapi.ts), served at GET /api/openapi.json. */
  document: Record<string, unknown>;
}
