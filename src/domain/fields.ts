/**
 * Fields seen: the `{{trigger.*}}` paths a robot's recent deliveries carried, so that a robot
 * builder picks a placeholder instead of typing it blind (docs/api.md#fields-seen).
 *
 * - **What one delivery carried** (`FieldCollector`, run in the worker beside parsing): every path
 *   of its trigger data, containers too, in the order met, with the types seen at it and one
 *   example value. A CSV's are those of its first `FIELDS_CSV_ROWS` rows (its columns).
 * - **Arrays by their first item.** `items[0].sku` stands for every item; the steps editor reads
 *   `items[3].sku` as seen when `items[0].sku` was (`seenPathOf`).
 * - **Bounded.** At most `FIELD_PATHS_PER_DELIVERY` paths of up to `FIELD_PATH_CHARS` characters;
 *   past either the delivery's fields are marked `truncated`. An example is cut to
 *   `FIELD_EXAMPLE_CHARS`.
 * - **No secrets in examples, and only secrets redacted.** Under a key that names a credential
 *   (`namesCredential`: read word by word, so GitHub's `author` or a count of `total_tokens` is data,
 *   an `auth` object or an `apiKey` is not), for a value that looks like a key (`SECRET_VALUE`) or a
 *   generated credential (`looksGenerated`, but not under an id's key: GitHub's `node_id`), the
 *   example is `REDACTED`; the path and its types are shown. Keys themselves are data, and are shown.
 * - **A robot's fields** (`mergeFields`): the union over its last `FIELDS_DELIVERIES` deliveries
 *   that were parsed, with in how many each path appeared and the newest example.
 *
 * Paths are written as placeholders read them (./placeholders): dots, `[n]`, and `["key"]` for a
 * key a dot cannot carry. The root (a text body's whole string) is the path `''`.
 */
import { FIELD_EXAMPLE_CHARS, FIELD_PATH_CHARS, FIELD_PATHS_PER_DELIVERY } from './limits';
import { parsePath, type Segment } from './placeholders';
import type { JsonValue } from './types';

export const FIELD_TYPES = ['string', 'number', 'boolean', 'null', 'object', 'array'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One path of one delivery's trigger data. */
interface SeenField {
  path: string;
  types: FieldType[];
  /** A scalar's value as text, cut to FIELD_EXAMPLE_CHARS (or REDACTED); null for objects and arrays. */
  example: string | null;
}

/** What one delivery carried, stored with it as JSON text (`fieldsJson` of its record). */
export interface DeliveryFields {
  fields: SeenField[];
  /** Some paths were left out (FIELD_PATHS_PER_DELIVERY, FIELD_PATH_CHARS). */
  truncated?: true;
}

/** A path as the robot page lists it. */
export interface RobotField extends SeenField {
  /** What a step's template holds to read it: `{{trigger.customer.email}}`. */
  placeholder: string;
  /** The path of the object or array it is in, or null at the top. */
  parent: string | null;
  /** In how many of the deliveries read it appeared. */
  seenIn: number;
}

export const REDACTED = '[redacted]';
/** Words of a key that name a credential: its value is never shown (`namesCredential`). */
const CREDENTIAL_WORDS: ReadonlySet<string> = new Set([
  ...['pass', 'password', 'passwd', 'passphrase', 'passcode', 'pwd', 'pin', 'secret', 'secrets', 'token'],
  ...['auth', 'oauth', 'authorization', 'authorisation', 'authentication', 'signature', 'sig', 'credential'],
  ...['credentials', 'cookie', 'cookies', 'session', 'jwt', 'apikey', 'bearer', 'otp', 'cvv', 'cvc'],
]);
/** Run together in one word (`xAccessToken` split, `accesstoken` not): still a credential. */
const CREDENTIAL_IN_WORD = /password|passwd|secret|apikey|accesstoken|authtoken|refreshtoken|privatekey|signature/;
/** The word before `key` that makes it a credential's (`api_key`, `privateKey`); a bare `key` is data (Jira's). */
const CREDENTIAL_KEY_OF: ReadonlySet<string> = new Set([
  ...['api', 'secret', 'private', 'access', 'signing', 'client', 'auth', 'encryption', 'master', 'session'],
  ...['webhook', 'license', 'app', 'consumer'],
]);

/** A key's words, lower case: `apiKey`, `api_key`, `API-Key` and `api key` are `api`, `key`. */
function wordsOf(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether a key names a credential, whose value (and everything under it) is never shown. */
export function namesCredential(key: string): boolean {
  const words = wordsOf(key);
  return words.some(
    (word, i) =>
      CREDENTIAL_WORDS.has(word) ||
      CREDENTIAL_IN_WORD.test(word) ||
      (word === 'key' && i > 0 && CREDENTIAL_KEY_OF.has(words[i - 1])),
  );
}

/** A key that names an identifier (`id`, `node_id`, `ids`): its value is data however generated it looks. */
const namesId = (key: string): boolean => ['id', 'ids'].includes(wordsOf(key).at(-1) ?? '');
/** Values that look like a key or a bearer credential whatever their key (Stripe, GitHub, Slack, AWS, JWT…). */
const SECRET_VALUE =
  /^(whsec_|sk_(live|test)_|rk_(live|test)_|bearer\s|basic\s|gh[pousr]_|github_pat_|xox[abpr]-|AKIA|AIza|glpat-|eyJ)/i;
/**
 * A long token with no spaces that mixes upper case, lower case and digits reads like a generated
 * credential: not shown (a UUID or a hex id, lower case only, is). Judged on its first
 * GENERATED_CHARS characters: longer than any credential, and a pattern run on a value of
 * megabytes (a 24 MiB string) overflowed V8's regular expression stack, failing the delivery's
 * preparation at every attempt.
 */
const GENERATED_CHARS = 1024;
const looksGenerated = (value: string) => {
  const text = value.slice(0, GENERATED_CHARS);
  return (
    text.length >= 24 &&
    /^[A-Za-z0-9_\-+/=.]+$/.test(text) &&
    /[A-Z]/.test(text) &&
    /[a-z]/.test(text) &&
    /\d/.test(text)
  );
};
/** A key written after a dot: what the placeholder syntax reads as one segment. */
const PLAIN_KEY = /^[^\s.[\]{}"]+$/;

/** A path segment as placeholders write it. */
function segmentText(segment: Segment): string {
  if (typeof segment === 'number') return `[${segment}]`;
  return PLAIN_KEY.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
}

/** A path from its segments (`''` for the root). */
function pathOf(segments: readonly Segment[]): string {
  return segments.map(segmentText).join('').replace(/^\./, '');
}

/** The placeholder expression that reads a path: `trigger.customer.email`, `trigger["a.b"]`, `trigger`. */
function expressionOf(path: string): string {
  return path === '' || path.startsWith('[') ? `trigger${path}` : `trigger.${path}`;
}

/** The placeholder that reads a path. */
export function placeholderOf(path: string): string {
  return `{{${expressionOf(path)}}}`;
}

/** The path a placeholder's expression (`trigger.items[3].sku`) is listed under: every index 0. */
export function seenPathOf(expression: string): string {
  return pathOf(parsePath(expression).map((s) => (typeof s === 'number' ? 0 : s)));
}

function typeOf(value: JsonValue): FieldType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'string' | 'number' | 'boolean' | 'object';
}

function exampleOf(value: string | number | boolean, secret: boolean, id: boolean): string {
  const text = String(value);
  if (secret || SECRET_VALUE.test(text.slice(0, GENERATED_CHARS)) || (!id && looksGenerated(text))) return REDACTED;
  return text.length > FIELD_EXAMPLE_CHARS ? `${text.slice(0, FIELD_EXAMPLE_CHARS - 1)}…` : text;
}

/** Collects the fields of one delivery's trigger data values (one, or a CSV's first rows). */
export class FieldCollector {
  private readonly seen = new Map<string, { types: Set<FieldType>; example: string | null }>();
  private truncated = false;

  add(value: JsonValue): void {
    this.walk(value, '', false, false);
  }

  result(): DeliveryFields {
    const fields = [...this.seen].map(([path, f]) => ({ path, types: [...f.types], example: f.example }));
    return this.truncated ? { fields, truncated: true } : { fields };
  }

  /** `secret`: under a key that names a credential; `id`: the value of a key that names an identifier. */
  private walk(value: JsonValue, path: string, secret: boolean, id: boolean): void {
    let field = this.seen.get(path);
    if (!field) {
      if (this.seen.size >= FIELD_PATHS_PER_DELIVERY) return void (this.truncated = true);
      field = { types: new Set(), example: null };
      this.seen.set(path, field);
    }
    field.types.add(typeOf(value));
    if (value === null || typeof value !== 'object') {
      if (field.example === null && value !== null) field.example = exampleOf(value, secret, id);
      return;
    }
    const children: Array<[Segment, JsonValue]> = Array.isArray(value)
      ? value.length > 0
        ? [[0, value[0]]]
        : []
      : Object.entries(value);
    for (const [segment, child] of children) {
      const written = path === '' ? pathOf([segment]) : path + segmentText(segment);
      if (written.length > FIELD_PATH_CHARS) {
        this.truncated = true;
        continue;
      }
      const secretBelow = secret || (typeof segment === 'string' && namesCredential(segment));
      this.walk(child, written, secretBelow, typeof segment === 'string' ? namesId(segment) : id);
    }
  }
}

/** The fields of one delivery's trigger data values. */
export function fieldsOf(values: Iterable<JsonValue>): DeliveryFields {
  const collector = new FieldCollector();
  for (const value of values) collector.add(value);
  return collector.result();
}

/** The parent path of a path, or null for the root and top-level paths. */
function parentOf(path: string): string | null {
  if (path === '') return null;
  const segments = parsePath(expressionOf(path));
  return segments.length <= 1 ? null : pathOf(segments.slice(0, -1));
}

/** A robot's fields from its deliveries' (newest first): each path once, its newest example, where it was seen. */
export function mergeFields(deliveries: readonly DeliveryFields[]): RobotField[] {
  const merged = new Map<string, RobotField>();
  for (const { fields } of deliveries) {
    for (const f of fields) {
      const known = merged.get(f.path);
      if (!known) {
        merged.set(f.path, {
          path: f.path,
          placeholder: placeholderOf(f.path),
          parent: parentOf(f.path),
          types: [...f.types],
          example: f.example,
          seenIn: 1,
        });
        continue;
      }
      known.seenIn++;
      for (const t of f.types) if (!known.types.includes(t)) known.types.push(t);
      known.example ??= f.example;
    }
  }
  return [...merged.values()];
}
