/**
 * What the sender tests read of a check's verdicts: a refusal's reason, the rule that it names
 * headers and rules only (never a secret, the body or a digest: src/domain/senders/parts.ts), and a
 * handshake's answer as the receiver sends it (src/receiver/webhooks.ts, `answerHandshake`).
 */
import type { RequestHeaders } from '../../../src/domain/headers';
import type {
  Handshake,
  HandshakeAnswer,
  SenderCheck,
  SenderSettings,
  Verdict,
} from '../../../src/domain/senders/parts';
import type { CustomVerification } from '../../../src/domain/senders/catalog';
import { senderHandshake, verifySender } from '../../../src/domain/senders/checks';
import { asReceived, type Answer, type SentRequest } from './fixture';

/** A family's verdict on a POST with these headers and body, received at `atSeconds` (for a family's own cases). */
export const verdictOf = (
  check: SenderCheck,
  v: SenderSettings,
  headers: RequestHeaders,
  body: string,
  atSeconds: number,
): Verdict =>
  check.verify(v, {
    method: 'POST',
    publicUrl: 'https://hooks.example.com/api/webhooks/custom:1/t',
    query: new URLSearchParams(),
    headers,
    body: Buffer.from(body, 'utf8'),
    receivedAtMs: atSeconds * 1000,
  });

/** A refusal's reason, or `accepted` (so that a test expecting a reason fails saying what came instead). */
export const reasonOf = (verdict: Verdict): string => (verdict.ok ? 'accepted' : verdict.reason);

/** A run of 16 hex digits or of 20 base64 characters: a digest, a key or a token, never in a reason. */
const DIGEST_LIKE = /[0-9a-f]{16}|[A-Za-z0-9+/]{20}/i;

/** Whatever of `secrets` (or a digest-like run) the reason holds: none, for every refusal. */
export function leaked(reason: string, secrets: readonly string[]): string[] {
  const held = secrets.filter((s) => s.length >= 4 && reason.includes(s));
  const digest = DIGEST_LIKE.exec(reason);
  return digest ? [...held, digest[0]] : held;
}

/** Expects a refusal whose reason matches, and that holds none of `secrets` and no digest. */
export function expectRefused(verdict: Verdict, reason: RegExp | string, ...secrets: string[]): void {
  const text = reasonOf(verdict);
  if (typeof reason === 'string') expect(text).toBe(reason);
  else expect(text).toMatch(reason);
  expect(leaked(text, secrets)).toEqual([]);
}

/** A handshake's answer; throws unless the handshake was answered (not refused, not none). */
export function answered(h: Handshake | null): { answer: HandshakeAnswer; learnedSecret?: string } {
  if (!h || !('answer' in h)) throw new Error(`expected an answer, got ${JSON.stringify(h)}`);
  return h;
}

/**
 * The answer as the receiver sends it: the answer's headers, nosniff, and a body typed as its
 * `contentType` (text/plain when it names none), as Koa writes the type; no body, no type.
 */
export function asAnswer(answer: HandshakeAnswer): Answer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
  headers['x-content-type-options'] = 'nosniff';
  if (answer.body !== undefined) headers['content-type'] = `${answer.contentType ?? 'text/plain'}; charset=utf-8`;
  return { status: answer.status, headers, body: answer.body ?? '' };
}

/**
 * The request as a handshake, the way the receiver looks (src/deliveries/intake.ts): an unsigned
 * handshake first, a signed one only once the sender's check passed; null when it is a delivery.
 */
export function handshakeOf(v: CustomVerification, sent: SentRequest, url: string, at = new Date()): Handshake | null {
  const req = asReceived(sent, url, at);
  const unsigned = senderHandshake(v, req, false);
  if (unsigned) return unsigned;
  return verifySender(v, req).ok ? senderHandshake(v, req, true) : null;
}
