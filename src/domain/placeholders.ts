/**
 * `{{trigger.*}}` placeholders in step templates.
 *
 * - A string that is exactly one placeholder becomes the value itself (numbers stay numbers,
 *   objects stay objects).
 * - Placeholders inside longer text are written as text (objects and arrays as JSON).
 * - A path that does not exist gives an empty string.
 * - `{{trigger}}` is the whole trigger data; paths use dots, `[n]` for array items and
 *   `["key"]` for keys that contain dots or spaces: `{{trigger.items[0].sku}}`, `{{trigger["a.b"]}}`.
 * Only own properties are followed, so `__proto__` or `constructor` never reach Object.prototype.
 */
import type { JsonValue } from './types';

/** A key in brackets is a JSON string literal: JSON's escapes only, no raw control characters. */
const JSON_STRING = String.raw`"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"`;
const EXPRESSION = String.raw`trigger(?:\.[^\s.[\]{}]+|\[\d+\]|\[${JSON_STRING}\])*`;
const PLACEHOLDER = new RegExp(String.raw`\{\{\s*(${EXPRESSION})\s*\}\}`, 'g');
const WHOLE = new RegExp(`^${PLACEHOLDER.source}$`);
const WHOLE_EXPRESSION = new RegExp(`^${EXPRESSION}$`);

/** Whether text is a whole placeholder expression (`trigger.items[0].sku`, without the braces). */
export function isExpression(text: string): boolean {
  return WHOLE_EXPRESSION.test(text);
}
const SEGMENT = new RegExp(String.raw`\.([^\s.[\]{}]+)|\[(\d+)\]|\[(${JSON_STRING})\]`, 'g');

/** A path's step: an object's key or an array's index. */
export type Segment = string | number;

/** The segments of a placeholder's expression (`trigger.items[0].sku` → items, 0, sku). */
export function parsePath(expression: string): Segment[] {
  const segments: Segment[] = [];
  for (const m of expression.slice('trigger'.length).matchAll(SEGMENT)) {
    if (m[1] !== undefined) segments.push(m[1]);
    else if (m[2] !== undefined) segments.push(Number(m[2]));
    else segments.push(JSON.parse(m[3]) as string);
  }
  return segments;
}

const MISSING = Symbol('missing');

export function lookup(data: JsonValue, path: Segment[]): JsonValue | typeof MISSING {
  let current: JsonValue = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return MISSING;
    const key =
      Array.isArray(current) && typeof segment === 'string' && /^\d+$/.test(segment) ? Number(segment) : segment;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return MISSING;
    current = (current as Record<string | number, JsonValue>)[key];
  }
  return current;
}

function asText(value: JsonValue | typeof MISSING): string {
  if (value === MISSING || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function resolveString(text: string, trigger: JsonValue): JsonValue {
  const whole = WHOLE.exec(text);
  if (whole) {
    const value = lookup(trigger, parsePath(whole[1]));
    return value === MISSING ? '' : value;
  }
  return text.replace(PLACEHOLDER, (_match, expression: string) => asText(lookup(trigger, parsePath(expression))));
}

/** The expressions of every placeholder a template holds (`trigger.customer.email`), in order. */
export function placeholderExpressions(template: JsonValue): string[] {
  if (typeof template === 'string') return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]);
  const values = Array.isArray(template)
    ? template
    : template !== null && typeof template === 'object'
      ? Object.values(template)
      : [];
  return values.flatMap(placeholderExpressions);
}

export function resolveTemplate(template: JsonValue, trigger: JsonValue): JsonValue {
  if (typeof template === 'string') return resolveString(template, trigger);
  if (Array.isArray(template)) return template.map((item) => resolveTemplate(item, trigger));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, resolveTemplate(v, trigger)]));
  }
  return template;
}
