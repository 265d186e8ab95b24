/** The payload codec (src/payload-codec.ts): sealed with SECRETS_KEY, opened with it or a previous key. */
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { ENCRYPTED_ENCODING, KEY_ID_METADATA, PayloadEncryption, UnknownPayloadKey } from '../../src/payload-codec';

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
