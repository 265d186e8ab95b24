/**
 * A request's id as the service takes it from X-Request-Id (docs/operations.md, "Request ids"): the id
 * is written into every log line of its request and echoed on the answer, and whoever sends the request
 * chooses it. So one it chose must stay an id, not data: at most this many characters, of letters, digits
 * and `-_.:+/=` only (a UUID, a ULID, nginx's `$request_id`, base64 all fit), nothing that could break a
 * line, a JSON string or a terminal. Any other is replaced by one the service makes (a UUID, 36 characters).
 */
export const REQUEST_ID_MAX_CHARS = 128;
