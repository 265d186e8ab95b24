/** Multipart bodies (src/domain/multipart.ts): fields as urlencoded gives them, files as their digest. */
import { createHash } from 'node:crypto';
import { BodyParseError } from '../../src/domain/body-formats';
import { parseUrlEncoded } from '../../src/domain/form-bodies';
import { parseMultipart } from '../../src/domain/multipart';
import {
  FORM_MAX_FIELDS,
  MAX_NESTING_DEPTH,
  MULTIPART_MAX_FIELD_BYTES,
  MULTIPART_MAX_PARTS,
} from '../../src/domain/limits';
import { bytes, encoded } from '../support/form-bodies';

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');
const NO_BOUNDARY = 'multipart body without a multipart/form-data Content-Type boundary';

const BOUNDARY = '----formboundary7MA4YWxkTrZu0gW';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** A multipart body written by hand: each part its header lines (UTF-8 unless told) and its bytes. */
function multipart(parts: Array<{ headers: string[]; body: Buffer | string; encoding?: 'latin1' }>): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    pieces.push(Buffer.from(`--${BOUNDARY}\r\n${part.headers.join('\r\n')}\r\n\r\n`, part.encoding ?? 'utf8'));
    pieces.push(typeof part.body === 'string' ? bytes(part.body) : part.body);
    pieces.push(bytes('\r\n'));
  }
  pieces.push(bytes(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

const field = (name: string, body: Buffer | string, ...more: string[]) => ({
  headers: [`Content-Disposition: form-data; name="${name}"`, ...more],
  body,
});

const file = (name: string, filename: string, type: string, body: Buffer | string) => ({
  headers: [`Content-Disposition: form-data; name="${name}"; filename="${filename}"`, `Content-Type: ${type}`],
  body,
});

afterEach(() => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('polluted');
});

describe('parseMultipart', () => {
  test('a FormData as a real client encodes it: fields as urlencoded gives them, files as their digest', async () => {
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x0d, 0x0a, 0x2d, 0x2d, 0xc3, 0x28, 0x89]);
    const form = new FormData();
    form.append('type', 'subscribe');
    form.append('data[merges][FNAME]', 'Zoë 日本');
    form.append('tags[]', 'a');
    form.append('tags[]', 'b');
    form.append('repeated', '1');
    form.append('repeated', '2');
    form.append('upload', new Blob([binary], { type: 'application/octet-stream' }), 'résumé.bin');
    form.append('docs[]', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
    form.append('docs[]', new Blob([''], { type: 'text/csv' }), 'b.csv');
    const { body, contentType } = await encoded(form);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(await parseMultipart(body, contentType)).toEqual({
      type: 'subscribe',
      data: { merges: { FNAME: 'Zoë 日本' } },
      tags: ['a', 'b'],
      repeated: ['1', '2'],
      upload: { filename: 'résumé.bin', contentType: 'application/octet-stream', size: 10, sha256: sha256(binary) },
      docs: [
        { filename: 'a.txt', contentType: 'text/plain', size: 5, sha256: sha256(bytes('hello')) },
        { filename: 'b.csv', contentType: 'text/csv', size: 0, sha256: sha256(Buffer.alloc(0)) },
      ],
    });
  });

  test('the same fields urlencoded and multipart give the same object', async () => {
    const pairs: Array<[string, string]> = [
      ['type', 'subscribe'],
      ['data[merges][FNAME]', 'Ann'],
      ['data[email]', 'a@b.c'],
      ['a[0]', 'x'],
      ['a[1]', 'y'],
      ['a b', 'c+d'],
    ];
    const form = new FormData();
    for (const [name, value] of pairs) form.append(name, value);
    const { body, contentType } = await encoded(form);
    expect(await parseMultipart(body, contentType)).toEqual(parseUrlEncoded(new URLSearchParams(pairs).toString()));
  });

  test('a body written by hand: a binary file, a file without a name, an empty field', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00, 0x80]);
    const body = multipart([
      field('note', 'line 1\r\nline 2'),
      file('image', 'C:\\Users\\ann\\photo.png', 'image/png', png),
      { headers: ['Content-Disposition: form-data; name="raw"', 'Content-Type: application/octet-stream'], body: png },
      field('empty', ''),
    ]);
    expect(await parseMultipart(body, MULTIPART)).toEqual({
      note: 'line 1\r\nline 2',
      image: { filename: 'photo.png', contentType: 'image/png', size: png.length, sha256: sha256(png) },
      raw: { filename: null, contentType: 'application/octet-stream', size: png.length, sha256: sha256(png) },
      empty: '',
    });
  });

  test('a text part must be UTF-8; a file part need not be', async () => {
    const latin1 = Buffer.from('café', 'latin1');
    await expect(parseMultipart(multipart([field('name', latin1)]), MULTIPART)).rejects.toThrow(
      'invalid multipart form: field "name" is not valid UTF-8',
    );
    const parsed = await parseMultipart(multipart([file('f', 'f.txt', 'text/plain', latin1)]), MULTIPART);
    expect(parsed.f).toEqual({ filename: 'f.txt', contentType: 'text/plain', size: 4, sha256: sha256(latin1) });
  });

  test('a text part that declares its charset is read in it (Spring sends charset=UTF-8)', async () => {
    const body = multipart([
      field('utf8', bytes('café'), 'Content-Type: text/plain;charset=UTF-8'),
      field('latin1', Buffer.from('café', 'latin1'), 'Content-Type: text/plain; charset=ISO-8859-1'),
      field('plain', bytes('Zoë')),
      // Its characters as Latin-1 bytes would be UTF-8 for "é": read as declared, it stays what was sent.
      field('mojibake', bytes('Ã©'), 'Content-Type: text/plain; charset=utf-8'),
    ]);
    expect(await parseMultipart(body, MULTIPART)).toEqual({
      utf8: 'café',
      latin1: 'café',
      plain: 'Zoë',
      mojibake: 'Ã©',
    });
    const unknown = multipart([field('jp', Buffer.from([0x93, 0xfa]), 'Content-Type: text/plain; charset=Shift_JIS')]);
    await expect(parseMultipart(unknown, MULTIPART)).rejects.toThrow(
      'invalid multipart form: field "jp" is in a charset that cannot be read',
    );
  });

  test('a field name must be UTF-8; a file name is UTF-8 when it is, else Latin-1', async () => {
    const utf8Name = multipart([field('prénom', 'Zoë')]);
    expect(await parseMultipart(utf8Name, MULTIPART)).toEqual({ prénom: 'Zoë' });
    const latin1Name = multipart([{ ...field('prénom', 'Zoë'), encoding: 'latin1' }]);
    await expect(parseMultipart(latin1Name, MULTIPART)).rejects.toThrow(
      'invalid multipart form: a field name is not valid UTF-8',
    );
    const named = (filename: string, encoding?: 'latin1') => ({
      headers: [`Content-Disposition: form-data; name="f"; ${filename}`, 'Content-Type: application/pdf'],
      body: '%PDF',
      encoding,
    });
    const filenames = async (...parts: ReturnType<typeof named>[]) => {
      const parsed = await parseMultipart(multipart(parts), MULTIPART);
      return (parsed.f as Array<{ filename: string }>).map((f) => f.filename);
    };
    expect(
      await filenames(
        named('filename="résumé.pdf"'),
        named('filename="résumé.pdf"', 'latin1'),
        named(`filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`),
        named(`filename*=ISO-8859-1''r%E9sum%E9.pdf`),
        named(`filename*=UTF-8''%E2%82%AC.pdf`),
        named('filename="../../etc/passwd"'),
      ),
    ).toEqual(['résumé.pdf', 'résumé.pdf', 'résumé.pdf', 'résumé.pdf', '€.pdf', 'passwd']);
  });

  test('a part without a name is the field ""', async () => {
    const body = multipart([{ headers: ['Content-Disposition: form-data'], body: 'x' }]);
    expect(await parseMultipart(body, MULTIPART)).toEqual({ '': 'x' });
  });

  test('__proto__, constructor and prototype stay plain data', async () => {
    const form = new FormData();
    form.append('__proto__[polluted]', '1');
    form.append('constructor[prototype][polluted]', '2');
    form.append('a[__proto__]', new Blob(['x']), 'x.txt');
    const { body, contentType } = await encoded(form);
    const parsed = await parseMultipart(body, contentType);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'constructor', 'a']);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(Object.hasOwn(parsed.a as object, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(parsed.a)).toBe(Object.prototype);
  });

  test('a file and a value under one name with nested fields is refused', async () => {
    const body = multipart([file('a', 'a.txt', 'text/plain', 'x'), field('a[b]', 'y')]);
    await expect(parseMultipart(body, MULTIPART)).rejects.toThrow(
      'invalid form: "a" has both a value and nested fields',
    );
  });

  test('without a multipart/form-data Content-Type and its boundary, it is refused', async () => {
    const body = multipart([field('a', '1')]);
    for (const contentType of [
      null,
      'application/x-www-form-urlencoded',
      'multipart/mixed; boundary=x',
      'multipart/form-data',
    ]) {
      await expect(parseMultipart(body, contentType)).rejects.toThrow(new BodyParseError(NO_BOUNDARY));
    }
    await expect(parseMultipart(body, `Multipart/Form-Data; boundary="${BOUNDARY}"`)).resolves.toEqual({ a: '1' });
  });

  test('a truncated or malformed body is refused with what is wrong', async () => {
    const body = multipart([field('a', '1'), file('f', 'f.bin', 'application/octet-stream', Buffer.alloc(1000, 7))]);
    for (const cut of [body.length - 10, body.length - 600, 50, 10]) {
      await expect(parseMultipart(body.subarray(0, cut), MULTIPART)).rejects.toThrow(
        /^invalid multipart form: Unexpected end of (form|file)$/,
      );
    }
    await expect(parseMultipart(Buffer.alloc(0), MULTIPART)).rejects.toThrow(BodyParseError);
    await expect(parseMultipart(bytes('not a multipart body at all'), MULTIPART)).rejects.toThrow(BodyParseError);
    const badHeader = bytes(`--${BOUNDARY}\r\n${'x'.repeat(20_000)}\r\n\r\nv\r\n--${BOUNDARY}--\r\n`);
    const malformed = 'invalid multipart form: Malformed part header';
    await expect(parseMultipart(badHeader, MULTIPART)).rejects.toThrow(malformed);
  });

  test(`at most ${MULTIPART_MAX_PARTS} parts and ${FORM_MAX_FIELDS} fields`, async () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => file(`f${i}`, 'x.txt', 'text/plain', 'x'));
    const fields = (n: number) => Array.from({ length: n }, (_, i) => field(`t${i}`, 'x'));
    const half = MULTIPART_MAX_PARTS / 2;
    const full = await parseMultipart(multipart([...files(half), ...fields(half)]), MULTIPART);
    expect(Object.keys(full)).toHaveLength(MULTIPART_MAX_PARTS);
    await expect(parseMultipart(multipart(files(MULTIPART_MAX_PARTS + 1)), MULTIPART)).rejects.toThrow(
      `invalid multipart form: more than ${MULTIPART_MAX_PARTS} parts`,
    );
    await expect(parseMultipart(multipart(fields(FORM_MAX_FIELDS + 1)), MULTIPART)).rejects.toThrow(
      `invalid multipart form: more than ${FORM_MAX_FIELDS} fields`,
    );
  });

  test(`a text field up to ${MULTIPART_MAX_FIELD_BYTES} bytes (busboy's own 1 MiB does not apply)`, async () => {
    const large = 'a'.repeat(2 * 1024 * 1024);
    expect(await parseMultipart(multipart([field('email', large)]), MULTIPART)).toEqual({ email: large });
    const over = Buffer.alloc(MULTIPART_MAX_FIELD_BYTES + 1, 0x61);
    await expect(parseMultipart(multipart([field('email', over)]), MULTIPART)).rejects.toThrow(
      `invalid multipart form: a field of more than ${MULTIPART_MAX_FIELD_BYTES} bytes`,
    );
  });

  test('nesting no deeper than MAX_NESTING_DEPTH', async () => {
    const body = multipart([field(`a${'[b]'.repeat(MAX_NESTING_DEPTH)}`, '1')]);
    await expect(parseMultipart(body, MULTIPART)).rejects.toThrow('invalid form: nested deeper than 512 levels');
  });
});
