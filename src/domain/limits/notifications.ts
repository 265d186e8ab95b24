/**
 * Notifications (docs/notifications.md): what one outbound request may cost the worker that sends it,
 * how long a notification is retried, and how much a workspace may set up. A channel's URL is chosen
 * by a person with a key, so every request to it is bounded as a stranger's server would be: it may
 * answer slowly, answer forever, or answer gigabytes; none of that may hold a worker. A channel that
 * is down is retried long enough to ride out a deploy or an outage of its receiver (about 17 minutes
 * in all), then the notification is given up on and the channel counted as failing.
 */

/**
 * One request to a channel, connect to last byte read: a receiver answers a notification at once
 * (Slack's incoming webhooks answer in well under a second); 5 s leaves room for a slow TLS handshake.
 */
export const NOTIFY_TIMEOUT_MS = 5000;
/**
 * What is read of a channel's answer: enough for its status line's reason and an error message in
 * `lastError`; nothing in it is used, so a receiver answering without end costs at most this.
 */
export const NOTIFY_RESPONSE_BYTES = 4096;
/**
 * A notification's attempts per channel (Temporal's retry policy, workflows/notify.ts): the first
 * retry after NOTIFY_BACKOFF_MS, each wait doubling up to NOTIFY_BACKOFF_MAX_MS. At the defaults,
 * 10 attempts over about 17 minutes: an outage of a receiver's deploy is ridden out, a dead URL is
 * given up on before the next notification of the same issue could be due (ISSUE_NOTIFY_INTERVAL).
 */
export const DEFAULT_NOTIFY_ATTEMPTS = 10;
export const DEFAULT_NOTIFY_BACKOFF_MS = 1000;
export const NOTIFY_BACKOFF_MAX_MS = 5 * 60_000;
/**
 * Notifications in a row that failed every attempt before a channel is shown `failing`: one is an
 * outage, three (hours apart, at one notification per issue per interval) is a channel that is gone.
 */
export const CHANNEL_FAILING_AFTER = 3;
/**
 * Channels of one workspace: a notification is sent to each of them, so this bounds what one
 * failure makes a worker send; a team has a handful (an on-call hook, a Slack room, a list).
 */
export const CHANNELS_PER_WORKSPACE = 20;
/** A channel's URL: longer than any webhook URL a service hands out (Slack's are about 80 characters). */
export const CHANNEL_URL_CHARS = 2000;
/** An email channel's address: RFC 5321's limit on a path. */
export const CHANNEL_EMAIL_CHARS = 254;
/** What is kept of a failed attempt's reason on its channel (`lastError`): a line, never the answer's body. */
export const CHANNEL_ERROR_CHARS = 300;
