/**
 * Whether an Ed25519 public key (the hex of its 32-byte encoding, RFC 8032 5.1.2) is one a sender
 * can really hold, checked when an app is saved. node:crypto (OpenSSL) verifies with any point it
 * can decode, and a point of small order (one whose multiple by the cofactor 8 is the identity: the
 * identity `01 00…00` and seven others) makes a signature that verifies every message (with the
 * identity: R the base point, S = 1). A mistyped or planted key of that kind opens the URL to
 * anyone, so it is refused, as is an encoding no honest key has: y at or above the field's prime p
 * (a second spelling of a smaller y), a point off the curve, or x = 0 with its sign bit set.
 * Arithmetic in affine coordinates with BigInt: a few modular powers, about a millisecond, once per save.
 */

const P = 2n ** 255n - 19n;
const mod = (a: bigint) => ((a % P) + P) % P;

function pow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

const inverse = (a: bigint) => pow(a, P - 2n);
/** The curve's d: -121665/121666. */
const D = mod(-121665n * inverse(121666n));
/** A square root of -1. */
const SQRT_M1 = pow(2n, (P - 1n) / 4n);

interface Point {
  x: bigint;
  y: bigint;
}

/** The point an encoding names, or why it names none (RFC 8032 5.1.3). */
function decode(bytes: Buffer): Point | string {
  const sign = bytes[31] >> 7;
  const little = Buffer.from(bytes);
  little[31] &= 0x7f;
  const y = BigInt(`0x${Buffer.from(little).reverse().toString('hex')}`);
  if (y >= P) return 'a non-canonical encoding (y is not below the prime 2^255 - 19)';
  const y2 = (y * y) % P;
  const xx = mod((y2 - 1n) * inverse(D * y2 + 1n));
  let x = pow(xx, (P + 3n) / 8n);
  if ((x * x) % P !== xx) x = (x * SQRT_M1) % P;
  if ((x * x) % P !== xx) return 'not a point of the Ed25519 curve';
  if (x === 0n && sign === 1) return 'a non-canonical encoding (x is 0 with its sign bit set)';
  if (Number(x & 1n) !== sign) x = P - x;
  return { x, y };
}

/** P + P on the twisted Edwards curve -x² + y² = 1 + d·x²·y² (complete: defined for every point). */
function double({ x, y }: Point): Point {
  const t = (D * x * x * y * y) % P;
  return {
    x: mod(2n * x * y * inverse(1n + t)),
    y: mod((y * y + x * x) * inverse(1n - t)),
  };
}

/**
 * Why the key (its 32 bytes in hex, or in padded base64) is no Ed25519 public key a sender holds, or
 * undefined when it is one: not 32 bytes, a non-canonical encoding, off the curve, or of small order.
 */
export function ed25519PublicKeyProblem(key: string, encoding: 'hex' | 'base64' = 'hex'): string | undefined {
  const shape = encoding === 'hex' ? /^[0-9a-fA-F]{64}$/ : /^[A-Za-z0-9+/]{43}=$/;
  if (!shape.test(key)) {
    return `an Ed25519 public key: ${encoding === 'hex' ? '64 hex characters' : 'the base64 of 32 bytes'}`;
  }
  const point = decode(Buffer.from(key, encoding));
  if (typeof point === 'string') return `not an Ed25519 public key: ${point}`;
  const eight = double(double(double(point)));
  if (eight.x === 0n && eight.y === 1n) {
    return 'not an Ed25519 public key: a point of small order, with which anyone can sign';
  }
  return undefined;
}
