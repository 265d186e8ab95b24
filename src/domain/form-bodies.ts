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
 * - Caps (src/domain/limits/deliveries.ts): at most FORM_MAX_FIELDS fields (a urlencoded body's are counted before
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
import { decodeUtf8, parseJson, parseOne, refuseDeepNesting } from './body-formats';
import { formObject, tooManyFields, type JsonObject } from './form-fields';
import { FORM_MAX_FIELDS } from './limits';
import { isMultipartForm, parseMultipart } from './multipart';
import type { JsonValue } from './types';

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
