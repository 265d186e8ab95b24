/**
 * The receiver's delivery taker (src/deliveries/intake.ts) as the process runs it: what it takes
 * recorded in the history's slots, and a secret a sender's handshake gives kept pending on its URL
 * (src/robots/handshake-secrets.ts), in the URL's workspace's audit log first, then told to this
 * receiver's trigger cache. Made once a process (src/runtime/app.ts), handed to the webhook router.
 */
import type { Client } from '@temporalio/client';
import type { Config } from '../core/config';
import type { Logger } from '../core/log';
import { DeliveryTaker } from '../deliveries/intake';
import { DeliveryRecorder } from '../history/slots';
import type { IssueCounter } from '../issues/counter';
import type { TriggerCache } from '../receiver/trigger-cache';
import { offerHandshakeSecret } from '../robots/handshake-secrets';
import type { Models } from '../storage/models';
import { recordSenderEvent } from '../workspaces/audit';

/** The audit log's action for a secret a handshake gave (kept pending on the URL). */
const SECRET_FROM_HANDSHAKE = 'robot.secret-from-handshake';

interface TakerDeps {
  config: Config;
  models: Models;
  temporal: Client;
  triggers: TriggerCache;
  log: Logger;
  /** The process's issue counter: refusals, throttled ones and refused handshakes count in issues. */
  issues: IssueCounter;
}

export function deliveryTaker(deps: TakerDeps): DeliveryTaker {
  const { config, models, triggers, log } = deps;
  const keys = { models, secretsKey: config.secretsKey, secretsKeys: config.secretsKeys };
  return new DeliveryTaker({
    ...deps,
    deliveries: new DeliveryRecorder(models, { issues: deps.issues }),
    async offerSecret(trigger, secret, from) {
      const { robotId, workspaceId } = trigger;
      // In the URL's workspace's audit log before it is kept (src/workspaces/audit.ts): never kept unrecorded.
      const event = { workspaceId, address: from.address, action: SECRET_FROM_HANDSHAKE, resource: `robot:${robotId}` };
      const recorded = () => recordSenderEvent(models, config.auditRetentionMs, event);
      const offered = await offerHandshakeSecret(keys, robotId, secret, from, recorded);
      if (offered !== 'pending') return offered;
      // Kept: the answer goes out whatever happens here; other receivers take it within the stamp's poll.
      await triggers
        .forget(trigger.identifier)
        .catch((err: Error) => log.warn('a pending secret was kept, but the trigger cache could not be told', { err }));
      return offered;
    },
  });
}
