import fc from 'fast-check';
import {
  BodyParseError,
  csvRows,
  nestingDepth,
  parseOne,
  XML_ATTRIBUTE_PREFIX,
  XML_TEXT_KEY,
} from '../../src/domain/body-formats';
import { DEFAULT_DELIVERY_CAPS, DeliveryOverCap, TriggerBytes, UNCAPPED } from '../../src/domain/delivery-caps';
import { MAX_NESTING_DEPTH } from '../../src/domain/limits';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const INVALID_UTF8 = Buffer.from([0xff, 0xfe, 0x41]);

async function collect(body: Uint8Array): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for await (const row of csvRows(body)) rows.push(row);
  return rows;
}

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

  test('csv throws BodyParseError when iterated', async () => {
    await expect(collect(INVALID_UTF8)).rejects.toThrow(BodyParseError);
  });
});

describe('csvRows', () => {
  test('the header row names the columns', async () => {
    expect(await collect(bytes('id,name\n1,Ada\n2,Grace\n'))).toEqual([
      { id: '1', name: 'Ada' },
      { id: '2', name: 'Grace' },
    ]);
  });

  test('a last row without a trailing newline is read', async () => {
    expect(await collect(bytes('id,name\n1,Ada'))).toEqual([{ id: '1', name: 'Ada' }]);
  });

  test('quoted fields keep embedded commas, quotes and newlines', async () => {
    expect(await collect(bytes('a,b\n"x, ""y""\nz",2\n'))).toEqual([{ a: 'x, "y"\nz', b: '2' }]);
  });

  test('a UTF-8 byte order mark is not part of the first column name', async () => {
    expect(await collect(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('id,name\n1,Ada\n')]))).toEqual([
      { id: '1', name: 'Ada' },
    ]);
  });

  test('CRLF line endings are handled', async () => {
    expect(await collect(bytes('id,name\r\n1,Ada\r\n2,Grace\r\n'))).toEqual([
      { id: '1', name: 'Ada' },
      { id: '2', name: 'Grace' },
    ]);
  });

  test('blank lines are skipped', async () => {
    expect(await collect(bytes('id,name\n\n1,Ada\n\n\n2,Grace\n\n'))).toEqual([
      { id: '1', name: 'Ada' },
      { id: '2', name: 'Grace' },
    ]);
  });

  test('a header only gives zero rows', async () => {
    expect(await collect(bytes('id,name\n'))).toEqual([]);
  });

  test('an empty body gives zero rows', async () => {
    expect(await collect(bytes(''))).toEqual([]);
  });

  test('short rows are not padded: a row has the columns it has', async () => {
    expect(await collect(bytes('a,b,c\n1\n1,2\n'))).toEqual([{ a: '1' }, { a: '1', b: '2' }]);
  });

  test('extra fields are kept under their position', async () => {
    expect(await collect(bytes('a,b\n1,2,3\n'))).toEqual([{ a: '1', b: '2', 2: '3' }]);
  });

  test('a __proto__ column stays an own property and does not pollute Object.prototype', async () => {
    const [row] = await collect(bytes('__proto__,constructor\npolluted,x\n'));
    expect(Object.prototype.hasOwnProperty.call(row, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('polluted');
    expect(Object.getOwnPropertyDescriptor(row, 'constructor')?.value).toBe('x');
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('an unclosed quote throws BodyParseError when iterated', async () => {
    await expect(collect(bytes('a,b\n"1,2\n'))).rejects.toThrow(BodyParseError);
  });

  test('CSV errors have messages starting with "invalid CSV"', async () => {
    await expect(collect(bytes('a,b\n"1,2\n'))).rejects.toThrow(/^invalid CSV/);
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

  async function onlyBodyParseErrorAsync(run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
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

  test('collecting csvRows over arbitrary bytes throws nothing but BodyParseError', async () => {
    await fc.assert(fc.asyncProperty(fc.uint8Array(), (body) => onlyBodyParseErrorAsync(() => collect(body))));
  });

  test('collecting csvRows over arbitrary CSV-like text throws nothing but BodyParseError', async () => {
    const csvish = fc
      .array(fc.constantFrom('a', '1', ',', '"', '\n', '\r\n', ' ', '\ufeff', '__proto__'), { maxLength: 30 })
      .map((parts) => parts.join(''));
    await fc.assert(fc.asyncProperty(csvish, (text) => onlyBodyParseErrorAsync(() => collect(bytes(text)))));
  });
});

it('decodes each reference once: &amp;lt; stays the text &lt;', () => {
  expect(parseOne('xml', Buffer.from('<a><b>&amp;lt; &#65; &lt; &amp;#65;</b></a>'))).toEqual({
    a: { b: '&lt; A < &#65;' },
  });
});

describe('csvRows on large bodies', () => {
  const collect = async (body: Uint8Array) => {
    const rows: Record<string, string>[] = [];
    for await (const row of csvRows(body)) rows.push(row);
    return rows;
  };

  it('reads every row of a body larger than one parser slice, multi-byte characters across slice edges included', async () => {
    // 'ż' is two bytes; rows of odd length put some of them across the 64 KiB slice boundaries.
    const lines = Array.from({ length: 30_000 }, (_, i) => `${i},${'ż'.repeat(i % 7)}x`);
    const rows = await collect(Buffer.from(['n,v', ...lines].join('\n')));
    expect(rows).toHaveLength(30_000);
    expect(rows[29_999]).toEqual({ n: '29999', v: `${'ż'.repeat(29_999 % 7)}x` });
    expect(rows.every((r, i) => r.v === `${'ż'.repeat(i % 7)}x`)).toBe(true);
  });

  it('stops cleanly when the consumer stops early', async () => {
    const body = Buffer.from(['n', ...Array.from({ length: 50_000 }, (_, i) => String(i))].join('\n'));
    const seen: string[] = [];
    for await (const row of csvRows(body)) {
      seen.push(row.n);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(['0', '1', '2']);
  });
});

describe('csvRows caps (DeliveryCaps)', () => {
  const caps = { ...UNCAPPED, CSV_MAX_ROWS: 3, CSV_MAX_COLUMNS: 4, CSV_MAX_CELL_BYTES: 8 };
  const collectCapped = async (text: string) => {
    const rows: Record<string, string>[] = [];
    for await (const row of csvRows(bytes(text), caps)) rows.push(row);
    return rows;
  };

  it('reads up to CSV_MAX_ROWS rows, and refuses one more naming the cap', async () => {
    expect(await collectCapped('n\n1\n2\n3\n')).toHaveLength(3);
    const over = collectCapped('n\n1\n2\n3\n4\n');
    await expect(over).rejects.toThrow(DeliveryOverCap);
    await expect(collectCapped('n\n1\n2\n3\n4\n')).rejects.toThrow('over CSV_MAX_ROWS: more than 3 rows');
  });

  it('refuses a header or a row wider than CSV_MAX_COLUMNS', async () => {
    expect(await collectCapped('a,b,c,d\n1,2,3,4\n')).toHaveLength(1);
    await expect(collectCapped('a,b,c,d,e\n1\n')).rejects.toThrow(
      'over CSV_MAX_COLUMNS: a row of 5 columns (at most 4)',
    );
    await expect(collectCapped('a\n1,2,3,4,5\n')).rejects.toThrow(/^over CSV_MAX_COLUMNS/);
  });

  it('counts a cell in UTF-8 bytes against CSV_MAX_CELL_BYTES (a header cell against its own cap)', async () => {
    expect(await collectCapped('a\n12345678\n')).toEqual([{ a: '12345678' }]);
    await expect(collectCapped('a\n123456789\n')).rejects.toThrow(
      'over CSV_MAX_CELL_BYTES: a cell of more than 8 bytes',
    );
    // Five two-byte characters are 10 bytes, over the cap, though only 5 characters.
    await expect(collectCapped('a\nżżżżż\n')).rejects.toThrow(/^over CSV_MAX_CELL_BYTES/);
    expect(await collectCapped('123456789\n1\n')).toEqual([{ '123456789': '1' }]);
  });

  it('makes no more data than was sent: a wide header over one-cell rows gives one key per row', async () => {
    const header = Array.from({ length: 200 }, (_, i) => `column_${i}`).join(',');
    const rows = [];
    for await (const row of csvRows(bytes(`${header}\n${'x\n'.repeat(1000)}`))) rows.push(row);
    expect(rows).toHaveLength(1000);
    expect(rows.every((r) => Object.keys(r).length === 1 && r.column_0 === 'x')).toBe(true);
  });
});

describe('TriggerBytes', () => {
  it('adds bytes up to MAX_TRIGGER_BYTES and refuses the byte past it', () => {
    const bytes = new TriggerBytes(10);
    bytes.add(6);
    bytes.add(4);
    expect(bytes.bytes).toBe(10);
    expect(() => bytes.add(1)).toThrow('over MAX_TRIGGER_BYTES: more than 10 bytes of trigger data');
  });
});

describe('a column name is capped by CSV_MAX_HEADER_CELL_BYTES, the cells below it by CSV_MAX_CELL_BYTES', () => {
  const read = async (text: string) => {
    const rows = [];
    for await (const row of csvRows(Buffer.from(text), { ...DEFAULT_DELIVERY_CAPS, CSV_MAX_HEADER_CELL_BYTES: 8 }))
      rows.push(row);
    return rows;
  };
  it('refuses a long name, and takes a long cell', async () => {
    await expect(read('a_long_name\n1\n')).rejects.toThrow(
      'over CSV_MAX_HEADER_CELL_BYTES: a column name of more than 8 bytes',
    );
    expect(await read('short\na_long_value\n')).toEqual([{ short: 'a_long_value' }]);
  });
});
