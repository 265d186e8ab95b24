/**
 * A body that gives one trigger data value (every format but csv, whose rows are read one by one),
 * read as its robot reads it: in its app's body format (src/domain/body-formats.ts), the `form`
 * format with src/domain/form-bodies.ts, and a json body of a sender that posts forms too (GitHub,
 * Slack: `formEnvelope`) told apart from them by the body itself. Its items are held to
 * MAX_TRIGGER_ITEMS (src/domain/trigger-items.ts): json and xml before they are parsed.
 */
import { parseOne } from './body-formats';
import { jsonOrForm, parseForm } from './form-bodies';
import { refuseItemsOver, refuseJsonItemsOver, refuseXmlItemsOver } from './trigger-items';
import type { BodyFormat, JsonValue } from './types';

/** How the robot reads its bodies: the delivery's Content-Type (only a multipart form's boundary is read from it). */
export interface ReadingOf {
  contentType: string | null;
  formEnvelope: boolean;
  /** MAX_TRIGGER_ITEMS; no cap when not given. */
  maxItems?: number;
}

export async function parseBody(
  format: Exclude<BodyFormat, 'csv'>,
  body: Buffer,
  { contentType, formEnvelope, maxItems = Infinity }: ReadingOf,
): Promise<JsonValue> {
  if (format === 'form') return counted(await parseForm(body, contentType), maxItems, body.length);
  if (format === 'json') refuseJsonItemsOver(body, maxItems);
  // A form's fields (its `payload` JSON among them) are counted once read.
  if (format === 'json' && formEnvelope) return counted(jsonOrForm(body), maxItems, body.length);
  if (format === 'xml') refuseXmlItemsOver(body, maxItems);
  return parseOne(format, body);
}

function counted(value: JsonValue, maxItems: number, bodyBytes: number): JsonValue {
  refuseItemsOver(value, maxItems, bodyBytes);
  return value;
}
