/**
 * The items of a trigger data value (its objects, arrays and scalars) held to MAX_TRIGGER_ITEMS
 * (src/domain/limits/deliveries.ts says why): json and xml are counted in one pass over the body's
 * bytes before the parser builds anything, so a body past the cap costs no more heap than its bytes;
 * a form (at most FORM_MAX_FIELDS fields) is counted once read. Past the cap the delivery is failed
 * with DeliveryOverCap naming the setting. The passes read bytes: the characters they look for are
 * ASCII, which no other UTF-8 character's bytes contain.
 */
import { DeliveryOverCap } from './delivery-caps';
import type { JsonValue } from './types';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const LT = 0x3c;
const GT = 0x3e;
const EQUALS = 0x3d;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;

function overCap(max: number): DeliveryOverCap {
  return new DeliveryOverCap('MAX_TRIGGER_ITEMS', `more than ${max} items in its trigger data`);
}

/**
 * At most how many items JSON text has: the root, plus one per comma (a next item) and one per
 * `[` or `{` (its first item), outside strings; exact when no container is empty. Valid JSON of n
 * bytes has at most (n + 1) / 2 items, so shorter text is not read at all.
 */
export function refuseJsonItemsOver(body: Uint8Array, max: number): void {
  if ((body.length + 1) / 2 <= max) return;
  let items = 1;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if ((c === COMMA || c === OPEN_ARRAY || c === OPEN_OBJECT) && ++items > max) throw overCap(max);
  }
}

/**
 * At most how many items XML gives: two per element (the element and its text) and one per `=`
 * inside a tag (an attribute). An element takes at least 4 bytes (`<a/>`), so text of fewer than
 * 2 bytes per allowed item is not read at all.
 */
export function refuseXmlItemsOver(body: Uint8Array, max: number): void {
  if (body.length <= 2 * max) return;
  let items = 0;
  let inTag = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === LT) {
      const next = body[i + 1];
      inTag = next !== SLASH && next !== BANG && next !== QUESTION;
      if (inTag) items += 2;
    } else if (c === GT) inTag = false;
    else if (c === EQUALS && inTag) items++;
    if (items > max) throw overCap(max);
  }
}

/**
 * Refuses a parsed value (a form's) of more than `max` items, counted without recursion. Every item
 * of a body's value takes two of its bytes or more, so the value of a short body is not walked.
 */
export function refuseItemsOver(value: JsonValue, max: number, bodyBytes: number): void {
  if ((bodyBytes + 1) / 2 <= max) return;
  let items = 0;
  const pending: JsonValue[] = [value];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (++items > max) throw overCap(max);
    if (item === null || typeof item !== 'object') continue;
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push(child);
  }
}
