/**
 * Parsing a request body into trigger data, always in the format set on the custom app
 * (never by Content-Type). One body gives one trigger data value, except csv: one per row.
 */
import { isUtf8 } from 'node:buffer';
import { parse as parseCsv } from 'csv-parse';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { BodyFormat, JsonValue } from './types';
import { DeliveryCaps, UNCAPPED, DeliveryOverCap } from './delivery-caps';
import { CSV_SLICE_BYTES, MAX_NESTING_DEPTH } from './limits';

/** The body cannot be read in the app's format; the delivery is recorded as failed with this message. */
export class BodyParseError extends Error {
  override name = 'BodyParseError';
}

/** XML attributes appear under their name with this prefix: `{{trigger.order.@currency}}`. */
export const XML_ATTRIBUTE_PREFIX = '@';
/** The text of an element that also has attributes or children: `{{trigger.price.#text}}`. */
export const XML_TEXT_KEY = '#text';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A body's text, or BodyParseError when it is not valid UTF-8. */
export function decodeUtf8(body: Uint8Array): string {
  try {
    return utf8.decode(body);
  } catch {
    throw new BodyParseError('body is not valid UTF-8');
  }
}

/** How deeply arrays and objects nest in a parsed value (a scalar is 0), counted without recursion. */
export function nestingDepth(value: JsonValue): number {
  let deepest = 0;
  const pending: Array<[JsonValue, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
    }
  }
  return deepest;
}

/**
 * Whether JSON text nests no deeper than `max` (brackets counted outside strings), read in one pass
 * before it is parsed: a value nested deeper cannot be written back as JSON (JSON.stringify
 * recurses), and is refused without the cost of parsing it.
 */
export function jsonNestsWithin(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return false;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return true;
}

/**
 * A body parsed as JSON to read a value from it (a dedup key), or undefined when it is over
 * `maxBytes`, not UTF-8 JSON, or nested deeper than MAX_NESTING_DEPTH: never throws.
 */
export function parseJsonWithin(body: Uint8Array, maxBytes: number): JsonValue | undefined {
  if (body.length > maxBytes) return undefined;
  try {
    const text = stripBom(decodeUtf8(body));
    return jsonNestsWithin(text, MAX_NESTING_DEPTH) ? (JSON.parse(text) as JsonValue) : undefined;
  } catch {
    return undefined;
  }
}

/** The value itself, or BodyParseError when it nests deeper than MAX_NESTING_DEPTH. */
export function refuseDeepNesting(format: string, value: JsonValue): JsonValue {
  if (nestingDepth(value) > MAX_NESTING_DEPTH) {
    throw new BodyParseError(`invalid ${format}: nested deeper than ${MAX_NESTING_DEPTH} levels`);
  }
  return value;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** JSON text (a BOM stripped) parsed, or BodyParseError `invalid JSON: …`; its nesting is not checked here. */
export function parseJson(text: string): JsonValue {
  try {
    return JSON.parse(stripBom(text)) as JsonValue;
  } catch (err) {
    throw new BodyParseError(`invalid JSON: ${(err as Error).message}`);
  }
}

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: XML_ATTRIBUTE_PREFIX,
  textNodeName: XML_TEXT_KEY,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
  // Character references and the predefined (and HTML's named) entities are decoded; entity
  // declarations are refused below, so nothing a document declares is ever expanded.
  processEntities: true,
  htmlEntities: true,
  maxNestedTags: MAX_NESTING_DEPTH,
});

function parseXml(text: string): JsonValue {
  const xml = stripBom(text);
  // Entity declarations (internal "billion laughs" or external SYSTEM/PUBLIC ones) are never expanded.
  if (/<!ENTITY/i.test(xml)) throw new BodyParseError('invalid XML: entity declarations are not accepted');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new BodyParseError(`invalid XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  }
  let parsed: { [key: string]: JsonValue };
  try {
    parsed = xmlParser.parse(xml) as { [key: string]: JsonValue };
  } catch (err) {
    // e.g. an element named __proto__ or constructor, which the parser refuses.
    throw new BodyParseError(`invalid XML: ${(err as Error).message}`);
  }
  if (Object.keys(parsed).length === 0) throw new BodyParseError('invalid XML: no root element');
  return parsed;
}

function parseText(text: string): JsonValue {
  return { text };
}

/** Parses a body that yields exactly one trigger data value. */
export function parseOne(format: Exclude<BodyFormat, 'csv' | 'form'>, body: Uint8Array): JsonValue {
  const text = decodeUtf8(body);
  switch (format) {
    case 'json':
      return refuseDeepNesting('JSON', parseJson(text));
    case 'xml':
      return refuseDeepNesting('XML', parseXml(text));
    case 'text':
      return parseText(text);
  }
}

/** How every CSV is read: the same options for preparing and for seeding, so row n is the same in both. */
const CSV_OPTIONS = { bom: true, skip_empty_lines: true, relax_column_count: true } as const;

/** Pieces of a body, in order, each fed to the parser in slices of at most CSV_SLICE_BYTES. */
type Pieces = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/**
 * The records of a CSV as the parser gives them (`info`: with the byte offset after each), from
 * pieces fed with backpressure, so memory stays bounded by the caller's batch and the event loop is
 * never held for the whole body. No piece is asked for once the caller stops.
 */
async function* csvRecords<T>(pieces: Pieces, info: boolean): AsyncGenerator<T, void, undefined> {
  const parser = parseCsv({ ...CSV_OPTIONS, info });
  const feed = async () => {
    for await (const piece of pieces) {
      for (let at = 0; at < piece.length; at += CSV_SLICE_BYTES) {
        if (parser.destroyed) return;
        const slice = Buffer.from(piece.buffer, piece.byteOffset + at, Math.min(CSV_SLICE_BYTES, piece.length - at));
        if (!parser.write(slice)) await new Promise((resolve) => parser.once('drain', resolve));
      }
    }
    parser.end();
  };
  feed().catch((err: Error) => parser.destroy(err));
  try {
    yield* parser as AsyncIterable<T>;
  } finally {
    parser.destroy();
  }
}

/** A body's bytes as slices of at most CSV_SLICE_BYTES, from `start`. */
function* slicesOf(body: Uint8Array, start = 0): Generator<Uint8Array> {
  for (let at = start; at < body.length; at += CSV_SLICE_BYTES)
    yield body.subarray(at, Math.min(at + CSV_SLICE_BYTES, body.length));
}

/**
 * The data rows of a CSV body as objects keyed by the header row. Quoted fields, embedded
 * commas and newlines, a UTF-8 BOM, CRLF and blank lines are handled; a row has the columns it
 * has (a short row is not padded: a missing column is absent, and its placeholder resolves to ""),
 * and extra fields are kept under their position. The caps on rows, columns and cell bytes are
 * checked as rows are read (DeliveryOverCap).
 */
export async function* csvRows(
  body: Uint8Array,
  caps: DeliveryCaps = UNCAPPED,
): AsyncGenerator<Record<string, string>, void, undefined> {
  // The whole body must be UTF-8, or no row is read (checked without decoding it to a string).
  if (!isUtf8(body)) throw new BodyParseError('body is not valid UTF-8');
  let header: string[] | undefined;
  let rows = 0;
  try {
    for await (const fields of csvRecords<string[]>(slicesOf(body), false)) {
      checkFields(fields, caps, !header);
      if (!header) {
        header = fields;
        continue;
      }
      if (++rows > caps.CSV_MAX_ROWS) throw new DeliveryOverCap('CSV_MAX_ROWS', `more than ${caps.CSV_MAX_ROWS} rows`);
      yield rowOf(header, fields);
    }
  } catch (err) {
    if (err instanceof DeliveryOverCap) throw err;
    throw new BodyParseError(`invalid CSV: ${(err as Error).message}`);
  }
}

// Object.fromEntries defines own properties, so a column named __proto__ stays a column.
const rowOf = (header: string[], fields: string[]) =>
  Object.fromEntries(fields.map((v, i) => [header[i] ?? String(i), v]));

/**
 * Where reading a CSV stopped, in bytes of its body: the end of its header row and of the last row
 * taken. Reading again from there parses only the header and what follows, never the rows before.
 */
export interface CsvPlace {
  headerEnd: number;
  offset: number;
}

/** A row, with where the body's next row starts: the place to go on from once this one is taken. */
export interface PlacedRow {
  row: Record<string, string>;
  place: CsvPlace;
}

/**
 * The data rows of a CSV already prepared (checked whole against the caps and for UTF-8), read from
 * `place` on (null: from its first row), each with its place. `bytesFrom(start)` gives the body's
 * bytes from `start` to its end in pieces, read as they are asked for (a stored body chunk by chunk).
 */
export async function* csvRowsFrom(
  bytesFrom: (start: number) => Pieces,
  place: CsvPlace | null,
): AsyncGenerator<PlacedRow, void, undefined> {
  const headerEnd = place?.headerEnd ?? 0;
  // Once the header row (fed first, whole) is read, the stream goes on at `place.offset`.
  const shift = place ? place.offset - headerEnd : 0;
  async function* pieces(): AsyncGenerator<Uint8Array, void, undefined> {
    if (!place) {
      yield* bytesFrom(0);
      return;
    }
    let fed = 0;
    for await (const piece of bytesFrom(0)) {
      yield piece.subarray(0, Math.min(piece.length, headerEnd - fed));
      fed += piece.length;
      if (fed >= headerEnd) break;
    }
    yield* bytesFrom(place.offset);
  }
  let header: { fields: string[]; end: number } | undefined;
  for await (const { record, info } of csvRecords<{ record: string[]; info: { bytes: number } }>(pieces(), true)) {
    if (!header) {
      header = { fields: record, end: info.bytes };
      continue;
    }
    yield { row: rowOf(header.fields, record), place: { headerEnd: header.end, offset: info.bytes + shift } };
  }
}

/** A row's columns and cells against their caps (the header's cells are column names: their own cap). */
function checkFields(fields: string[], caps: DeliveryCaps, isHeader: boolean): void {
  if (fields.length > caps.CSV_MAX_COLUMNS)
    throw new DeliveryOverCap('CSV_MAX_COLUMNS', `a row of ${fields.length} columns (at most ${caps.CSV_MAX_COLUMNS})`);
  const maxCell = isHeader ? caps.CSV_MAX_HEADER_CELL_BYTES : caps.CSV_MAX_CELL_BYTES;
  for (const field of fields) {
    // A UTF-16 unit is at most 3 bytes of UTF-8: most cells are cleared without being measured.
    if (field.length * 3 > maxCell && Buffer.byteLength(field) > maxCell)
      throw isHeader
        ? new DeliveryOverCap('CSV_MAX_HEADER_CELL_BYTES', `a column name of more than ${maxCell} bytes`)
        : new DeliveryOverCap('CSV_MAX_CELL_BYTES', `a cell of more than ${maxCell} bytes`);
  }
}
