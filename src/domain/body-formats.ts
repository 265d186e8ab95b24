/**
 * Parsing a request body into trigger data, always in the format set on the custom app
 * (never by Content-Type). One body gives one trigger data value, except csv: one per row.
 */
import { isUtf8 } from 'node:buffer';
import { parse as parseCsv } from 'csv-parse';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { BodyFormat, JsonValue } from './types';
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

function refuseDeepNesting(format: string, value: JsonValue): JsonValue {
  if (nestingDepth(value) > MAX_NESTING_DEPTH) {
    throw new BodyParseError(`invalid ${format}: nested deeper than ${MAX_NESTING_DEPTH} levels`);
  }
  return value;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

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

export function parseXml(text: string): JsonValue {
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

export function parseText(text: string): JsonValue {
  return { text };
}

/** Parses a body that yields exactly one trigger data value. */
export function parseOne(format: Exclude<BodyFormat, 'csv'>, body: Uint8Array): JsonValue {
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

/**
 * The data rows of a CSV body as objects keyed by the header row. Quoted fields, embedded
 * commas and newlines, a UTF-8 BOM, CRLF and blank lines are handled; a row with fewer
 * fields than the header gets empty strings, extra fields are kept under their position.
 * The body is fed to the parser in slices with backpressure, so memory stays bounded by the
 * caller's batch and the event loop is never held for the whole body.
 */
export async function* csvRows(body: Uint8Array): AsyncGenerator<Record<string, string>, void, undefined> {
  // The whole body must be UTF-8, or no row is read (checked without decoding it to a string).
  if (!isUtf8(body)) throw new BodyParseError('body is not valid UTF-8');
  const parser = parseCsv({ bom: true, skip_empty_lines: true, relax_column_count: true });
  const feed = async () => {
    for (let at = 0; at < body.length; at += CSV_SLICE_BYTES) {
      if (!parser.write(Buffer.from(body.buffer, body.byteOffset + at, Math.min(CSV_SLICE_BYTES, body.length - at)))) {
        await new Promise((resolve) => parser.once('drain', resolve));
      }
    }
    parser.end();
  };
  feed().catch((err: Error) => parser.destroy(err));
  let header: string[] | undefined;
  try {
    for await (const fields of parser as AsyncIterable<string[]>) {
      if (!header) {
        header = fields;
        continue;
      }
      const columns = header;
      // Object.fromEntries defines own properties, so a column named __proto__ stays a column.
      yield Object.fromEntries(
        fields.length > columns.length
          ? fields.map((v, i) => [columns[i] ?? String(i), v])
          : columns.map((name, i) => [name, fields[i] ?? '']),
      );
    }
  } catch (err) {
    throw new BodyParseError(`invalid CSV: ${(err as Error).message}`);
  } finally {
    parser.destroy();
  }
}
