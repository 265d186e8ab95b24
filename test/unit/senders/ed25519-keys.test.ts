/**
 * Discord's Public Key (any Ed25519 sender's) is checked when the app is saved
 * (src/domain/senders/ed25519-keys.ts): the eight small-order encodings and non-canonical ones are
 * refused, naming the field; a key made as Discord makes one (the discord fixture's, which
 * `discord-interactions`' verifyKey takes in ./discord.test.ts) is accepted.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createAppBody, verificationBody } from '../../../src/contract/requests';
import { checkOf } from '../../../src/domain/senders/checks';
const discord = checkOf('discord');
import { ed25519PublicKeyProblem } from '../../../src/domain/senders/ed25519-keys';
import { discordApp } from '../../support/senders/discord';
import { asReceived, type SentRequest } from '../../support/senders/fixture';

const IDENTITY = `01${'00'.repeat(31)}`;
/** The eight points of order 1, 2, 4 and 8, each as its one canonical encoding. */
const SMALL_ORDER = [
  IDENTITY,
  `ec${'ff'.repeat(30)}7f`,
  '00'.repeat(32),
  `${'00'.repeat(31)}80`,
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
];
/** The review's forged signature: R the base point, S = 1, which the identity key verifies for any message. */
const FORGED = `58${'66'.repeat(31)}01${'00'.repeat(31)}`;

const app = (publicKey: string) =>
  createAppBody.safeParse({
    name: 'Discord',
    supportsInboundTrigger: true,
    verification: { scheme: 'discord', publicKey },
  });

function refusedAt(publicKey: string): { path: string; message: string } {
  const parsed = app(publicKey);
  if (parsed.success) throw new Error(`expected ${publicKey} refused`);
  return { path: parsed.error.issues[0].path.join('.'), message: parsed.error.issues[0].message };
}

describe('Ed25519 public keys checked when saved', () => {
  test("the review's repro: the identity key is refused when saved, whatever the crypto library makes of it", () => {
    const at = new Date('2026-01-01T12:00:00Z');
    const sent: SentRequest = {
      method: 'POST',
      query: '',
      headers: {
        'X-Signature-Ed25519': FORGED,
        'X-Signature-Timestamp': String(Math.floor(at.getTime() / 1000)),
      },
      body: '{"anything":"at all"}',
    };
    // What the key would open, checked as the receiver checks a request: Node 20's OpenSSL took this
    // forgery (the review's finding); Node 24's, the supported one (.nvmrc), refuses it itself. The key
    // is refused when saved either way, so no delivery is ever checked against it.
    const received = asReceived(sent, 'https://robots.example.com/api/webhooks/x', at);
    expect(discord.verify({ scheme: 'discord', publicKey: IDENTITY }, received).ok).toBe(false);
    expect(refusedAt(IDENTITY)).toEqual({
      path: 'verification.publicKey',
      message: 'not an Ed25519 public key: a point of small order, with which anyone can sign',
    });
  });

  test.each(SMALL_ORDER)('the small-order encoding %s is refused, naming publicKey', (hex) => {
    expect(refusedAt(hex).path).toBe('verification.publicKey');
    expect(ed25519PublicKeyProblem(hex)).toMatch(/small order|sign bit/);
    expect(ed25519PublicKeyProblem(hex.toUpperCase())).toMatch(/small order|sign bit/);
  });

  test('non-canonical encodings are refused: y at or above 2^255 - 19, and x = 0 with its sign bit', () => {
    // y = p (0 spelled again), p + 1 (the identity's y), 2^255 - 1, and the same with x's sign bit.
    for (const hex of [`ed${'ff'.repeat(30)}7f`, `ee${'ff'.repeat(30)}7f`, `${'ff'.repeat(31)}7f`, 'ff'.repeat(32)]) {
      expect(ed25519PublicKeyProblem(hex)).toBe(
        'not an Ed25519 public key: a non-canonical encoding (y is not below the prime 2^255 - 19)',
      );
      expect(refusedAt(hex).path).toBe('verification.publicKey');
    }
    // The identity and (0, -1) with x's sign bit set: second spellings of small-order points.
    for (const hex of [`01${'00'.repeat(30)}80`, `ec${'ff'.repeat(31)}`]) {
      expect(ed25519PublicKeyProblem(hex)).toBe(
        'not an Ed25519 public key: a non-canonical encoding (x is 0 with its sign bit set)',
      );
    }
  });

  test('a y with no point on the curve is refused', () => {
    expect(ed25519PublicKeyProblem(`02${'00'.repeat(31)}`)).toBe(
      'not an Ed25519 public key: not a point of the Ed25519 curve',
    );
  });

  test("a real key is accepted: the discord fixture's, and 20 more made by node:crypto", () => {
    expect(app(discordApp.publicKeyHex).success).toBe(true);
    expect(verificationBody.safeParse({ scheme: 'discord', publicKey: discordApp.publicKeyHex }).success).toBe(true);
    for (let i = 0; i < 20; i++) {
      const { x } = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
      const hex = Buffer.from(x!, 'base64url').toString('hex');
      expect(ed25519PublicKeyProblem(hex)).toBeUndefined();
      expect(ed25519PublicKeyProblem(hex.toUpperCase())).toBeUndefined();
    }
  });

  test('what is not 64 hex characters is still refused by the pattern', () => {
    expect(refusedAt('zz'.repeat(32))).toEqual({ path: 'verification.publicKey', message: '64 hex characters' });
  });

  test.each(SMALL_ORDER)('in base64 too: %s is refused for Telnyx and as a Standard Webhooks whpk_ key', (hex) => {
    const base64 = Buffer.from(hex, 'hex').toString('base64');
    expect(ed25519PublicKeyProblem(base64, 'base64')).toMatch(/small order|sign bit/);
    const telnyx = verificationBody.safeParse({ scheme: 'telnyx', publicKey: base64 });
    expect(telnyx.success ? null : telnyx.error.issues[0].path).toEqual(['publicKey']);
    const svix = verificationBody.safeParse({ scheme: 'standard-webhooks', secret: `whpk_${base64}` });
    expect(svix.success ? null : svix.error.issues[0].message).toMatch(/small order|sign bit/);
  });

  test('a real base64 key is accepted for Telnyx and as a whpk_ key', () => {
    const { x } = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const base64 = Buffer.from(x!, 'base64url').toString('base64');
    expect(verificationBody.safeParse({ scheme: 'telnyx', publicKey: base64 }).success).toBe(true);
    expect(verificationBody.safeParse({ scheme: 'standard-webhooks', secret: `whpk_${base64}` }).success).toBe(true);
  });
});
