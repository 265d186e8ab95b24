/** JSON, XML and text bodies (src/domain/body-formats.ts); CSV bodies: ./csv-bodies.test.ts. */
import fc from 'fast-check';
import {
  BodyParseError,
  nestingDepth,
  parseOne,
  XML_ATTRIBUTE_PREFIX,
  XML_TEXT_KEY,
} from '../../src/domain/body-formats';
import { MAX_NESTING_DEPTH } from '../../src/domain/limits';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const INVALID_UTF8 = Buffer.from([0xff, 0xfe, 0x41]);

function nested(depth: number, open: string, close: string, inner: string): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

afterEach(() => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe('parseOne json', () => {
  test('parses an object', () => {
    expect(parseOne('json', bytes('{"a":1,"b":[true,null,"x"]}'))).toEqual({ a: 1, b: [true, null, 'x'] });
  });

  test('strips a UTF-8 byte order mark', () => {
    expect(parseOne('json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('{"a":1}')]))).toEqual({ a: 1 });
  });

  test('invalid JSON throws BodyParseError starting with "invalid JSON"', () => {
    const parse = () => parseOne('json', bytes('{"a":'));
    expect(parse).toThrow(BodyParseError);
    expect(parse).toThrow(/^invalid JSON/);
  });

  test('an empty body is invalid JSON', () => {
    expect(() => parseOne('json', bytes(''))).toThrow(BodyParseError);
  });

  test('a 100-level nested array parses', () => {
    let expected: unknown = 1;
    for (let i = 0; i < 100; i++) expected = [expected];
    expect(parseOne('json', bytes(nested(100, '[', ']', '1')))).toEqual(expected);
  });

  test('a 100-level nested object parses', () => {
    let expected: unknown = 1;
    for (let i = 0; i < 100; i++) expected = { a: expected };
    expect(parseOne('json', bytes(nested(100, '{"a":', '}', '1')))).toEqual(expected);
  });

  test(`nesting up to ${MAX_NESTING_DEPTH} levels is accepted`, () => {
    expect(nestingDepth(parseOne('json', bytes(nested(MAX_NESTING_DEPTH, '[', ']', ''))))).toBe(MAX_NESTING_DEPTH);
  });

  test.each([MAX_NESTING_DEPTH + 1, 100_000])(
    '%i levels are refused with BodyParseError, not a stack overflow',
    (depth) => {
      expect(() => parseOne('json', bytes(nested(depth, '{"a":', '}', '1')))).toThrow(
        new BodyParseError(`invalid JSON: nested deeper than ${MAX_NESTING_DEPTH} levels`),
      );
    },
  );

  test('a __proto__ key stays an own key', () => {
    const parsed = parseOne('json', bytes('{"__proto__":{"polluted":"yes"}}')) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(parsed, '__proto__')).toBe(true);
    expect(parsed.polluted).toBeUndefined();
  });
});

describe('parseOne xml', () => {
  test('the root element is the top key and text stays text', () => {
    expect(parseOne('xml', bytes('<order><id>7</id></order>'))).toEqual({ order: { id: '7' } });
  });

  test('numeric-looking text is not converted', () => {
    expect(parseOne('xml', bytes('<order><id>007</id></order>'))).toEqual({ order: { id: '007' } });
  });

  test('the XML declaration is ignored', () => {
    expect(parseOne('xml', bytes('<?xml version="1.0" encoding="UTF-8"?>\n<order><id>7</id></order>'))).toEqual({
      order: { id: '7' },
    });
  });

  test('a UTF-8 byte order mark is stripped', () => {
    expect(parseOne('xml', bytes('\ufeff<order><id>7</id></order>'))).toEqual({ order: { id: '7' } });
  });

  test('attributes appear under the attribute prefix', () => {
    expect(XML_ATTRIBUTE_PREFIX).toBe('@');
    expect(parseOne('xml', bytes('<order currency="EUR"><id>7</id></order>'))).toEqual({
      order: { '@currency': 'EUR', id: '7' },
    });
  });

  test('the text of an element with attributes appears under #text', () => {
    expect(XML_TEXT_KEY).toBe('#text');
    expect(parseOne('xml', bytes('<price currency="EUR">9.50</price>'))).toEqual({
      price: { '@currency': 'EUR', '#text': '9.50' },
    });
  });

  test('repeated elements become arrays', () => {
    expect(parseOne('xml', bytes('<order><item>a</item><item>b</item><item>c</item></order>'))).toEqual({
      order: { item: ['a', 'b', 'c'] },
    });
  });

  test('predefined entities are decoded', () => {
    expect(parseOne('xml', bytes('<a>&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;</a>'))).toEqual({
      a: '<b> & "c" \'d\'',
    });
  });

  test('character references are decoded', () => {
    // XML 1.0 section 4.1: a conforming parser replaces character references; the module's own
    // comment says "Only XML's predefined entities and character references are decoded".
    expect(parseOne('xml', bytes('<a>&#65;&#x42;</a>'))).toEqual({ a: 'AB' });
  });

  test('CDATA content is kept as text', () => {
    expect(parseOne('xml', bytes('<a><![CDATA[x < y & z]]></a>'))).toEqual({ a: 'x < y & z' });
  });

  test('a billion-laughs document is refused', () => {
    const doc = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE lolz [',
      '  <!ENTITY lol "lol">',
      '  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">',
      '  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">',
      '  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">',
      ']>',
      '<lolz>&lol4;</lolz>',
    ].join('\n');
    expect(() => parseOne('xml', bytes(doc))).toThrow(BodyParseError);
  });

  test('an external SYSTEM entity is refused', () => {
    const doc = '<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>';
    expect(() => parseOne('xml', bytes(doc))).toThrow(BodyParseError);
  });

  test('malformed XML throws BodyParseError', () => {
    expect(() => parseOne('xml', bytes('<order><id>7</order>'))).toThrow(BodyParseError);
  });

  test('malformed XML messages start with "invalid XML"', () => {
    expect(() => parseOne('xml', bytes('<order>'))).toThrow(/^invalid XML/);
  });

  test('an empty body has no root element and throws', () => {
    expect(() => parseOne('xml', bytes(''))).toThrow(BodyParseError);
  });

  test('a document with only a declaration and a comment has no root element and throws', () => {
    expect(() => parseOne('xml', bytes('<?xml version="1.0"?><!-- nothing here -->'))).toThrow(BodyParseError);
  });

  test('plain text is not XML', () => {
    expect(() => parseOne('xml', bytes('hello'))).toThrow(BodyParseError);
  });

  test('attribute names such as __proto__ stay prefixed own keys', () => {
    const parsed = parseOne('xml', bytes('<a __proto__="x" constructor="y"/>')) as Record<
      string,
      Record<string, unknown>
    >;
    expect(parsed.a).toEqual({ '@__proto__': 'x', '@constructor': 'y' });
  });

  // Element names that the XML parser refuses must be reported like any other unreadable body.
  test.each(['__proto__', 'constructor', 'prototype'])('an element named %s throws BodyParseError', (name) => {
    expect(() => parseOne('xml', bytes(`<root><${name}><polluted>yes</polluted></${name}></root>`))).toThrow(
      BodyParseError,
    );
  });
});

describe('parseOne xml nesting', () => {
  test('100 nested elements parse', () => {
    const parsed = parseOne('xml', bytes(nested(100, '<a>', '</a>', 'x')));
    expect(nestingDepth(parsed)).toBe(100);
  });

  test.each([MAX_NESTING_DEPTH + 1, 100_000])('%i nested elements are refused with BodyParseError', (depth) => {
    expect(() => parseOne('xml', bytes(nested(depth, '<a>', '</a>', 'x')))).toThrow(BodyParseError);
  });
});

describe('nestingDepth', () => {
  test.each([
    [1, 0],
    [null, 0],
    [[], 1],
    [{ a: [1, { b: {} }] }, 4],
    [[[], [[[]]], []], 4],
  ])('%j is %i deep', (value, depth) => {
    expect(nestingDepth(value as never)).toBe(depth);
  });
});

describe('parseOne text', () => {
  test('the body is the text property', () => {
    expect(parseOne('text', bytes('hello\nworld'))).toEqual({ text: 'hello\nworld' });
  });

  test('an empty body is an empty text', () => {
    expect(parseOne('text', bytes(''))).toEqual({ text: '' });
  });

  test('non-ASCII text is decoded as UTF-8', () => {
    expect(parseOne('text', bytes('grüße €'))).toEqual({ text: 'grüße €' });
  });
});

describe('parseOne: invalid UTF-8', () => {
  test.each(['json', 'xml', 'text'] as const)('%s throws BodyParseError', (format) => {
    expect(() => parseOne(format, INVALID_UTF8)).toThrow(BodyParseError);
  });
});

describe('properties', () => {
  function onlyBodyParseError(run: () => unknown): void {
    try {
      run();
    } catch (err) {
      expect(err).toBeInstanceOf(BodyParseError);
    }
  }

  test.each(['json', 'xml', 'text'] as const)(
    'parseOne %s throws nothing but BodyParseError for arbitrary bytes',
    (format) => {
      fc.assert(fc.property(fc.uint8Array(), (body) => onlyBodyParseError(() => parseOne(format, body))));
    },
  );

  test.each(['json', 'xml', 'text'] as const)(
    'parseOne %s throws nothing but BodyParseError for arbitrary text',
    (format) => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary' }), (text) => onlyBodyParseError(() => parseOne(format, bytes(text)))),
      );
    },
  );

  test('parseOne xml throws nothing but BodyParseError for XML-like text', () => {
    const name = fc.constantFrom('a', 'b', 'item', 'x:y', '__proto__', 'constructor', 'toString');
    const element: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom('text', '7', '&amp;', '&#65;', '<![CDATA[x]]>', '<!-- c -->', ''),
        fc
          .tuple(
            name,
            fc.constantFrom('', ' id="1"', ' __proto__="p"', ' a="1" a="2"'),
            fc.array(tie('node'), { maxLength: 3 }),
          )
          .map(([tag, attrs, children]) => `<${tag}${attrs}>${children.join('')}</${tag}>`),
      ),
    })).node;
    fc.assert(fc.property(element, (text) => onlyBodyParseError(() => parseOne('xml', bytes(text)))));
  });
});

it('decodes each reference once: &amp;lt; stays the text &lt;', () => {
  expect(parseOne('xml', Buffer.from('<a><b>&amp;lt; &#65; &lt; &amp;#65;</b></a>'))).toEqual({
    a: { b: '&lt; A < &#65;' },
  });
});
