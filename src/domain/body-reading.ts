/**
 * A body that gives one trigger data value (every format but csv, whose rows are read one by one),
 * read as its robot reads it: in its app's body format (src/domain/body-formats.ts), the `form`
 * format with src/domain/form-bodies.ts, and a json body of a sender that posts forms too (GitHub,
 * Slack: `formEnvelope`) told apart from them by the body itself.
 */
import { parseOne } from './body-formats';
import { jsonOrForm, parseForm } from './form-bodies';
import type { BodyFormat, JsonValue } from './types';

/** How the robot reads its bodies: the delivery's Content-Type (only a multipart form's boundary is read from it). */
export interface ReadingOf {
  contentType: string | null;
  formEnvelope: boolean;
}

export async function parseBody(
  format: Exclude<BodyFormat, 'csv'>,
  body: Buffer,
  { contentType, formEnvelope }: ReadingOf,
): Promise<JsonValue> {
  if (format === 'form') return parseForm(body, contentType);
  if (format === 'json' && formEnvelope) return jsonOrForm(body);
  return parseOne(format, body);
}
