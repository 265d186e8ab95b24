/**
 * Bodies are encrypted in Temporal: every payload the client and the worker send (workflow inputs
 * with their bodies, memos, activity inputs and results, step outputs) is sealed with AES-256-GCM
 * before it leaves the process, so Temporal's store, its Web UI and `temporal workflow show` hold
 * ciphertext. Search attributes are not payloads and stay readable (they hold ids and outcomes).
 *
 * - The key changes every week by itself (PAYLOAD_KEY_PERIOD_MS): the week's key is derived from
 *   SECRETS_KEY and the week's number (`derivedKey(…, 'payload-codec:<week>')`), so no key seals
 *   more than a week of payloads (AES-GCM with random 96-bit IVs is good for about 2^32 seals a
 *   key: at 1,000 seals a second, seven weeks). Its id, `w<week>.<16 hex digits of its SHA-256>`, is
 *   in each payload's metadata, and any week's key is derived again to open it: a payload sealed
 *   weeks ago (a delivery held for a paused robot) is still read. After SECRETS_KEY is changed,
 *   payloads sealed with one named in SECRETS_KEY_PREVIOUS are read too. Payloads sealed before
 *   0.7 name a key without a week (`derivedKey(…, 'payload-codec')`), which is still read.
 * - A payload that is not sealed (recorded before 0.5, or made by someone who reached Temporal
 *   without the key) is read as it is by the receivers and the codec endpoints; the workers'
 *   codec (`sealedOnly`) hands a workflow UNSEALED_STAND_IN instead, which it refuses
 *   (src/domain/unsealed.ts), unless ACCEPT_UNSEALED_PAYLOADS is on (histories from before 0.5).
 * - An operator reads them decoded through the receiver's codec endpoints (src/codec/routes.ts), which
 *   the Temporal Web UI and CLI call.
 */
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { createCipheriv, createDecipheriv, createHash, randomFillSync } from 'node:crypto';
import { derivedKey } from '../domain/secrets';
import { UNSEALED_STAND_IN } from '../domain/unsealed';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/**
 * IVs drawn from the system's random source at once: one draw per this many seals instead of one
 * per seal (a start seals four payloads, a run a dozen). Each IV is still 96 random bits, used once.
 */
const IVS_PER_DRAW = 256;

/** Random IVs, `IVS_PER_DRAW` per draw from `randomFillSync`; each slice is handed out once. */
class RandomIvs {
  private pool = Buffer.alloc(0);
  private next = 0;

  take(): Buffer {
    if (this.next === this.pool.length) {
      // A fresh buffer each draw: the IVs handed out before keep their bytes.
      this.pool = randomFillSync(Buffer.allocUnsafe(IV_BYTES * IVS_PER_DRAW));
      this.next = 0;
    }
    const iv = this.pool.subarray(this.next, this.next + IV_BYTES);
    this.next += IV_BYTES;
    return iv;
  }
}

const text = (value: string): Uint8Array => Buffer.from(value, 'utf8');

/** How long one payload key seals: a week. */
export const PAYLOAD_KEY_PERIOD_MS = 7 * 86_400_000;

interface CodecKey {
  id: string;
  key: Buffer;
}

/** The payload key of a week (null: the one key of before 0.7) from a SECRETS_KEY. */
function codecKey(secretsKey: Buffer, week: number | null): CodecKey {
  const key = derivedKey(secretsKey, week === null ? 'payload-codec' : `payload-codec:${week}`);
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return { id: week === null ? hash : `w${week}.${hash}`, key };
}

const weekOf = (ms: number) => Math.floor(ms / PAYLOAD_KEY_PERIOD_MS);

/** A payload's key id could not be matched: it was sealed with a key this process was not given. */
export class UnknownPayloadKey extends Error {
  override name = 'UnknownPayloadKey';
}

export class PayloadEncryption implements PayloadCodec {
  /** The week's key that seals, and its id's bytes (the same in every payload it seals: never written to). */
  private current!: CodecKey & { week: number; idBytes: Uint8Array };
  /** Every key that opened a payload, by id: a week's is derived once. */
  private readonly byId = new Map<string, CodecKey>();
  private readonly ivs = new RandomIvs();
  /** The metadata's bytes, the same in every payload this process seals (never written to). */
  private readonly sealedEncoding = text(ENCRYPTED_ENCODING);

  /**
   * `secretsKeys`: SECRETS_KEY first (it seals), then those of SECRETS_KEY_PREVIOUS (read only).
   * `seal: false` (PAYLOAD_ENCRYPTION=0, to measure what sealing costs) sends payloads as they are
   * and still opens sealed ones. `sealedOnly` (a worker's): a payload not sealed is opened as
   * UNSEALED_STAND_IN.
   */
  constructor(
    private readonly secretsKeys: readonly Buffer[],
    private readonly options: { seal: boolean; sealedOnly?: boolean; now?: () => number } = { seal: true },
  ) {
    for (const k of secretsKeys.map((s) => codecKey(s, null))) this.byId.set(k.id, k);
    this.sealing();
  }

  /** What a workflow is handed in place of a payload nobody sealed. */
  private readonly unsealedStandIn: Payload = {
    metadata: { encoding: text('json/plain') },
    data: text(JSON.stringify(UNSEALED_STAND_IN)),
  };

  /** The id of the key that seals now. */
  get keyId(): string {
    return this.sealing().id;
  }

  /** The key of this week, made when the week begins. */
  private sealing(): PayloadEncryption['current'] {
    const week = weekOf(this.options.now?.() ?? Date.now());
    if (this.current?.week !== week) {
      const key = codecKey(this.secretsKeys[0], week);
      this.byId.set(key.id, key);
      this.current = { ...key, week, idBytes: text(key.id) };
    }
    return this.current;
  }

  /** The key a payload names: one of before 0.7, or a week's of any of the SECRETS_KEYs, derived once. */
  private keyNamed(id: string): CodecKey | undefined {
    const known = this.byId.get(id);
    if (known) return known;
    const week = /^w(\d{1,9})\.[0-9a-f]{16}$/.exec(id);
    if (!week) return undefined;
    const found = this.secretsKeys.map((s) => codecKey(s, Number(week[1]))).find((k) => k.id === id);
    if (found) this.byId.set(id, found);
    return found;
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- a failure must be a rejection, as the SDK expects
  async encode(payloads: Payload[]): Promise<Payload[]> {
    return this.options.seal ? payloads.map((p) => this.seal(p)) : payloads;
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- a failure must be a rejection, as the SDK expects
  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => this.open(p));
  }

  private seal(payload: Payload): Payload {
    const plain = temporal.api.common.v1.Payload.encode(payload).finish();
    const iv = this.ivs.take();
    const { key, idBytes } = this.sealing();
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return { metadata: { encoding: this.sealedEncoding, [KEY_ID_METADATA]: idBytes }, data: sealed };
  }

  private open(payload: Payload): Payload {
    const encoding = payload.metadata?.encoding;
    if (!encoding || Buffer.from(encoding).toString('utf8') !== ENCRYPTED_ENCODING)
      return this.options.sealedOnly ? this.unsealedStandIn : payload;
    const id = Buffer.from(payload.metadata?.[KEY_ID_METADATA] ?? []).toString('utf8');
    const found = this.keyNamed(id);
    if (!found)
      throw new UnknownPayloadKey(
        `a payload sealed with key ${id}, which is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS`,
      );
    const data = Buffer.from(payload.data ?? []);
    const decipher = createDecipheriv('aes-256-gcm', found.key, data.subarray(0, IV_BYTES));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    const sealed = data.subarray(IV_BYTES, data.length - TAG_BYTES);
    const plain = Buffer.concat([decipher.update(sealed), decipher.final()]);
    return temporal.api.common.v1.Payload.decode(plain);
  }
}
