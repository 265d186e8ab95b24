/**
 * The kinds of value a setting takes, each refusing what it cannot read with what it expects: an
 * empty value is refused like any other (PORT='' is not port 0), a number is digits only (no `1e6`,
 * no ` 5 `, no units). Messages say what is expected; src/core/config.ts puts the variable and the
 * value typed before them. Plain zod (object, string, number, enum, preprocess, describe).
 */
import fs from 'node:fs';
import { z } from 'zod';

/** A whole number within bounds, typed as digits; `unit` says what it counts ("bytes", "milliseconds"). */
export function wholeNumber(o: { min: number; max?: number; unit?: string }) {
  const range = o.max === undefined ? `${o.min} or more` : `from ${o.min} to ${o.max}`;
  const expected = `expected a whole number${o.unit ? ` of ${o.unit}` : ''}, ${range}`;
  const number = z.number({ message: expected }).int(expected).min(o.min, expected);
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v),
    o.max === undefined ? number : number.max(o.max, expected),
  );
}

export const port = wholeNumber({ min: 0, max: 65535 });
export const positiveInt = (unit?: string) => wholeNumber({ min: 1, unit });

/** `0` or `1`. */
export const flag = z.enum(['0', '1'], { message: 'expected 0 or 1' });

/** Any text but empty. */
export const text = z.string().min(1, 'must not be empty');

/** One of these words, as written. */
export const oneOf = <T extends string>(words: readonly [T, ...T[]]) =>
  z.enum(words, { message: `expected one of ${words.join(', ')}` });

/** An absolute URL. */
export const url = z.string().url('expected an absolute URL (https://…)');

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/**
 * A duration such as `30d`, `12h`, `90m` or `45s`; `0` means forever. Its default is given as typed,
 * inside the transform (zod 4's `.default` after a transform would skip it).
 */
export const duration = (typed: string) =>
  z
    .string()
    .regex(/^(0|\d+[smhd])$/, 'must be a number followed by s, m, h or d (30d), or 0')
    .default(typed)
    .transform((v) => (v === '0' ? 0 : Number(v.slice(0, -1)) * UNIT_MS[v.slice(-1) as keyof typeof UNIT_MS]));

export const readableFile = z.string().refine((f) => {
  try {
    fs.accessSync(f, fs.constants.R_OK);
    return true;
  } catch {
    return false;
  }
}, 'must name a file this process can read');
