/** CSV bodies: their rows (csvRows), their caps (src/domain/delivery-caps.ts) and what they throw. */
import fc from 'fast-check';
import { BodyParseError, csvRows } from '../../src/domain/body-formats';
import { DEFAULT_DELIVERY_CAPS, DeliveryOverCap, TriggerBytes, UNCAPPED } from '../../src/domain/delivery-caps';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

async function collect(body: Uint8Array): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for await (const row of csvRows(body)) rows.push(row);
  return rows;
}

afterEach(() => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
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

describe('csvRows: invalid UTF-8', () => {
  test('throws BodyParseError when iterated', async () => {
    await expect(collect(Buffer.from([0xff, 0xfe, 0x41]))).rejects.toThrow(BodyParseError);
  });
});

describe('properties', () => {
  async function onlyBodyParseErrorAsync(run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
    } catch (err) {
      expect(err).toBeInstanceOf(BodyParseError);
    }
  }

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
