import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret, newToken, secretsEqual } from '../../src/domain/secrets';

describe('newToken', () => {
  test('is 43 URL-safe characters', () => {
    expect(newToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('differs on each call', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => newToken()));
    expect(tokens.size).toBe(50);
  });
});

describe('secretsEqual', () => {
  test('equal strings are equal', () => {
    expect(secretsEqual('same-value', 'same-value')).toBe(true);
  });

  test('different strings of the same length are not equal', () => {
    expect(secretsEqual('value-a', 'value-b')).toBe(false);
  });

  test('strings of different lengths are not equal', () => {
    expect(secretsEqual('short', 'a much longer value')).toBe(false);
  });

  test('a prefix is not equal to the whole', () => {
    expect(secretsEqual('abc', 'abcd')).toBe(false);
  });

  test('empty strings are equal to each other only', () => {
    expect(secretsEqual('', '')).toBe(true);
    expect(secretsEqual('', 'x')).toBe(false);
  });
});

describe('encryptSecret / decryptSecret', () => {
  const key = randomBytes(32);

  test('round-trips a secret', () => {
    const plain = 'signing secret with ünïcode';
    expect(decryptSecret(key, encryptSecret(key, plain))).toBe(plain);
  });

  test('round-trips an empty string', () => {
    expect(decryptSecret(key, encryptSecret(key, ''))).toBe('');
  });

  test('does not contain the plain text', () => {
    const plain = 'plain-text-marker';
    const sealed = encryptSecret(key, plain);
    expect(sealed).not.toContain(plain);
    expect(sealed).not.toContain(Buffer.from(plain).toString('base64'));
  });

  test('encrypting the same secret twice gives different ciphertexts', () => {
    expect(encryptSecret(key, 'same')).not.toBe(encryptSecret(key, 'same'));
  });

  test('tampered ciphertext throws', () => {
    const [version, iv, tag, data] = encryptSecret(key, 'secret value').split(':') as [string, string, string, string];
    const bytes = Buffer.from(data, 'base64');
    bytes[0] = bytes[0] ^ 0x01;
    expect(() => decryptSecret(key, [version, iv, tag, bytes.toString('base64')].join(':'))).toThrow();
  });

  test('a tampered tag throws', () => {
    const [version, iv, tag, data] = encryptSecret(key, 'secret value').split(':') as [string, string, string, string];
    const bytes = Buffer.from(tag, 'base64');
    bytes[0] = bytes[0] ^ 0x01;
    expect(() => decryptSecret(key, [version, iv, bytes.toString('base64'), data].join(':'))).toThrow();
  });

  test('a wrong key throws', () => {
    const sealed = encryptSecret(key, 'secret value');
    expect(() => decryptSecret(randomBytes(32), sealed)).toThrow();
  });

  test('an unknown format throws', () => {
    expect(() => decryptSecret(key, 'v2:a:b:c')).toThrow(/unknown secret format/);
    expect(() => decryptSecret(key, 'garbage')).toThrow(/unknown secret format/);
  });
});
