/**
 * What a webhook URL answers when it refuses a request: one short line of text/plain that a sender's
 * console shows (GitHub's "Recent Deliveries", Stripe's event log, curl), so the person reading it
 * knows what to fix. The status stays the one senders and their retries depend on (Discord's 401,
 * Meta's 403, GoCardless' 498…); only the body says why.
 *
 * Said once, here, and never more than this to whoever sent it: no robot's name, no secret, no
 * internal detail. A URL that is unknown, whose robot is stopped or whose token is wrong or old is one
 * answer, so a stranger learns nothing by trying identifiers or tokens. The exact reason of a
 * signature refused is on the robot's deliveries log (and the inspector), where only its workspace
 * reads it. A handshake answered (Slack's challenge, Meta's, Discord's PING) is no refusal: it keeps
 * the body its sender expects.
 */
export const REFUSALS = {
  /** 404: an unknown identifier, a wrong or old token, a robot stopped or never put to work. */
  unknown: 'no webhook at this URL: it is unknown or its robot is stopped',
  /** The signature (or the credential a sender sends instead) does not match the app's secret. */
  signature: 'signature does not match: check the signing secret',
  /** The signed time is outside the sender's tolerance (a capture sent again, or a clock off). */
  stale: "signed time is too old or too far ahead: send a fresh delivery, or check the sender's clock",
  /** A header (or body field) the signature check reads is not there. */
  missing: "a header the signature check needs is missing: check the sender's webhook settings",
  /** A signature header (or field) is there but not in its sender's form. */
  malformed: "the signature is not in the sender's form: check the app's sender and the webhook settings",
  /** Meta's handshake with another verify token (403). */
  verifyToken: 'verify token does not match: check the verify token set on the app',
  /** 405: a method the URL does not take. */
  method: 'method not allowed: send POST or PUT',
  /** 408: the body came too slowly (BODY_IDLE_TIMEOUT_MS, REQUEST_TIMEOUT_MS). */
  slow: 'the body came too slowly: nothing was stored, send it again',
  /** 413: over MAX_BODY_BYTES. */
  tooLarge: 'body too large for this URL: nothing was stored',
  /** 429: past REJECTED_PER_MINUTE refusals for this URL this minute. */
  throttled: 'too many refused requests to this URL: try again after Retry-After seconds',
  /** 503: bodies in flight, Temporal or the database: the delivery was not stored. */
  unavailable: 'not stored: the service cannot take it now, send it again after Retry-After seconds',
} as const;

export type RefusalKind = keyof typeof REFUSALS;

/** The answer to a refusal thrown from elsewhere (the body budget, the throttle, the store), by its status. */
const BY_STATUS: Readonly<Record<number, RefusalKind>> = {
  404: 'unknown',
  405: 'method',
  408: 'slow',
  413: 'tooLarge',
  429: 'throttled',
  503: 'unavailable',
};

/** The line a webhook route's error of this status is answered with; none for a status not in the table. */
export function refusalByStatus(status: number): string | undefined {
  const kind = BY_STATUS[status];
  return kind && REFUSALS[kind];
}

/**
 * The line for a signature or handshake refused, from its reason (src/domain/senders/parts.ts: a
 * reason names headers and rules only) and its status. What cannot be told apart is "does not match".
 */
export function signatureRefusal(reason: string, status: number): string {
  if (status === 403) return REFUSALS.verifyToken;
  if (/^missing /.test(reason) || / without (a|an) /.test(reason) || /^no .* in the body$/.test(reason))
    return REFUSALS.missing;
  if (/^malformed /.test(reason) || /^unsupported /.test(reason)) return REFUSALS.malformed;
  if (/^timestamp outside /.test(reason) || reason === 'token expired') return REFUSALS.stale;
  return REFUSALS.signature;
}
