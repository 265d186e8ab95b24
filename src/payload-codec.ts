/**
 * Bodies are encrypted in Temporal: every payload the client and the worker send (workflow inputs
 * with their bodies, memos, activity inputs and results, step outputs) is sealed with AES-256-GCM
 * before it leaves the process, so Temporal's store, its Web UI and `temporal workflow show` hold
 * ciphertext. Search attributes are not payloads and stay readable (they hold ids and outcomes).
 *
 * - The key is derived from SECRETS_KEY (`derivedKey(…, 'payload-codec')`); its id (the first 16 hex
 *   digits of its SHA-256) is in each payload's metadata, so after SECRETS_KEY is changed, payloads
 *   sealed with a key named in SECRETS_KEY_PREVIOUS are still read.
 * - A payload that is not sealed (recorded before 0.5, or by another client) is read as it is.
 * - An operator reads them decoded through the receiver's codec endpoints (src/codec-routes.ts), which
 *   the Temporal Web UI and CLI call.
 */
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { createCipheriv, createDecipheriv, createHash, randomFillSync } from 'node:crypto';
import { derivedKey } from './domain/secrets';

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

interface CodecKey {
  id: string;
  key: Buffer;
}

function codecKey(secretsKey: Buffer): CodecKey {
  const key = derivedKey(secretsKey, 'payload-codec');
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 16), key };
}

/** A payload's key id could not be matched: it was sealed with a key this process was not given. */
export class UnknownPayloadKey extends Error {
  override name = 'UnknownPayloadKey';
}

export class PayloadEncryption implements PayloadCodec {
  private readonly current: CodecKey;
  private readonly byId: Map<string, CodecKey>;
  private readonly ivs = new RandomIvs();
  /** The metadata's bytes, the same in every payload this process seals (never written to). */
  private readonly sealedEncoding = text(ENCRYPTED_ENCODING);
  private readonly sealedKeyId: Uint8Array;

  /**
   * `secretsKeys`: SECRETS_KEY first (it seals), then those of SECRETS_KEY_PREVIOUS (read only).
   * `seal: false` (PAYLOAD_ENCRYPTION=0, to measure what sealing costs) sends payloads as they are
   * and still opens sealed ones.
   */
  constructor(
    secretsKeys: readonly Buffer[],
    private readonly options: { seal: boolean } = { seal: true },
  ) {
    const keys = secretsKeys.map(codecKey);
    this.current = keys[0];
    this.byId = new Map(keys.map((k) => [k.id, k]));
    this.sealedKeyId = text(this.current.id);
  }

  get keyId(): string {
    return this.current.id;
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
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return { metadata: { encoding: this.sealedEncoding, [KEY_ID_METADATA]: this.sealedKeyId }, data: sealed };
  }

  private open(payload: Payload): Payload {
    const encoding = payload.metadata?.encoding;
    if (!encoding || Buffer.from(encoding).toString('utf8') !== ENCRYPTED_ENCODING) return payload;
    const id = Buffer.from(payload.metadata?.[KEY_ID_METADATA] ?? []).toString('utf8');
    const found = this.byId.get(id);
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
