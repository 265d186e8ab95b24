import fc from 'fast-check';
import { resolveTemplate } from '../../src/domain/placeholders';
import type { JsonValue } from '../../src/domain/types';

const order: JsonValue = {
  id: 42,
  paid: true,
  note: null,
  customer: { name: 'Ada', tags: ['vip', 'eu'] },
  items: [
    { sku: 'A-1', qty: 2 },
    { sku: 'B-2', qty: 1 },
  ],
  'a.b': 'dotted',
  'with space': 'spaced',
};

describe('resolveTemplate: a template that is exactly one placeholder keeps the value type', () => {
  test('a number stays a number', () => {
    expect(resolveTemplate('{{trigger.id}}', order)).toBe(42);
  });

  test('a boolean stays a boolean', () => {
    expect(resolveTemplate('{{trigger.paid}}', order)).toBe(true);
  });

  test('an object stays an object', () => {
    expect(resolveTemplate('{{trigger.customer}}', order)).toEqual({ name: 'Ada', tags: ['vip', 'eu'] });
  });

  test('an array stays an array', () => {
    expect(resolveTemplate('{{trigger.customer.tags}}', order)).toEqual(['vip', 'eu']);
  });

  test('null stays null', () => {
    expect(resolveTemplate('{{trigger.note}}', order)).toBeNull();
  });

  test('a string stays a string', () => {
    expect(resolveTemplate('{{trigger.customer.name}}', order)).toBe('Ada');
  });
});

describe('resolveTemplate: placeholders inside text', () => {
  test('numbers and booleans are written as text', () => {
    expect(resolveTemplate('order {{trigger.id}} paid={{trigger.paid}}', order)).toBe('order 42 paid=true');
  });

  test('objects are written as JSON', () => {
    expect(resolveTemplate('customer: {{trigger.customer}}', order)).toBe(
      'customer: {"name":"Ada","tags":["vip","eu"]}',
    );
  });

  test('arrays are written as JSON', () => {
    expect(resolveTemplate('tags={{trigger.customer.tags}}', order)).toBe('tags=["vip","eu"]');
  });

  test('null is written as an empty string', () => {
    expect(resolveTemplate('note=[{{trigger.note}}]', order)).toBe('note=[]');
  });

  test('a missing path inside text is written as an empty string', () => {
    expect(resolveTemplate('x={{trigger.nope.deeper}};', order)).toBe('x=;');
  });
});

describe('resolveTemplate: paths', () => {
  test('a missing path gives an empty string', () => {
    expect(resolveTemplate('{{trigger.nope}}', order)).toBe('');
  });

  test('a path through a primitive gives an empty string', () => {
    expect(resolveTemplate('{{trigger.id.length}}', order)).toBe('');
  });

  test('{{trigger}} is the whole trigger data', () => {
    expect(resolveTemplate('{{trigger}}', order)).toEqual(order);
  });

  test('dots and [n] index into objects and arrays', () => {
    expect(resolveTemplate('{{trigger.items[0].sku}}', order)).toBe('A-1');
    expect(resolveTemplate('{{trigger.items[1].qty}}', order)).toBe(1);
  });

  test('an array index past the end gives an empty string', () => {
    expect(resolveTemplate('{{trigger.items[5].sku}}', order)).toBe('');
  });

  test('["key"] reaches keys that contain dots', () => {
    expect(resolveTemplate('{{trigger["a.b"]}}', order)).toBe('dotted');
  });

  test('["key"] reaches keys that contain spaces', () => {
    expect(resolveTemplate('{{trigger["with space"]}}', order)).toBe('spaced');
  });

  test('["key"] accepts JSON escapes', () => {
    expect(resolveTemplate('{{trigger["say \\"hi\\""]}}', { 'say "hi"': 'ok' })).toBe('ok');
  });

  test('a [n] index on the top-level array works', () => {
    expect(resolveTemplate('{{trigger[1]}}', ['zero', 'one'])).toBe('one');
  });

  test('whitespace inside the braces is allowed', () => {
    expect(resolveTemplate('{{  trigger.items[0].sku  }}', order)).toBe('A-1');
    expect(resolveTemplate('sku={{ trigger.items[0].sku }}', order)).toBe('sku=A-1');
  });

  test('text that only looks like a placeholder is left alone', () => {
    expect(resolveTemplate('{{ order.id }} and {{triggers}}', order)).toBe('{{ order.id }} and {{triggers}}');
  });
});

describe('resolveTemplate: nested templates', () => {
  test('objects are resolved recursively', () => {
    const template: JsonValue = {
      orderId: '{{trigger.id}}',
      customer: { name: '{{trigger.customer.name}}', label: 'Dear {{trigger.customer.name}}' },
    };
    expect(resolveTemplate(template, order)).toEqual({
      orderId: 42,
      customer: { name: 'Ada', label: 'Dear Ada' },
    });
  });

  test('arrays are resolved recursively', () => {
    const template: JsonValue = ['{{trigger.items[0].sku}}', ['{{trigger.items[1].qty}}'], { q: '{{trigger.paid}}' }];
    expect(resolveTemplate(template, order)).toEqual(['A-1', [1], { q: true }]);
  });

  test('non-string leaves are kept', () => {
    expect(resolveTemplate({ n: 1, b: false, z: null }, order)).toEqual({ n: 1, b: false, z: null });
  });

  test('object keys are not resolved', () => {
    expect(resolveTemplate({ '{{trigger.id}}': 'v' }, order)).toEqual({ '{{trigger.id}}': 'v' });
  });
});

describe('resolveTemplate: prototype keys', () => {
  afterEach(() => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('{{trigger.constructor}} on {} gives an empty string', () => {
    expect(resolveTemplate('{{trigger.constructor}}', {})).toBe('');
  });

  test('{{trigger.__proto__}} on {} gives an empty string', () => {
    expect(resolveTemplate('{{trigger.__proto__}}', {})).toBe('');
  });

  test('{{trigger.prototype}} on {} gives an empty string', () => {
    expect(resolveTemplate('{{trigger.prototype}}', {})).toBe('');
  });

  test('inherited members such as toString are not followed', () => {
    expect(resolveTemplate('{{trigger.toString}}', {})).toBe('');
    expect(resolveTemplate('{{trigger.hasOwnProperty}}', {})).toBe('');
  });

  test('__proto__ is followed when it is an own key of the trigger data', () => {
    const data = JSON.parse('{"__proto__": {"polluted": "yes"}}') as JsonValue;
    expect(resolveTemplate('{{trigger.__proto__}}', data)).toEqual({ polluted: 'yes' });
    expect(resolveTemplate('{{trigger.__proto__.polluted}}', data)).toBe('yes');
  });

  test('["__proto__"] bracket keys are treated like dotted ones', () => {
    expect(resolveTemplate('{{trigger["__proto__"]}}', {})).toBe('');
    expect(resolveTemplate('{{trigger["constructor"]["prototype"]}}', {})).toBe('');
  });

  test('a template with a __proto__ key gives an own key and does not pollute Object.prototype', () => {
    const template = JSON.parse('{"__proto__": {"polluted": "{{trigger.id}}"}}') as JsonValue;
    const result = resolveTemplate(template, order) as Record<string, JsonValue>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(result, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ polluted: 42 });
    expect((result as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('resolving a __proto__ path into __proto__-shaped data does not pollute Object.prototype', () => {
    const data = JSON.parse(
      '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}',
    ) as JsonValue;
    resolveTemplate(
      { a: '{{trigger.__proto__}}', b: '{{trigger.constructor.prototype}}', c: 'x {{trigger.__proto__.polluted}}' },
      data,
    );
  });
});

describe('resolveTemplate: malformed bracket keys', () => {
  // `["..."]` keys are decoded as JSON strings; the path pattern admits escapes and raw control
  // characters that are not valid JSON, so these must not make resolving throw.
  test.each([
    ['an invalid escape', '{{trigger["\\x"]}}'],
    ['an incomplete unicode escape', '{{trigger["\\u12"]}}'],
    ['a raw newline', '{{trigger["a\nb"]}}'],
  ])('a bracket key with %s does not throw', (_label, template) => {
    expect(() => resolveTemplate(template, { x: 1, 'a\nb': 2 })).not.toThrow();
  });
});

describe('resolveTemplate: properties', () => {
  test('{{trigger}} returns any JSON value unchanged', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(resolveTemplate('{{trigger}}', v as JsonValue)).toEqual(v);
      }),
    );
  });

  test('a template without placeholders is returned unchanged', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((t) => !JSON.stringify(t).includes('{{')),
        fc.jsonValue(),
        (template, trigger) => {
          expect(resolveTemplate(template as JsonValue, trigger as JsonValue)).toEqual(template);
        },
      ),
    );
  });

  /** Text around placeholder-shaped pieces, so that (near-)placeholders are common. */
  const segment = fc.oneof(
    fc.string().map((name) => `.${name}`),
    fc.nat().map((n) => `[${n}]`),
    fc
      .string({ unit: fc.constantFrom('a', '.', ' ', 'é', '\\', 'x', 'u', '0', '\n', '\u0000') })
      .map((key) => `["${key}"]`),
  );
  const placeholderish = fc
    .tuple(
      fc.string(),
      fc.constantFrom('{{', '{{ '),
      fc.array(segment, { maxLength: 4 }),
      fc.constantFrom('}}', ' }}'),
      fc.string(),
    )
    .map(([before, open, segments, close, after]) => `${before}${open}trigger${segments.join('')}${close}${after}`);

  test('never throws for arbitrary strings as templates', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), placeholderish), fc.jsonValue(), (template, trigger) => {
        resolveTemplate(template, trigger as JsonValue);
      }),
    );
  });
});
