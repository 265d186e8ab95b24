/**
 * Request headers, read one way everywhere (verification, dedup, trigger rules, the headers kept
 * with a delivery): names are looked up lower-cased, as Node gives them; a header sent twice counts
 * by its first value; an empty value counts as missing; only the request's own headers count (Node's
 * header object inherits `constructor`, `toString`… from Object, which no request sent).
 *
 * A header name someone chooses (a rule's, a dedup key's, an HMAC scheme's) is a token of RFC 9110
 * and none of the names JavaScript objects give meaning to (`RESERVED_HEADER_NAMES`).
 */

/** Request headers as Node gives them: lower-case names; a header sent twice may be an array. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/** Names an object lookup or assignment gives meaning to: never a header name of ours to read. */
export const RESERVED_HEADER_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A header name as RFC 9110 spells a token, 1 to 100 characters. */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;

/** Whether a name may be chosen as a header to read: a token, and not reserved (in any case). */
export function isHeaderName(name: string): boolean {
  return HEADER_NAME.test(name) && !RESERVED_HEADER_NAMES.has(name.toLowerCase());
}

/** The header's value (the first, if it was sent twice), or undefined when missing, empty or not the request's own. */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const key = name.toLowerCase();
  if (!Object.hasOwn(headers, key)) return undefined;
  const value = headers[key];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first !== '' ? first : undefined;
}
