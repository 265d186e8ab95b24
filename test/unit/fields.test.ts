import fc from 'fast-check';
import { fieldsOf, mergeFields, placeholderOf, REDACTED, seenPathOf, type FieldType } from '../../src/domain/fields';
import { FIELD_EXAMPLE_CHARS, FIELD_PATH_CHARS, FIELD_PATHS_PER_DELIVERY } from '../../src/domain/limits';
import { lookup, parsePath, resolveTemplate } from '../../src/domain/placeholders';
import type { JsonValue } from '../../src/domain/types';

const order: JsonValue = {
  id: 42,
  customer: { email: 'ada@example.com', vip: true },
  items: [
    { sku: 'A-1', qty: 2 },
    { sku: 'B-2', qty: 1, gift: null },
  ],
  'a.b': 'dotted',
};

describe('fieldsOf: every path of one delivery, in the order met', () => {
  test('objects, array items by the first item, keys a dot cannot carry', () => {
    const { fields, truncated } = fieldsOf([order]);
    expect(truncated).toBeUndefined();
    expect(fields).toEqual([
      { path: '', types: ['object'], example: null },
      { path: 'id', types: ['number'], example: '42' },
      { path: 'customer', types: ['object'], example: null },
      { path: 'customer.email', types: ['string'], example: 'ada@example.com' },
      { path: 'customer.vip', types: ['boolean'], example: 'true' },
      { path: 'items', types: ['array'], example: null },
      { path: 'items[0]', types: ['object'], example: null },
      { path: 'items[0].sku', types: ['string'], example: 'A-1' },
      { path: 'items[0].qty', types: ['number'], example: '2' },
      { path: '["a.b"]', types: ['string'], example: 'dotted' },
    ]);
  });

  test("a CSV's rows: each column once, with every type its rows had", () => {
    const { fields } = fieldsOf([{ email: 'a@x', n: '1' }, { email: 'b@x' }, { email: null, n: '2' }]);
    expect(fields).toEqual([
      { path: '', types: ['object'], example: null },
      { path: 'email', types: ['string', 'null'], example: 'a@x' },
      { path: 'n', types: ['string'], example: '1' },
    ]);
  });

  test('a text body is the root path, read by {{trigger}}', () => {
    expect(fieldsOf(['hello'])).toEqual({ fields: [{ path: '', types: ['string'], example: 'hello' }] });
    expect(placeholderOf('')).toBe('{{trigger}}');
  });

  test('examples are cut, and never show a value under a secret-like key or that looks like a key', () => {
    const long = 'x'.repeat(100);
    const { fields } = fieldsOf([
      { note: long, password: 'hunter22', auth: { token: 'abc' }, apiKey: 'k', ref: 'whsec_abcdef', n: 1 },
    ]);
    const example = (path: string) => fields.find((f) => f.path === path)?.example;
    expect(example('note')).toHaveLength(FIELD_EXAMPLE_CHARS);
    expect(example('note')!.endsWith('…')).toBe(true);
    expect(example('password')).toBe(REDACTED);
    expect(example('auth.token')).toBe(REDACTED);
    expect(example('apiKey')).toBe(REDACTED);
    expect(example('ref')).toBe(REDACTED);
    expect(example('n')).toBe('1');
    const more = fieldsOf([
      {
        gh: 'ghp_' + 'a1B2'.repeat(9),
        jwt: 'eyJhbGciOiJIUzI1NiJ9.e30.abc',
        aws: 'AKIA' + 'ABCDEFGHIJKLMNOP',
        generated: 'Zx81kQp0LmN3vB7rT5yW2sD9',
        session_key: 'short',
        uuid: '3f2c1a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60',
        order: 'ORD-2041',
      },
    ]).fields;
    const shown = (path: string) => more.find((f) => f.path === path)?.example;
    for (const path of ['gh', 'jwt', 'aws', 'generated', 'session_key']) expect(shown(path)).toBe(REDACTED);
    expect(shown('uuid')).toBe('3f2c1a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60');
    expect(shown('order')).toBe('ORD-2041');
  });

  test('a body with more paths than are kept is cut and says so', () => {
    const wide = Object.fromEntries(Array.from({ length: FIELD_PATHS_PER_DELIVERY + 50 }, (_, i) => [`k${i}`, i]));
    const result = fieldsOf([wide]);
    expect(result.fields).toHaveLength(FIELD_PATHS_PER_DELIVERY);
    expect(result.truncated).toBe(true);
  });

  test('nesting deeper than a path may be long is cut and says so', () => {
    let deep: JsonValue = 'bottom';
    for (let i = 0; i < FIELD_PATH_CHARS; i++) deep = { abc: deep };
    const result = fieldsOf([deep]);
    expect(result.truncated).toBe(true);
    expect(Math.max(...result.fields.map((f) => f.path.length))).toBeLessThanOrEqual(FIELD_PATH_CHARS);
  });
});

describe("mergeFields: a robot's fields over its deliveries, newest first", () => {
  test('each path once, in how many deliveries it appeared, the newest example, its parent', () => {
    const newest = fieldsOf([{ customer: { email: 'new@x' } }]);
    const older = fieldsOf([{ customer: { email: 'old@x', phone: 5 } }]);
    const oldest = fieldsOf([{ customer: { email: 7 } }]);
    const merged = mergeFields([newest, older, oldest]);
    const email = merged.find((f) => f.path === 'customer.email');
    expect(email).toEqual({
      path: 'customer.email',
      placeholder: '{{trigger.customer.email}}',
      parent: 'customer',
      types: ['string', 'number'],
      example: 'new@x',
      seenIn: 3,
    });
    expect(merged.find((f) => f.path === 'customer.phone')).toMatchObject({ seenIn: 1, parent: 'customer' });
    expect(merged.find((f) => f.path === 'customer')).toMatchObject({ parent: null, seenIn: 3 });
  });
});

describe('seenPathOf: the path a placeholder is listed under', () => {
  test.each([
    ['trigger.customer.email', 'customer.email'],
    ['trigger.items[3].sku', 'items[0].sku'],
    ['trigger["a.b"]', '["a.b"]'],
    ['trigger', ''],
  ])('%s → %s', (expression, path) => expect(seenPathOf(expression)).toBe(path));
});

/** The JSON type a value has, as fields name it. */
const typeOf = (v: JsonValue): FieldType =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as 'string' | 'number' | 'boolean' | 'object');

test('every path listed, used as its placeholder, reads a value of a type listed for it (any JSON)', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
      const data = JSON.parse(JSON.stringify(value)) as JsonValue;
      for (const field of fieldsOf([data]).fields) {
        const placeholder = placeholderOf(field.path);
        const read = lookup(data, parsePath(placeholder.slice(2, -2)));
        expect(typeof read).not.toBe('symbol'); // a listed path always exists
        expect(field.types).toContain(typeOf(read as JsonValue));
        if (typeof read !== 'object') expect(resolveTemplate(placeholder, data)).toBe(read);
      }
    }),
  );
});
