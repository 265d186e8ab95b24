/**
 * Types of `mingo/util`, a subpath export of mingo that this project's `moduleResolution: node`
 * cannot see (Node and jest resolve it at run time). Only what src/domain/trigger-rules.ts uses.
 */
declare module 'mingo/util' {
  /** The value(s) at a dotted path, through arrays as MongoDB does (`unwrapArray`). */
  export function resolve(obj: object, selector: string, options?: { unwrapArray?: boolean }): unknown;
  export function ensureArray<T>(x: T | T[]): T[];
  export function flatten(xs: unknown[], depth?: number): unknown[];
}
