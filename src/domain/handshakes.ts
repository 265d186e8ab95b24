/**
 * Handshakes: requests a sender makes to check a webhook URL before it sends events, which it
 * expects answered in its own way rather than with an empty 200. The receiver answers them only
 * for an app whose verification preset names that sender, and only once the request's signature
 * has verified (src/deliveries/intake.ts); it records them in the deliveries log as
 * `handshake`, and no run is made.
 *
 * | sender (preset) | handshake                                  | answered                          |
 * |-----------------|--------------------------------------------|-----------------------------------|
 * | slack           | signed JSON `{"type":"url_verification",   | 200, `text/plain`, the challenge  |
 * |                 | "challenge":"…"}` when the URL is set      |                                   |
 *
 * The other presets' senders need none: GitHub's `ping` event, Shopify and Standard Webhooks
 * senders accept a 200, and their pings run as ordinary deliveries (docs/api.md lists senders
 * without a preset whose handshakes are not answered).
 */
import type { VerificationScheme } from './verification';

/** Slack's challenges are a few dozen characters; anything longer is not a handshake. */
export const HANDSHAKE_CHALLENGE_MAX_CHARS = 1024;

/** The answer a handshake gets: 200 with this body, of this type. */
export interface HandshakeAnswer {
  contentType: 'text/plain';
  body: string;
}

/** Slack's URL verification: a JSON object whose `type` is `url_verification`, with a string `challenge`. */
function slackUrlVerification(body: Buffer): HandshakeAnswer | null {
  // Slack sends it small; a large body is an event, whatever it says, and is not parsed here.
  if (body.length > HANDSHAKE_CHALLENGE_MAX_CHARS * 2) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const { type, challenge } = parsed as { type?: unknown; challenge?: unknown };
  if (type !== 'url_verification' || typeof challenge !== 'string') return null;
  if (challenge.length === 0 || challenge.length > HANDSHAKE_CHALLENGE_MAX_CHARS) return null;
  return { contentType: 'text/plain', body: challenge };
}

/** The handshake answer for a verified request from the preset's sender, or null when it is a delivery. */
export function handshakeAnswer(scheme: VerificationScheme | 'stripe', body: Buffer): HandshakeAnswer | null {
  return scheme === 'slack' ? slackUrlVerification(body) : null;
}
