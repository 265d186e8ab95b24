/**
 * The public-key family's own edge cases, once (src/domain/senders/families/public-key.ts), over a
 * sender's data written here as its file would spell it: Ed25519 keys and signatures in hex or
 * base64 over the content its file spells, ECDSA P-256 (DER only), malformed signatures and times,
 * and keys node:crypto cannot read. Every sender's fixture runs through ../senders.test.ts.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { PublicKeySignature } from '../../../src/domain/senders/catalog/sender';
import { publicKeyCheck } from '../../../src/domain/senders/families/public-key';
import { expectRefused, verdictOf } from '../../support/senders/verdicts';

const verdict = verdictOf;

describe('public-key', () => {
  const ed25519 = (encoding: 'hex' | 'base64', content = '{time}{body}'): PublicKeySignature => ({
    family: 'public-key',
    algorithm: 'ed25519',
    header: 'X-Sig',
    encoding,
    time: { header: 'X-Time', unit: 's' },
    content,
  });
  const pair = () => generateKeyPairSync('ed25519');
  const rawKey = (k: KeyObject, encoding: 'hex' | 'base64') =>
    k.export({ format: 'der', type: 'spki' }).subarray(-32).toString(encoding);
  const t = 1_767_268_800;
  const signed = (key: KeyObject, message: string, encoding: 'hex' | 'base64', time = String(t)) => ({
    'x-sig': sign(null, Buffer.from(message), key).toString(encoding),
    'x-time': time,
  });

  test.each(['hex', 'base64'] as const)(
    'Ed25519 with a %s key and signature, over the content its file spells',
    (enc) => {
      const { publicKey, privateKey } = pair();
      const check = publicKeyCheck(ed25519(enc, '{time}|{body}'), { toleranceSeconds: 300, keyLabel: 'Public Key' });
      const v = { publicKey: rawKey(publicKey, enc) };
      expect(verdict(check, v, signed(privateKey, `${t}|b`, enc), 'b', t)).toEqual({ ok: true });
      expectRefused(
        verdict(check, v, signed(privateKey, `${t}b`, enc), 'b', t),
        'X-Sig does not verify with the Public Key',
      );
      expectRefused(verdict(check, v, signed(pair().privateKey, `${t}|b`, enc), 'b', t), /does not verify/);
    },
  );

  test('a signature of another length or encoding, or a time not whole seconds, is malformed; no time, missing', () => {
    const { publicKey, privateKey } = pair();
    const check = publicKeyCheck(ed25519('hex'), { toleranceSeconds: 300, keyLabel: 'Public Key' });
    const v = { publicKey: rawKey(publicKey, 'hex') };
    const good = signed(privateKey, `${t}b`, 'hex');
    for (const bad of [good['x-sig'].slice(2), 'z'.repeat(128), Buffer.from(good['x-sig'], 'hex').toString('base64')])
      expectRefused(verdict(check, v, { ...good, 'x-sig': bad }, 'b', t), /^malformed X-Sig header/);
    expectRefused(
      verdict(check, v, { ...good, 'x-time': `${t}.0` }, 'b', t),
      'malformed X-Time header: expected unix seconds',
    );
    expectRefused(verdict(check, v, { 'x-sig': good['x-sig'] }, 'b', t), 'missing X-Time header');
  });

  test('a key node:crypto cannot read as the kind is refused, saying so, never thrown', () => {
    const check = publicKeyCheck(ed25519('hex'), { toleranceSeconds: 300, keyLabel: 'Public Key' });
    const sent = signed(pair().privateKey, `${t}b`, 'hex');
    for (const bad of ['zz'.repeat(32), 'ab'.repeat(31), ''])
      expectRefused(verdict(check, { publicKey: bad }, sent, 'b', t), /^the Public Key is not an Ed25519 public key/);
  });

  test('ECDSA P-256: a DER signature is taken, r||s is not, and a key of another curve is refused', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const signature: PublicKeySignature = { ...ed25519('base64'), algorithm: 'ecdsa-p256' };
    const check = publicKeyCheck(signature, { toleranceSeconds: 300, keyLabel: 'Verification Key' });
    const v = { publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64') };
    const sig = (dsaEncoding: 'der' | 'ieee-p1363') =>
      sign('sha256', Buffer.from(`${t}b`), { key: privateKey, dsaEncoding }).toString('base64');
    expect(verdict(check, v, { 'x-sig': sig('der'), 'x-time': String(t) }, 'b', t)).toEqual({ ok: true });
    expectRefused(verdict(check, v, { 'x-sig': sig('ieee-p1363'), 'x-time': String(t) }, 'b', t), /does not verify/);
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey.export({
      type: 'spki',
      format: 'der',
    });
    expectRefused(
      verdict(check, { publicKey: p384.toString('base64') }, { 'x-sig': sig('der'), 'x-time': String(t) }, 'b', t),
      /^the Verification Key is not a P-256 public key/,
    );
  });
});
