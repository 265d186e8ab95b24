/**
 * A sender as the tests play it: the app's verification, a delivery signed the way the sender
 * signs (with the sender's own library wherever one exists, else its published algorithm), and its
 * handshake with the check the sender makes of our answer. One fixture per sender in this folder;
 * test/unit/senders/<name>.test.ts checks the sender's check (src/domain/senders/<name>.ts) with
 * it, and test/senders.test.ts sends every fixture through the real receiver.
 */
import { execFileSync } from 'node:child_process';
import type { SenderName } from '../../../src/domain/senders/catalog';
import type { SenderRequest } from '../../../src/domain/senders/parts';

/** A request as the sender sends it. */
export interface SentRequest {
  method: 'GET' | 'HEAD' | 'POST';
  /** Appended to the webhook URL as it is (`?a=b`), or ''. */
  query: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** An answer as the sender reads it. */
export interface Answer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export interface SenderFixture {
  name: SenderName;
  /** Another way the same sender sends (GitHub's form content type, Slack's slash commands). */
  variant?: string;
  /** The `verification` of the app, as the API takes it (`{ scheme, ...settings }`). */
  verification: Record<string, string>;
  /** A delivery's body, and the trigger data a run of it must have. */
  body: string;
  triggerData: unknown;
  /** Where the body carries the time it was signed at (Linear's): the trigger data of a delivery as sent. */
  triggerDataOf?(sent: SentRequest): unknown;
  /** The delivery signed at `at` for the webhook URL `url` (BASE_URL + path, no query). */
  signed(body: string, url: string, at: Date): SentRequest;
  /** The same signed with a wrong key (another secret, another key pair). */
  signedWrongly(body: string, url: string, at: Date): SentRequest;
  /** When the sender signs a time: how far off a signature must be to be refused (seconds). */
  toleranceSeconds: number | null;
  /**
   * Its handshake, when it makes one: the request (to `url`), and `accepts` throws unless the
   * answer is what the sender (its library, or its documented check) expects. A sender that gives
   * its secret in the handshake (Asana, Notion) has it first: `signed` uses that secret.
   */
  handshake?: { request(url: string, at: Date): SentRequest; accepts(answer: Answer): void };
  /**
   * Where the sender's own library verifies (and cannot sign): it accepts the delivery as `signed`
   * made it, sent to `url` (throws otherwise). Proves the fixture signs as the sender does.
   */
  sdkAccepts?(sent: SentRequest, url: string): void | Promise<void>;
}

/** The request as the receiver reads it, sent to `url` (BASE_URL + path) and received at `at`. */
export function asReceived(sent: SentRequest, url: string, at: Date): SenderRequest {
  const publicUrl = url + sent.query;
  const headers = Object.fromEntries(Object.entries(sent.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    method: sent.method,
    publicUrl,
    query: new URL(publicUrl).searchParams,
    headers,
    body: Buffer.isBuffer(sent.body) ? sent.body : Buffer.from(sent.body, 'utf8'),
    receivedAtMs: at.getTime(),
  };
}

/** A secret made at run time (so nothing here looks like a real one), of `length` characters. */
export const madeSecret = (label: string, length = 32) => (label + '-' + 'x'.repeat(length)).slice(0, length);

/**
 * Runs a sender's own library where jest cannot load it (ES modules only, or an entry point this
 * project's module resolution does not reach) in a child `node`: `script` reads `{ secret, body
 * (base64), signature }` from its stdin and throws when the library refuses, and so does this.
 */
export function acceptedInChildNode(
  script: string,
  signed: { secret: string; body: string | Buffer; signature: string },
) {
  const input = { ...signed, body: Buffer.from(signed.body).toString('base64') };
  execFileSync(process.execPath, ['-e', script], { input: JSON.stringify(input), cwd: __dirname, stdio: 'pipe' });
}
