/**
 * Request headers, read one way everywhere (verification, dedup, the headers kept with a
 * delivery): names are looked up lower-cased, as Node gives them; a header sent twice counts by
 * its first value; an empty value counts as missing.
 */

/** Request headers as Node gives them: lower-case names; a header sent twice may be an array. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/** The header's value (the first, if it was sent twice), or undefined when missing or empty. */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value) || undefined;
}
