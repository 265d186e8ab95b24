/**
 * GitLab: nothing is signed. `X-Gitlab-Token` carries the webhook's Secret token as it is and must
 * equal it (constant time); it is never kept with a delivery. The credential is a static token, so
 * an id header is as trustworthy as the rest of the request: deliveries are told apart by
 * `Idempotency-Key` (GitLab 17.4 and later: one per event, the same on a resend), else
 * `X-Gitlab-Event-UUID` (older GitLab: one per hook and job), else the body's digest.
 */
import { headerValue } from '../headers';
import { headerEquals, setting, type SenderCheck } from './check';

export const gitlab: SenderCheck = {
  verify: (v, { headers }) => headerEquals(headers, 'X-Gitlab-Token', setting(v, 'secret'), 'Secret token'),
  deliveryId: ({ headers }) => headerValue(headers, 'idempotency-key') ?? headerValue(headers, 'x-gitlab-event-uuid'),
  credentialHeaders: () => ['x-gitlab-token'],
  headersRead: () => [
    'x-gitlab-event',
    'idempotency-key',
    'x-gitlab-event-uuid',
    'x-gitlab-webhook-uuid',
    'x-gitlab-instance',
  ],
};
