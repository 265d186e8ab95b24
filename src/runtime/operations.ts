/**
 * Every route of the service's port, in one list: the management API's (src/api/routes.ts, declared with
 * their handlers in their resource's file), the codec endpoints' (src/codec/routes.ts) and the
 * webhook URL's (src/receiver/webhooks.ts), each mounted from its declaration. src/contract/openapi.ts renders
 * this list; test/openapi.test.ts checks it against the routes the service really has. The
 * metrics port's /metrics and /healthz are in docs/operations.md.
 */
import { CODEC_OPERATIONS } from '../codec/routes';
import { HANDSHAKE_OPERATION, WEBHOOK_OPERATIONS } from '../receiver/webhooks';
import type { Operation } from '../contract/operation';
import { MANAGEMENT_ROUTES } from '../api/routes';

export const OPERATIONS: readonly Operation[] = [
  ...CODEC_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  HANDSHAKE_OPERATION,
  ...MANAGEMENT_ROUTES,
];
