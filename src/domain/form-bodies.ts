/**
 * Form bodies read into trigger data: pure (bytes in, a value or BodyParseError out; no request).
 *
 * Fields, urlencoded or multipart alike:
 * - urlencoded text is decoded as URLSearchParams decodes it: `+` is a space, `%XX` a byte of UTF-8
 *   (escaped bytes that are not UTF-8 become U+FFFD, as in browsers); the body's own bytes must be UTF-8.
 * - A name is a key as sent (PHP's turning `.` and spaces into `_` is not done), unless it is wholly
 *   `name[a][b]…` (a name, then bracketed segments with no bracket inside): then it nests, as PHP and
 *   Mailchimp send it, `data[merges][FNAME]=Ann` → `{data: {merges: {FNAME: 'Ann'}}}`, and an empty
 *   segment appends at one past the largest index so far (PHP). Any other name (`a[b`, `[a]`, `a[b]c`)
 *   is a plain key.
 * - Arrays as PHP's json_encode gives them: a nested object whose keys are, in the order they came,
 *   exactly 0, 1, …, n-1 is an array: `tags[]=a&tags[]=b` and `a[0]=x&a[1]=y` give `['a', 'b']` and
 *   `['x', 'y']`; `a[1]=y&a[0]=x` or `a[5]=x` stay objects keyed "0", "1" / "5" (no sparse arrays). The
 *   top level is always an object.
 * - A name given more than once gives the array of its values in order (`a=1&a=2` → `['1', '2']`,
 *   `a[b]=1&a[b]=2` → `{a: {b: ['1', '2']}}`), where PHP keeps the last.
 * - A name given both a value and nested fields (`a=1&a[b]=2`, in either order) is refused:
 *   BodyParseError `invalid form: "a" has both a value and nested fields`. No encoder makes one
 *   (PHP's http_build_query, jQuery's param and qs write a tree), and neither is dropped silently.
 * - `__proto__`, `constructor` and `prototype` are keys like any other, at every level: containers are
 *   Maps while they are filled, and objects are made with Object.fromEntries (own properties).
 * - Caps (src/domain/limits.ts): at most FORM_MAX_FIELDS fields (a urlencoded body's are counted before
 *   it is decoded), nesting no deeper than MAX_NESTING_DEPTH. Both are fixed limits of parsing, like the nesting of
 *   JSON and XML, so past them the body is refused with BodyParseError (DeliveryOverCap is for the
 *   per-delivery settings, such as CSV_MAX_ROWS).
 *
 * Multipart (`multipart/form-data`, read with busboy): text parts are fields as above. A file part
 * (one with a filename, or of type application/octet-stream) is the field
 * `{filename, contentType, size, sha256}` (filename: its base name, or null when it has none; sha256:
 * hex of its bytes, which are not kept). A part without a name is the field "". A text part's bytes
 * must be UTF-8, unless the part declares a charset of its own (`Content-Type: text/plain;
 * charset=…`, as Spring sends), in which busboy decodes it; a file part's bytes may be anything. A
 * field name must be UTF-8; a file name is read as UTF-8 when it is, else as Latin-1. Past
 * MULTIPART_MAX_PARTS parts, FORM_MAX_FIELDS text fields or a text field of MULTIPART_MAX_FIELD_BYTES,
 * or when the body is cut short or malformed, it is refused with BodyParseError.
 *
 * The `form` body format (parseForm) is multipart when the delivery's Content-Type is
 * `multipart/form-data`, else urlencoded. It is the ONE exception to "the format is set on the app,
 * never read from Content-Type": a multipart body cannot be read without the boundary its Content-Type
 * names, and this module is the one place a delivery's Content-Type is read.
 *
 * jsonOrForm is the json format of GitHub and Slack apps, whose senders post forms too, told apart by
 * the body, never by Content-Type: JSON when its first byte past a BOM and whitespace is `{` or `[` (or
 * when it has none: an empty body stays invalid JSON), else urlencoded fields; a form whose only field
 * is `payload` (GitHub's form content type, Slack's interactivity) gives that payload's JSON.
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import busboy from 'busboy';
import { BodyParseError, decodeUtf8, parseJson, parseOne, refuseDeepNesting } from './body-formats';
import { FORM_MAX_FIELDS, MAX_NESTING_DEPTH, MULTIPART_MAX_FIELD_BYTES, MULTIPART_MAX_PARTS } from './limits';
import type { JsonValue } from './types';

type JsonObject = { [key: string]: JsonValue };

const NO_BOUNDARY = 'multipart body without a multipart/form-data Content-Type boundary';

// ---- Fields into an object: the rules shared by urlencoded and multipart ------------------------------

/** The values given to one name, in order (one value: that value; more: their array). */
class Values {
  constructor(readonly items: JsonValue[]) {}
}

/** A name's nested fields, in the order they came, and where `[]` appends next (one past the largest index). */
class Branch {
  readonly entries = new Map<string, Values | Branch>();
  next = 0;
  set(key: string, node: Values | Branch): void {
    this.entries.set(key, node);
    if (/^(0|[1-9]\d{0,14})$/.test(key)) this.next = Math.max(this.next, Number(key) + 1);
  }
}

const tooManyFields = () => new BodyParseError(`invalid form: more than ${FORM_MAX_FIELDS} fields`);
const tooDeep = () => new BodyParseError(`invalid form: nested deeper than ${MAX_NESTING_DEPTH} levels`);

/** `name[a][b]` as ['name', 'a', 'b'] (`[]` as ''), or [name] when it is not wholly of that form. */
function pathOf(name: string): string[] {
  const open = name.indexOf('[');
  if (open <= 0 || !name.endsWith(']') || name.lastIndexOf(']', open) >= 0) return [name];
  const path = [name.slice(0, open)];
  let segments = 1;
  for (let at = open; at < name.length;) {
    const close = name.indexOf(']', at);
    const segment = name.slice(at + 1, close);
    if (name.charCodeAt(at) !== 0x5b || segment.includes('[')) return [name];
    // Past the cap the name is only checked to the end: it is refused whole, never kept in part.
    if (++segments <= MAX_NESTING_DEPTH) path.push(segment);
    at = close + 1;
  }
  if (segments > MAX_NESTING_DEPTH) throw tooDeep();
  return path;
}

const nameOf = (path: string[]) => path.map((key, i) => (i === 0 ? key : `[${key}]`)).join('');
const conflict = (path: string[]) =>
  new BodyParseError(`invalid form: "${nameOf(path)}" has both a value and nested fields`);

function place(root: Branch, path: string[], value: JsonValue): void {
  let branch = root;
  const keys: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const key = i > 0 && path[i] === '' ? String(branch.next) : path[i];
    keys.push(key);
    const node = branch.entries.get(key);
    if (i === path.length - 1) {
      if (node === undefined) branch.set(key, new Values([value]));
      else if (node instanceof Values) node.items.push(value);
      else throw conflict(keys);
    } else if (node === undefined) {
      const child = new Branch();
      branch.set(key, child);
      branch = child;
    } else if (node instanceof Branch) branch = node;
    else throw conflict(keys);
  }
}

function valueOf(node: Values | Branch): JsonValue {
  if (node instanceof Values) return node.items.length === 1 ? node.items[0] : node.items;
  const entries = [...node.entries].map(([key, child]) => [key, valueOf(child)] as const);
  // Object.fromEntries defines own properties: a key named __proto__ stays a key.
  return entries.every(([key], i) => key === String(i))
    ? entries.map(([, value]) => value)
    : Object.fromEntries(entries);
}

/** Named values (a form's fields, in order) as one object, by the rules in the module comment. */
function formObject(fields: Iterable<readonly [string, JsonValue]>): JsonObject {
  const root = new Branch();
  let count = 0;
  for (const [name, value] of fields) {
    if (++count > FORM_MAX_FIELDS) throw tooManyFields();
    place(root, pathOf(name), value);
  }
  const object = Object.fromEntries([...root.entries].map(([key, node]) => [key, valueOf(node)]));
  return refuseDeepNesting('form', object) as JsonObject;
}

// ---- urlencoded --------------------------------------------------------------------------------------------

/** Whether `text` has more than `max` fields (non-empty runs between `&`), counted without splitting it. */
function hasMoreFields(text: string, max: number): boolean {
  let fields = 0;
  for (let start = 0; start <= text.length;) {
    const amp = text.indexOf('&', start);
    const end = amp < 0 ? text.length : amp;
    if (end > start && ++fields > max) return true;
    start = end + 1;
  }
  return false;
}

/** An `application/x-www-form-urlencoded` body's text as an object (the module comment says how). */
export function parseUrlEncoded(text: string): JsonObject {
  if (hasMoreFields(text, FORM_MAX_FIELDS)) throw tooManyFields();
  // URLSearchParams drops a leading `?` (it takes a URL's query); in a body it is part of the first name.
  return formObject(new URLSearchParams(text.startsWith('?') ? `&${text}` : text));
}

// ---- multipart ---------------------------------------------------------------------------------------------

/** A file part as trigger data: its bytes are not kept. */
type FileData = { filename: string | null; contentType: string; size: number; sha256: string };

/** A part as busboy hands it over: its name, and its text or its file (name, type, size, digest). */
interface Part {
  name: string;
  text?: string;
  file?: { filename: string | undefined; contentType: string; size: number; sha256: string };
}

function isMultipartForm(contentType: string | null): contentType is string {
  return contentType !== null && /^\s*multipart\/form-data\s*(;|$)/i.test(contentType);
}

/**
 * A multipart body's parts, in order. busboy hands a text part over decoded, in the charset the part
 * declares, else in `charset`; a parameter (a name, a file name) in `charset` too, unless it is an
 * extended one (`filename*=UTF-8''…`). With latin1, text busboy did not decode is the part's bytes, a
 * character each; with base64 it is their base64, which is longer: what reads the same both ways was
 * decoded by busboy (or is empty). `digest`: file parts' bytes are counted and hashed, else skipped.
 */
function readParts(body: Buffer, contentType: string, charset: 'latin1' | 'base64', digest: boolean): Promise<Part[]> {
  return new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: { 'content-type': contentType },
        defCharset: charset,
        defParamCharset: charset,
        limits: {
          fields: FORM_MAX_FIELDS,
          // busboy tells when it has read this many parts (and reads no more), so one over the cap.
          parts: MULTIPART_MAX_PARTS + 1,
          // busboy marks a value of exactly fieldSize bytes as cut, so one over the cap.
          fieldSize: MULTIPART_MAX_FIELD_BYTES + 1,
        },
      });
    } catch {
      reject(new BodyParseError(NO_BOUNDARY)); // e.g. `multipart/form-data` without `; boundary=…`
      return;
    }
    const parts: Part[] = [];
    const refuse = (what: string) => form.destroy(new BodyParseError(`invalid multipart form: ${what}`));
    // busboy's types say string, but a part without a name has none.
    const named = (name: string | undefined) => name ?? '';
    form.on('field', (name, text, info) => {
      if (info.valueTruncated) refuse(`a field of more than ${MULTIPART_MAX_FIELD_BYTES} bytes`);
      else parts.push({ name: named(name), text });
    });
    form.on('file', (name, stream, info) => {
      const file = { filename: info.filename, contentType: info.mimeType, size: 0, sha256: '' };
      parts.push({ name: named(name), file });
      // busboy reports a file cut short as its own error (and ends every file before it closes).
      stream.on('error', () => {});
      if (!digest) {
        stream.resume();
        return;
      }
      const hash = createHash('sha256');
      stream.on('data', (chunk: Buffer) => {
        file.size += chunk.length;
        hash.update(chunk);
      });
      stream.on('end', () => {
        file.sha256 = hash.digest('hex');
      });
    });
    form.on('partsLimit', () => refuse(`more than ${MULTIPART_MAX_PARTS} parts`));
    form.on('fieldsLimit', () => refuse(`more than ${FORM_MAX_FIELDS} fields`));
    form.on('error', (err) =>
      reject(
        err instanceof BodyParseError
          ? err
          : new BodyParseError(`invalid multipart form: ${err instanceof Error ? err.message : String(err)}`),
      ),
    );
    form.on('close', () => resolve(parts));
    form.end(body);
  });
}

const isAscii = (text: string | undefined) => text === undefined || !/[\u0080-\uffff]/.test(text);

/** A field name busboy read as Latin-1: its bytes, which must be UTF-8. */
function fieldName(latin1: string): string {
  const bytes = Buffer.from(latin1, 'latin1');
  if (!isUtf8(bytes)) throw new BodyParseError('invalid multipart form: a field name is not valid UTF-8');
  return bytes.toString('utf8');
}

/** A text part's value: `text` as read with latin1, `probe` with base64 (`probed`: when some text is not ASCII). */
function textValue(name: string, text: string | undefined, probe: string | undefined, probed: boolean): string {
  // busboy gives no text for a part in a charset it cannot decode.
  if (text === undefined)
    throw new BodyParseError(`invalid multipart form: field "${name}" is in a charset that cannot be read`);
  if (!probed || probe === text) return text; // ASCII, or decoded by busboy in the charset it declares
  const bytes = Buffer.from(text, 'latin1');
  if (!isUtf8(bytes)) throw new BodyParseError(`invalid multipart form: field "${name}" is not valid UTF-8`);
  return bytes.toString('utf8');
}

/** A file name, read as `textValue` reads a value, but as Latin-1 when its bytes are not UTF-8. */
function fileName(filename: string | undefined, probe: string | undefined, probed: boolean): string | null {
  if (filename === undefined) return null;
  if (!probed || probe === filename) return filename;
  const bytes = Buffer.from(filename, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : filename;
}

/**
 * A `multipart/form-data` body as an object (the module comment says how); the boundary comes from
 * `contentType`, the one place a delivery's Content-Type is read.
 */
export async function parseMultipart(body: Buffer, contentType: string | null): Promise<JsonObject> {
  if (!isMultipartForm(contentType)) throw new BodyParseError(NO_BOUNDARY);
  const parts = await readParts(body, contentType, 'latin1', true);
  // Which parts busboy decoded itself is only asked when some text is not ASCII (ASCII reads the same).
  const probed = parts.some((part) => !isAscii(part.text) || !isAscii(part.file?.filename));
  const probes = probed ? await readParts(body, contentType, 'base64', false) : [];
  const fields = parts.map((part, i): [string, JsonValue] => {
    const name = fieldName(part.name);
    const probe = probes[i] as Part | undefined;
    if (!part.file) return [name, textValue(name, part.text, probe?.text, probed)];
    const { filename, contentType: type, size, sha256 } = part.file;
    const file: FileData = {
      filename: fileName(filename, probe?.file?.filename, probed),
      contentType: type,
      size,
      sha256,
    };
    return [name, file];
  });
  return formObject(fields);
}

// ---- The body formats --------------------------------------------------------------------------------------

/**
 * The `form` body format: multipart when `contentType` is `multipart/form-data` (its boundary is
 * needed to read it: the one exception to "the format is the app's, never the Content-Type's"), else
 * urlencoded, whose body must be UTF-8.
 */
export async function parseForm(body: Buffer, contentType: string | null): Promise<JsonValue> {
  if (isMultipartForm(contentType)) return parseMultipart(body, contentType);
  return parseUrlEncoded(decodeUtf8(body));
}

/** Whether a body's first byte past a UTF-8 BOM and JSON whitespace is `{` or `[`, or there is none. */
function looksLikeJson(body: Buffer): boolean {
  let at = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  while (at < body.length && (body[at] === 0x20 || body[at] === 0x09 || body[at] === 0x0a || body[at] === 0x0d)) at++;
  return at === body.length || body[at] === 0x7b || body[at] === 0x5b;
}

/**
 * The json format of a GitHub or Slack app, whose senders post forms too, told apart by the body
 * (never by Content-Type): JSON as the json format reads it, or a form: its `payload` field's JSON
 * when that is its only field (GitHub's form content type, Slack's interactivity), else its fields
 * (Slack's slash commands: `command=/weather&text=94070`).
 */
export function jsonOrForm(body: Buffer): JsonValue {
  if (looksLikeJson(body)) return parseOne('json', body);
  const fields = parseUrlEncoded(decodeUtf8(body));
  const names = Object.keys(fields);
  const payload = fields.payload;
  if (names.length === 1 && names[0] === 'payload' && typeof payload === 'string')
    return refuseDeepNesting('JSON', parseJson(payload));
  return fields;
}

/**
 * The bytes of a multipart body's file part whose SHA-256 (hex) is `sha256`, as its trigger data
 * names it (`{ filename, contentType, size, sha256 }`): how a file of a `form` delivery is read back
 * from the body kept with the delivery. null when no part has it (or the body is no multipart form).
 */
export function multipartFile(
  body: Buffer,
  contentType: string | null,
  sha256: string,
): Promise<{ filename: string | null; bytes: Buffer } | null> {
  if (!isMultipartForm(contentType)) return Promise.resolve(null);
  return new Promise((resolve) => {
    let found: { filename: string | null; bytes: Buffer } | null = null;
    let form: busboy.Busboy;
    try {
      form = busboy({ headers: { 'content-type': contentType }, limits: { parts: MULTIPART_MAX_PARTS + 1 } });
    } catch {
      resolve(null);
      return;
    }
    form.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      const hash = createHash('sha256');
      stream.on('error', () => {});
      stream.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        hash.update(chunk);
      });
      stream.on('end', () => {
        if (!found && hash.digest('hex') === sha256)
          found = { filename: info.filename ?? null, bytes: Buffer.concat(chunks) };
      });
    });
    form.on('error', () => resolve(found));
    form.on('close', () => resolve(found));
    form.end(body);
  });
}
