/** The inspector's readings of a body for showing (web/src/pages/body-kinds.ts). */
import { csvTable, formFields, multipartParts, prettyJson, prettyXml } from '../../web/src/pages/body-kinds';

describe("the inspector's body readings", () => {
  it('indents JSON, and shows what does not parse as it came', () => {
    expect(prettyJson('{"a":[1,{"b":true}]}')).toBe('{\n  "a": [\n    1,\n    {\n      "b": true\n    }\n  ]\n}');
    expect(prettyJson('{"a":')).toBe('{"a":');
  });

  it('indents XML a tag a line, an element of text only on one line', () => {
    expect(prettyXml('<?xml version="1.0"?><order id="7"><item>Tea</item><note/><total>3</total></order>')).toBe(
      '<?xml version="1.0"?>\n<order id="7">\n  <item>Tea</item>\n  <note/>\n  <total>3</total>\n</order>',
    );
  });

  it('reads form fields in order, decoded', () => {
    expect(formFields('payload=%7B%22a%22%3A1%7D&x=a+b&x=c')).toEqual([
      ['payload', '{"a":1}'],
      ['x', 'a b'],
      ['x', 'c'],
    ]);
  });

  it('reads CSV rows with quoted fields, commas and line breaks inside quotes, and CRLF', () => {
    expect(csvTable('name,note\r\n"Doe, J","said ""hi""\nthen left"\r\nAl,\n')).toEqual([
      ['name', 'note'],
      ['Doe, J', 'said "hi"\nthen left'],
      ['Al', ''],
    ]);
  });

  it("lists a multipart body's parts: fields with their values, files by name, type and size", () => {
    const body =
      '--XyZ\r\nContent-Disposition: form-data; name="title"\r\n\r\nHello\r\n' +
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n' +
      'abcdé\r\n--XyZ--\r\n';
    expect(multipartParts(body, 'multipart/form-data; boundary=XyZ')).toEqual([
      { name: 'title', filename: undefined, type: undefined, size: 5, value: 'Hello' },
      { name: 'file', filename: 'a.txt', type: 'text/plain', size: 6, value: 'abcdé' },
    ]);
    expect(multipartParts(body, 'multipart/form-data')).toEqual([]);
  });
});
