/**
 * Named values (a form's fields, in order) as one object: the rules urlencoded and multipart forms
 * share (nesting, arrays, repeated names, conflicts, prototype keys, FORM_MAX_FIELDS and
 * MAX_NESTING_DEPTH), stated in ./form-bodies.ts's module comment.
 */
import { BodyParseError, refuseDeepNesting } from './body-formats';
import { FORM_MAX_FIELDS, MAX_NESTING_DEPTH } from './limits';
import type { JsonValue } from './types';

export type JsonObject = { [key: string]: JsonValue };

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

export const tooManyFields = () => new BodyParseError(`invalid form: more than ${FORM_MAX_FIELDS} fields`);
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
export function formObject(fields: Iterable<readonly [string, JsonValue]>): JsonObject {
  const root = new Branch();
  let count = 0;
  for (const [name, value] of fields) {
    if (++count > FORM_MAX_FIELDS) throw tooManyFields();
    place(root, pathOf(name), value);
  }
  const object = Object.fromEntries([...root.entries].map(([key, node]) => [key, valueOf(node)]));
  return refuseDeepNesting('form', object) as JsonObject;
}
