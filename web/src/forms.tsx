/**
 * Forms that say their rules first (issue 54): each field's rule shown under it before any submit
 * ("at least 16 characters"), every problem found at once and shown in words next to its field (the
 * API's refusal too, mapped from its field path to the field, never showing the path), a draft kept
 * for the browser tab across a reload (sessionStorage; never a secret's value), and a prompt before
 * leaving a page (a reload, a closed tab, a link inside the dashboard) while a form holds unsaved changes.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';
import { guardLeaving } from './nav';

/** What is wrong, in words, by field (its key in the form, the API's path for it); `''`: the form's own. */
export type Problems = Record<string, string>;

/** One field's rule: the words shown before submit, and what is wrong with a value (null: nothing). */
export interface FieldRule {
  field: string;
  rule: string;
  check: (value: string) => string | null;
}

/** A field that must not be empty. */
export const required = (field: string, what = 'required'): FieldRule => ({
  field,
  rule: what,
  check: (v) => (v.trim() === '' ? 'required: it is empty' : null),
});

/** A field of at least `min` characters (a secret, a verify token). */
export const atLeast = (field: string, min: number, optional = false): FieldRule => ({
  field,
  rule: `${optional ? 'optional; ' : ''}at least ${min} characters`,
  check: (v) =>
    optional && v === ''
      ? null
      : v.length < min
        ? `at least ${min} characters: ${v.length === 0 ? 'it is empty' : `this is ${v.length}`}`
        : null,
});

/** A field matching a pattern, said in words (`whsec_` followed by base64). */
export const shaped = (field: string, source: string, words: string, optional = false): FieldRule => ({
  field,
  rule: optional ? `optional; ${words}` : words,
  check: (v) => ((optional && v === '') || new RegExp(source).test(v) ? null : `must be ${words}`),
});

/** Every problem of the values, at once. */
export function checkAll(rules: FieldRule[], values: Record<string, string>): Problems {
  const problems: Problems = {};
  for (const r of rules) {
    const problem = problems[r.field] ? null : r.check(values[r.field] ?? '');
    if (problem) problems[r.field] = problem;
  }
  return problems;
}

/**
 * The API's refusal as the form's problems: at the field it names (or the nearest field shown that
 * holds it: `steps` for `steps.0.name`), in its words without the path; else the form's own.
 */
export function problemsOfRefusal(
  err: ApiError,
  fields: readonly string[],
  /** What a part inside a field is called: `[0, 'type']` of `steps` is "step 1, its “type”". */
  partOf: (rest: string[]) => string = partInWords,
): Problems {
  const path = err.field ?? '';
  const words = path && err.message.startsWith(`${path}: `) ? err.message.slice(path.length + 2) : err.message;
  const at = [...fields].sort((a, b) => b.length - a.length).find((f) => path === f || path.startsWith(`${f}.`));
  const rest = at && path !== at ? path.slice(at.length + 1).split('.') : [];
  return { [at ?? '']: rest.length ? `${partOf(rest)}: ${words}` : words };
}

/** A part of a field in words: numbers as "item 2", names quoted. */
function partInWords(rest: string[]): string {
  return rest.map((p) => (/^\d+$/.test(p) ? `item ${Number(p) + 1}` : `“${p}”`)).join(', ');
}

/** A part of the steps in words: "step 1, its “template”". */
export const stepInWords = ([index, ...rest]: string[]): string =>
  /^\d+$/.test(index)
    ? [`step ${Number(index) + 1}`, ...rest.map((p) => `its “${p}”`)].join(', ')
    : partInWords([index, ...rest]);

/** A field's rule, under it, before any submit. */
export function Rule({ text }: { text: string | undefined }) {
  return text ? <p class="rule muted">{text}</p> : null;
}

/** The problem with a field (or the form's own, `field` ''), next to it. */
export function Problem({ problems, field }: { problems: Problems; field: string }) {
  const problem = problems[field];
  return problem ? (
    <p role="alert" class="error">
      {problem}
    </p>
  ) : null;
}

/** "3 problems: see them next to their fields." when there are any. */
export function ProblemsSummary({ problems }: { problems: Problems }) {
  const n = Object.keys(problems).filter((f) => f !== '').length;
  if (n === 0) return null;
  return (
    <p role="status" class="error">
      {n === 1 ? '1 problem' : `${n} problems`}: see {n === 1 ? 'it' : 'them'} next to {n === 1 ? 'its' : 'their'} field
      {n === 1 ? '' : 's'}.
    </p>
  );
}

const DRAFTS = 'draft:';

/**
 * A form's values kept as a draft for this tab (sessionStorage, by `key`) across a reload: the
 * values as last typed, less what `withoutSecrets` takes out (a secret is never stored). `clear`
 * forgets the draft and starts again from `initial` (or what was saved).
 */
export function useDraft<T>(key: string, initial: T, withoutSecrets: (value: T) => T = (v) => v) {
  const [value, setValue] = useState<T>(() => {
    const kept = sessionStorage.getItem(DRAFTS + key);
    if (kept === null) return initial;
    try {
      return { ...initial, ...(JSON.parse(kept) as T) };
    } catch {
      return initial;
    }
  });
  const set = (next: T | ((before: T) => T)) =>
    setValue((before) => {
      const now = typeof next === 'function' ? (next as (before: T) => T)(before) : next;
      sessionStorage.setItem(DRAFTS + key, JSON.stringify(withoutSecrets(now)));
      return now;
    });
  const clear = (to: T = initial) => {
    sessionStorage.removeItem(DRAFTS + key);
    setValue(to);
  };
  return { value, set, clear };
}

const LEAVE_WORDS = 'Leave this page? What you typed in the form is not saved.';

/**
 * While `dirty`, leaving the page asks first: a reload or a closed tab (the browser's own prompt)
 * and a link inside the dashboard (this one's).
 */
export function useLeavePrompt(dirty: boolean): { saved: () => void } {
  const current = useRef(dirty);
  current.current = dirty;
  useEffect(() => {
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (!current.current) return;
      e.preventDefault();
      e.returnValue = LEAVE_WORDS;
    };
    addEventListener('beforeunload', beforeUnload);
    const release = guardLeaving(() => !current.current || confirm(LEAVE_WORDS));
    return () => {
      removeEventListener('beforeunload', beforeUnload);
      release();
    };
  }, []);
  /** Saved: a move made now (to what was made) asks nothing. */
  return { saved: () => void (current.current = false) };
}
