/**
 * GitLab: nothing is signed. `X-Gitlab-Token` carries the webhook's Secret token as it is and must
 * equal it (constant time); it is never kept with a delivery. The credential is a static token, so
 * an id header is as trustworthy as the rest of the request: deliveries are told apart by
 * `Idempotency-Key` (GitLab 17.4 and later: one per event, the same on a resend), else
 * `X-Gitlab-Event-UUID` (older GitLab: one per hook and job), else the body's digest.
 */
import { headerValue } from '../headers';
import { fail, OK, sameText, setting, type SenderCheck } from './check';

export const gitlab: SenderCheck = {
  verify(v, { headers }) {
    const given = headerValue(headers, 'x-gitlab-token');
    if (given === undefined) return fail('missing X-Gitlab-Token header');
    return sameText(given, setting(v, 'secret')) ? OK : fail('X-Gitlab-Token header does not equal the Secret token');
  },
  deliveryId: ({ headers }) => headerValue(headers, 'idempotency-key') ?? headerValue(headers, 'x-gitlab-event-uuid'),
  headersRead: () => [
    'x-gitlab-event',
    'idempotency-key',
    'x-gitlab-event-uuid',
    'x-gitlab-webhook-uuid',
    'x-gitlab-instance',
  ],
};
