/**
 * A fixed header: the header the person names carries the value they chose (a static credential,
 * compared in constant time). Nothing is signed, so a delivery is told apart by its
 * `Idempotency-Key`, else its `webhook-id` header. The credential header is never kept with a
 * delivery: its value is the secret.
 */
import { headerValue, type RequestHeaders } from '../headers';
import { headerEquals, setting, type SenderCheck } from './check';

/** The id headers of a sender with a static credential, in the order they are read. */
export const ID_HEADERS = ['idempotency-key', 'webhook-id'];

/** The sender's id of the delivery: `Idempotency-Key`, else `webhook-id`. */
export const idHeader = (headers: RequestHeaders): string | undefined =>
  headerValue(headers, 'idempotency-key') ?? headerValue(headers, 'webhook-id');

export const headerToken: SenderCheck = {
  verify: (v, { headers }) => headerEquals(headers, setting(v, 'header'), setting(v, 'secret'), 'value set'),
  deliveryId: ({ headers }) => idHeader(headers),
  // The credential header is left out even if it is one of the id headers.
  headersRead: (v) => ID_HEADERS.filter((name) => name !== setting(v, 'header').toLowerCase()),
  credentialHeaders: (v) => [setting(v, 'header').toLowerCase()],
};
