/** URL-encoded bodies, a form by its Content-Type, and JSON or a form (src/domain/form-bodies.ts). */
import fc from 'fast-check';
import { BodyParseError, parseOne } from '../../src/domain/body-formats';
import { jsonOrForm, parseForm, parseUrlEncoded } from '../../src/domain/form-bodies';
import { FORM_MAX_FIELDS, MAX_NESTING_DEPTH } from '../../src/domain/limits';
import { bytes, encoded } from '../support/form-bodies';

afterEach(() => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('polluted');
});

describe('parseUrlEncoded', () => {
  test('plain names give strings, decoded as URLSearchParams decodes', () => {
    expect(parseUrlEncoded('a=hello+world&b=caf%C3%A9&c=100%25&d=1%2B1&e=&f')).toEqual({
      a: 'hello world',
      b: 'café',
      c: '100%',
      d: '1+1',
      e: '',
      f: '',
    });
  });

  test('an empty body is an empty object; empty fields between & are skipped', () => {
    expect(parseUrlEncoded('')).toEqual({});
    expect(parseUrlEncoded('&&a=1&&')).toEqual({ a: '1' });
  });

  test('escaped bytes that are not UTF-8 become U+FFFD, as in browsers', () => {
    expect(parseUrlEncoded('a=%FF')).toEqual({ a: '\ufffd' });
  });

  test('a leading ? is part of the first name (URLSearchParams would drop it)', () => {
    expect(parseUrlEncoded('?a=1&b=2')).toEqual({ '?a': '1', b: '2' });
  });

  test('a repeated name gives the array of its values in order', () => {
    expect(parseUrlEncoded('a=1&b=x&a=2&a=3')).toEqual({ a: ['1', '2', '3'], b: 'x' });
    expect(parseUrlEncoded('d[k]=1&d[k]=2')).toEqual({ d: { k: ['1', '2'] } });
  });

  test('bracketed names nest, as PHP and Mailchimp send them', () => {
    expect(parseUrlEncoded('data[merges][FNAME]=Ann&data[merges][LNAME]=Lee&data[email]=a%40b.c')).toEqual({
      data: { merges: { FNAME: 'Ann', LNAME: 'Lee' }, email: 'a@b.c' },
    });
    // Escaped brackets are brackets (the name is decoded first, as PHP does).
    expect(parseUrlEncoded('a%5Bb%5D=1')).toEqual({ a: { b: '1' } });
  });

  test('[] appends, and an object keyed 0…n-1 in order is an array', () => {
    expect(parseUrlEncoded('tags[]=a&tags[]=b')).toEqual({ tags: ['a', 'b'] });
    expect(parseUrlEncoded('a[0]=x&a[1]=y')).toEqual({ a: ['x', 'y'] });
    expect(parseUrlEncoded('items[0][name]=A&items[0][qty]=1&items[1][name]=B')).toEqual({
      items: [{ name: 'A', qty: '1' }, { name: 'B' }],
    });
    expect(parseUrlEncoded('a[][b]=1&a[][b]=2')).toEqual({ a: [{ b: '1' }, { b: '2' }] });
    expect(parseUrlEncoded('a[0]=x&a[]=y')).toEqual({ a: ['x', 'y'] });
  });

  test('indexes out of order or with gaps stay an object (no sparse arrays)', () => {
    const outOfOrder = parseUrlEncoded('a[1]=y&a[0]=x');
    expect(Array.isArray(outOfOrder.a)).toBe(false);
    expect(outOfOrder).toEqual({ a: { 0: 'x', 1: 'y' } });
    expect(parseUrlEncoded('a[5]=x')).toEqual({ a: { 5: 'x' } });
    expect(parseUrlEncoded('a[5]=x&a[]=y')).toEqual({ a: { 5: 'x', 6: 'y' } });
    expect(parseUrlEncoded('a[999999999999]=x')).toEqual({ a: { 999999999999: 'x' } });
    expect(parseUrlEncoded('a[01]=x')).toEqual({ a: { '01': 'x' } });
  });

  test('the top level is always an object', () => {
    const top = parseUrlEncoded('0=a&1=b');
    expect(Array.isArray(top)).toBe(false);
    expect(top).toEqual({ 0: 'a', 1: 'b' });
  });

  test('a name that is not wholly name[a][b]… is a plain key', () => {
    for (const name of ['a[b', '[a]', 'a[b]c', 'a]b[c]', 'a[b[c]]', 'a[b]]', '[]', 'a][']) {
      expect(parseUrlEncoded(`${encodeURIComponent(name)}=1`)).toEqual({ [name]: '1' });
    }
  });

  test('a name with both a value and nested fields is refused, in either order', () => {
    for (const body of ['a=1&a[b]=2', 'a[b]=2&a=1', 'a[]=1&a=2', 'x[y]=1&x[y][z]=2', 'x[y][z]=1&x[y]=2']) {
      const parse = () => parseUrlEncoded(body);
      expect(parse).toThrow(BodyParseError);
      expect(parse).toThrow(/^invalid form: "(a|x\[y\])" has both a value and nested fields$/);
    }
  });

  test('any text gives an object or a BodyParseError, never another error', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab[\]=&%0_]*$/), (text) => {
        try {
          expect(typeof parseUrlEncoded(text)).toBe('object');
        } catch (err) {
          expect(err).toBeInstanceOf(BodyParseError);
        }
      }),
    );
  });

  test('__proto__, constructor and prototype stay plain data at every level', () => {
    const parsed = parseUrlEncoded(
      '__proto__[polluted]=1&constructor[prototype][polluted]=2&prototype=3&a[__proto__][polluted]=4',
    );
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'constructor', 'prototype', 'a']);
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(
      JSON.parse(
        '{"__proto__":{"polluted":"1"},"constructor":{"prototype":{"polluted":"2"}},"prototype":"3",' +
          '"a":{"__proto__":{"polluted":"4"}}}',
      ),
    );
    const a = parsed.a as Record<string, unknown>;
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
    expect(Object.hasOwn(a, '__proto__')).toBe(true);
    expect((parsed.constructor as unknown as Record<string, unknown>).prototype).toEqual({ polluted: '2' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('repeating __proto__ as a value does not reach the prototype', () => {
    expect(() => parseUrlEncoded('__proto__=1&__proto__[x]=2')).toThrow(BodyParseError);
    expect(parseUrlEncoded('__proto__=1&__proto__=2')).toEqual(JSON.parse('{"__proto__":["1","2"]}'));
  });

  test(`at most ${FORM_MAX_FIELDS} fields`, () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=${i}`).join('&');
    expect(Object.keys(parseUrlEncoded(fields(FORM_MAX_FIELDS)))).toHaveLength(FORM_MAX_FIELDS);
    expect(() => parseUrlEncoded(fields(FORM_MAX_FIELDS + 1))).toThrow(BodyParseError);
    expect(() => parseUrlEncoded(fields(FORM_MAX_FIELDS + 1))).toThrow(
      `invalid form: more than ${FORM_MAX_FIELDS} fields`,
    );
    // A repeated name counts each time: a body of bare `a&` is refused before it is decoded.
    expect(() => parseUrlEncoded('a&'.repeat(8 * 1024 * 1024))).toThrow(/more than 1000 fields/);
  });

  test(`nested no deeper than ${MAX_NESTING_DEPTH} levels`, () => {
    const deepest = `a${'[b]'.repeat(MAX_NESTING_DEPTH - 1)}=1`;
    let value: unknown = parseUrlEncoded(deepest);
    for (let i = 0; i < MAX_NESTING_DEPTH - 1; i++) value = (value as Record<string, unknown>)[i === 0 ? 'a' : 'b'];
    expect(value).toEqual({ b: '1' });
    const refused = /^invalid form: nested deeper than 512 levels$/;
    expect(() => parseUrlEncoded(`a${'[b]'.repeat(MAX_NESTING_DEPTH)}=1`)).toThrow(refused);
    // Repeated, the deepest name is an array: one level more.
    expect(() => parseUrlEncoded(`${deepest}&${deepest}`)).toThrow(refused);
    // A name of a million levels is refused without being built.
    expect(() => parseUrlEncoded(`a${'[]'.repeat(1_000_000)}=1`)).toThrow(refused);
  });
});

describe('parseForm', () => {
  test('multipart by its Content-Type, urlencoded otherwise', async () => {
    const form = new FormData();
    form.append('a[b]', '1');
    const { body, contentType } = await encoded(form);
    expect(await parseForm(body, contentType)).toEqual({ a: { b: '1' } });
    expect(await parseForm(bytes('a[b]=1'), 'application/x-www-form-urlencoded')).toEqual({ a: { b: '1' } });
    expect(await parseForm(bytes('a[b]=1'), null)).toEqual({ a: { b: '1' } });
    // The Content-Type decides nothing else: a urlencoded body sent as JSON is still a form.
    expect(await parseForm(bytes('a=1'), 'application/json')).toEqual({ a: '1' });
  });

  test('a urlencoded body must be UTF-8', async () => {
    await expect(parseForm(Buffer.from([0x61, 0x3d, 0xff]), null)).rejects.toThrow('body is not valid UTF-8');
  });

  test('a Mailchimp event', async () => {
    expect(await parseForm(bytes('type=subscribe&data[merges][FNAME]=Ann&data[email]=a@b.c'), null)).toEqual({
      type: 'subscribe',
      data: { merges: { FNAME: 'Ann' }, email: 'a@b.c' },
    });
    // As Mailchimp's documentation shows one.
    const documented =
      'type=subscribe&fired_at=2009-03-26+21%3A35%3A57&data%5Bid%5D=8a25ff1d98&data%5Blist_id%5D=a6b5da1054' +
      '&data%5Bemail%5D=api%40mailchimp.com&data%5Bemail_type%5D=html' +
      '&data%5Bmerges%5D%5BEMAIL%5D=api%40mailchimp.com' +
      '&data%5Bmerges%5D%5BFNAME%5D=Mailchimp&data%5Bmerges%5D%5BLNAME%5D=API' +
      '&data%5Bmerges%5D%5BINTERESTS%5D=Group1%2CGroup2&data%5Bip_opt%5D=10.20.10.30&data%5Bip_signup%5D=10.20.10.30';
    expect(await parseForm(bytes(documented), 'application/x-www-form-urlencoded')).toEqual({
      type: 'subscribe',
      fired_at: '2009-03-26 21:35:57',
      data: {
        id: '8a25ff1d98',
        list_id: 'a6b5da1054',
        email: 'api@mailchimp.com',
        email_type: 'html',
        merges: { EMAIL: 'api@mailchimp.com', FNAME: 'Mailchimp', LNAME: 'API', INTERESTS: 'Group1,Group2' },
        ip_opt: '10.20.10.30',
        ip_signup: '10.20.10.30',
      },
    });
  });
});

describe('jsonOrForm', () => {
  const event = {
    ref: 'refs/heads/main',
    commits: [{ id: 'abc', message: 'fix: a+b & c=d 100% ünïcödé 🚀' }],
    repository: { full_name: 'octo/hello', private: false, stars: 3 },
    pusher: null,
  };

  test('a JSON body is read as the json format reads it', () => {
    const body = bytes(JSON.stringify(event));
    expect(jsonOrForm(body)).toEqual(parseOne('json', body));
    expect(jsonOrForm(bytes(' \r\n\t[1, 2]'))).toEqual([1, 2]);
    expect(jsonOrForm(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('{"a":1}')]))).toEqual({ a: 1 });
  });

  test('invalid JSON gives the json format own error', () => {
    expect(() => jsonOrForm(bytes('{"a":'))).toThrow(BodyParseError);
    expect(() => jsonOrForm(bytes('{"a":'))).toThrow(/^invalid JSON/);
    expect(() => jsonOrForm(bytes(''))).toThrow(/^invalid JSON/);
    expect(() => jsonOrForm(bytes('  \n'))).toThrow(/^invalid JSON/);
  });

  test("GitHub's form content type (payload=<JSON>) gives the JSON body's data", () => {
    const form = new URLSearchParams({ payload: JSON.stringify(event) }).toString();
    expect(form).toMatch(/^payload=%7B/);
    expect(jsonOrForm(bytes(form))).toEqual(jsonOrForm(bytes(JSON.stringify(event))));
    expect(jsonOrForm(bytes(form))).toEqual(event);
  });

  test("Slack's interactivity payload", () => {
    const action = { type: 'block_actions', user: { id: 'U1' }, actions: [{ action_id: 'approve', value: 'yes' }] };
    expect(jsonOrForm(bytes(`payload=${encodeURIComponent(JSON.stringify(action))}`))).toEqual(action);
  });

  test('a payload that is not JSON is invalid JSON', () => {
    expect(() => jsonOrForm(bytes('payload=hello'))).toThrow(/^invalid JSON/);
    const deep = '['.repeat(MAX_NESTING_DEPTH + 1) + ']'.repeat(MAX_NESTING_DEPTH + 1);
    expect(() => jsonOrForm(bytes(`payload=${encodeURIComponent(deep)}`))).toThrow(
      'invalid JSON: nested deeper than 512 levels',
    );
  });

  test('a Slack slash command gives its fields', () => {
    const command =
      'token=gIkuvaNzQIHg97ATvDxqgjtO&team_id=T0001&team_domain=example&enterprise_id=E0001' +
      '&enterprise_name=Globular%20Construct%20Inc&channel_id=C2147483705&channel_name=test&user_id=U2147483697' +
      '&user_name=Steve&command=/weather&text=94070&response_url=https://hooks.slack.com/commands/1234/5678' +
      '&trigger_id=13345224609.738474920.8088930838d88f008e0&api_app_id=A123456';
    expect(jsonOrForm(bytes(command))).toEqual({
      token: 'gIkuvaNzQIHg97ATvDxqgjtO',
      team_id: 'T0001',
      team_domain: 'example',
      enterprise_id: 'E0001',
      enterprise_name: 'Globular Construct Inc',
      channel_id: 'C2147483705',
      channel_name: 'test',
      user_id: 'U2147483697',
      user_name: 'Steve',
      command: '/weather',
      text: '94070',
      response_url: 'https://hooks.slack.com/commands/1234/5678',
      trigger_id: '13345224609.738474920.8088930838d88f008e0',
      api_app_id: 'A123456',
    });
  });

  test('a payload beside other fields is a field like the others', () => {
    expect(jsonOrForm(bytes('payload=%7B%7D&x=1'))).toEqual({ payload: '{}', x: '1' });
    expect(jsonOrForm(bytes('payload=1&payload=2'))).toEqual({ payload: ['1', '2'] });
  });

  test('a form body must be UTF-8', () => {
    expect(() => jsonOrForm(Buffer.from([0x61, 0x3d, 0xff]))).toThrow('body is not valid UTF-8');
  });
});
