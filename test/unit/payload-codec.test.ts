/** The payload codec (src/temporal/payload-codec.ts): sealed with SECRETS_KEY, opened with it or a previous key. */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { derivedKey } from '../../src/domain/secrets';
import { isUnsealed } from '../../src/domain/unsealed';
import {
  ENCRYPTED_ENCODING,
  KEY_ID_METADATA,
  PAYLOAD_KEY_PERIOD_MS,
  PayloadEncryption,
  UnknownPayloadKey,
} from '../../src/temporal/payload-codec';

const text = (bytes: Uint8Array | undefined | null) => Buffer.from(bytes ?? []).toString('utf8');
const payload = (value: unknown) => defaultPayloadConverter.toPayload(value);

it('seals a payload so its bytes hold nothing of the value, and opens it back exactly', async () => {
  const codec = new PayloadEncryption([randomBytes(32)]);
  const original = payload({ body: 'card 4242 4242 4242 4242' });
  const [sealed] = await codec.encode([original]);
  expect(text(sealed.metadata?.encoding)).toBe(ENCRYPTED_ENCODING);
  expect(text(sealed.metadata?.[KEY_ID_METADATA])).toBe(codec.keyId);
  expect(Buffer.from(sealed.data!).includes('4242')).toBe(false);
  const [opened] = await codec.decode([sealed]);
  expect(defaultPayloadConverter.fromPayload(opened)).toEqual({ body: 'card 4242 4242 4242 4242' });
});

it('seals the same value differently each time (a fresh IV), and refuses a payload tampered with', async () => {
  const codec = new PayloadEncryption([randomBytes(32)]);
  const [a, b] = await codec.encode([payload('x'), payload('x')]);
  expect(Buffer.from(a.data!).equals(Buffer.from(b.data!))).toBe(false);
  const tampered = { ...a, data: Buffer.from(a.data!).map((byte, i) => (i === 20 ? byte ^ 1 : byte)) };
  await expect(codec.decode([tampered])).rejects.toThrow();
});

it('never gives two payloads the same IV, across many draws of the IV pool, and each still opens', async () => {
  const codec = new PayloadEncryption([randomBytes(32)]);
  // Over a thousand seals: several draws of IVS_PER_DRAW (256) IVs each.
  const sealed = await codec.encode(Array.from({ length: 1100 }, (_, i) => payload(i)));
  const ivs = new Set(sealed.map((p) => Buffer.from(p.data!).subarray(0, 12).toString('hex')));
  expect(ivs.size).toBe(1100);
  const opened = await codec.decode(sealed);
  expect(opened.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual(Array.from({ length: 1100 }, (_, i) => i));
});

it('passes a payload that was never sealed through unchanged (histories from before 0.5)', async () => {
  const codec = new PayloadEncryption([randomBytes(32)]);
  const plain = payload({ a: 1 });
  expect(await codec.decode([plain])).toEqual([plain]);
});

it('opens what a previous SECRETS_KEY sealed, seals with the current one, and names a key it does not have', async () => {
  const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
  const [sealedBefore] = await new PayloadEncryption([oldKey]).encode([payload('before the change')]);
  const rotated = new PayloadEncryption([newKey, oldKey]);
  const [opened] = await rotated.decode([sealedBefore]);
  expect(defaultPayloadConverter.fromPayload(opened)).toBe('before the change');
  const [sealedAfter] = await rotated.encode([payload('after')]);
  expect(text(sealedAfter.metadata?.[KEY_ID_METADATA])).toBe(new PayloadEncryption([newKey]).keyId);
  await expect(new PayloadEncryption([newKey]).decode([sealedBefore])).rejects.toThrow(UnknownPayloadKey);
});

describe('the payload key changes every week by itself (review N12)', () => {
  const secretsKey = randomBytes(32);
  const at = (ms: number) => new PayloadEncryption([secretsKey], { seal: true, now: () => ms });
  const week = (n: number) => n * PAYLOAD_KEY_PERIOD_MS + 1000;

  it('seals with a new key each week, and opens every week sealed before', async () => {
    const [first] = await at(week(2900)).encode([payload('week one')]);
    const later = at(week(2903));
    const [second] = await later.encode([payload('three weeks on')]);
    const idOf = (p: typeof first) => text(p.metadata?.[KEY_ID_METADATA]);
    expect(idOf(first)).toMatch(/^w2900\.[0-9a-f]{16}$/);
    expect(idOf(second)).toMatch(/^w2903\.[0-9a-f]{16}$/);
    const opened = await later.decode([first, second]);
    expect(opened.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual(['week one', 'three weeks on']);
    // A codec that turns the week while it runs seals under the new week's key.
    let now = week(2900);
    const running = new PayloadEncryption([secretsKey], { seal: true, now: () => now });
    now = week(2901);
    expect(idOf((await running.encode([payload('x')]))[0])).toMatch(/^w2901\./);
  });

  it('still opens a payload sealed before 0.7 under the one key of its SECRETS_KEY', async () => {
    const key = derivedKey(secretsKey, 'payload-codec');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const plain = temporal.api.common.v1.Payload.encode(payload('sealed by 0.6')).finish();
    const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    const id = createHash('sha256').update(key).digest('hex').slice(0, 16);
    const old = { metadata: { encoding: Buffer.from(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: Buffer.from(id) }, data };
    const [opened] = await at(week(2950)).decode([old]);
    expect(defaultPayloadConverter.fromPayload(opened)).toBe('sealed by 0.6');
  });

  it('refuses a week of a key it was not given, naming it', async () => {
    const [sealed] = await new PayloadEncryption([randomBytes(32)]).encode([payload('x')]);
    await expect(at(week(1)).decode([sealed])).rejects.toThrow(UnknownPayloadKey);
  });
});

it("hands a worker's workflows a stand-in for a payload nobody sealed, which they refuse (review N6)", async () => {
  const worker = new PayloadEncryption([randomBytes(32)], { seal: true, sealedOnly: true });
  const forged = payload({ robotId: 'r', verified: true });
  const [given] = await worker.decode([forged]);
  expect(isUnsealed(defaultPayloadConverter.fromPayload(given))).toBe(true);
  const [own] = await worker.decode(await worker.encode([payload({ verified: true })]));
  expect(defaultPayloadConverter.fromPayload(own)).toEqual({ verified: true });
});
