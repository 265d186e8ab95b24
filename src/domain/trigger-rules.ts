/**
 * Trigger rules: conditions a delivery must meet before any run is made (docs/api.md#trigger-rules).
 *
 * - **What a condition reads.** `trigger…` is the trigger data at a placeholder's path
 *   (`trigger.customer.email`, `trigger.items[0].sku`; ./placeholders); `headers.<name>` a request
 *   header (lower-case). A header a rule names is kept with each delivery (the receiver keeps it).
 * - **Operators**: equals, notEquals, exists, notExists, in, notIn, matches (a regular expression),
 *   gt, gte, lt, lte; the robot's rules match `all` or `any` of their conditions.
 * - **Evaluated by libraries**: each condition becomes a MongoDB-style query, which `mingo` tests
 *   against `{ trigger, headers }`. So its semantics are MongoDB's: on an array, `equals` holds when
 *   any item equals (`trigger.items.sku` equals `"A-1"`: some item's sku is A-1); numbers compare
 *   only with numbers (a CSV's cells are strings). A `matches` pattern runs on `re2js`, a
 *   linear-time engine (RE2's syntax: no lookaround, no backreferences), on the values mingo's own
 *   path resolution finds: a sender controls the text, and a backtracking engine can be made to
 *   take exponential time by patterns no static check catches (`(.|\s)*end`).
 * - **What a pattern may cost.** RE2 is linear in the text, but its cost per character grows with
 *   the pattern's program (a counted repetition `{0,95}` makes it large): a pattern is refused
 *   whose program has over RULE_PATTERN_INSTRUCTIONS instructions. A delivery's patterns test at
 *   most RULE_MATCH_CHARS_PER_DELIVERY characters across its values, rows and conditions (counted
 *   before any is tested, `matchChars`; past it the delivery fails naming the cap), and the testing
 *   lets the event loop turn and the activity beat every RULE_YIELD_CHARS (`MatchPacer`).
 * - **Where**: in the worker, before a run is made; a CSV's rows one by one (./deliveries).
 * - **Versioned with the steps** (src/robots/steps-versions.ts): a delivery follows the rules it was
 *   accepted with.
 * - **Checked when saved** (`ruleProblem`): at most TRIGGER_RULES_MAX conditions, a pattern of at
 *   most RULE_PATTERN_CHARS that RE2 accepts into a program of at most RULE_PATTERN_INSTRUCTIONS,
 *   lists of at most RULE_LIST_ITEMS, values of at most RULE_VALUE_BYTES, and no header that
 *   carries a credential (it would be kept with each delivery).
 */
import { Query } from 'mingo';
import { ensureArray, resolve } from 'mingo/util';
import { RE2JS } from 're2js';
import {
  RULE_LIST_ITEMS,
  RULE_MATCH_CHARS,
  RULE_PATTERN_CHARS,
  RULE_PATTERN_INSTRUCTIONS,
  RULE_VALUE_BYTES,
  RULE_YIELD_CHARS,
  TRIGGER_RULES_MAX,
} from './limits';
import { RESERVED_HEADER_NAMES } from './headers';
import { isExpression, parsePath } from './placeholders';
import type { JsonValue } from './types';

export const RULE_OPS = [
  'equals',
  'notEquals',
  'exists',
  'notExists',
  'in',
  'notIn',
  'matches',
  'gt',
  'gte',
  'lt',
  'lte',
] as const;
type RuleOp = (typeof RULE_OPS)[number];

export interface TriggerCondition {
  /** `trigger.customer.email`, `trigger`, or `headers.x-github-event`. */
  field: string;
  op: RuleOp;
  /** Absent for exists and notExists; a list for in and notIn; a pattern for matches; a number for gt…lte. */
  value?: JsonValue;
}

export interface TriggerRules {
  match: 'all' | 'any';
  conditions: TriggerCondition[];
}

/** What a rule is tested on. */
interface RuleSubject {
  trigger: JsonValue;
  /** Request headers by lower-case name (those kept with the delivery). */
  headers: Record<string, string>;
}

const HEADER_FIELD = /^headers\.([a-z0-9!#$%&'*+^_`|~-]+)$/;
/** Headers that carry a credential: a rule on one would keep it with every delivery, in the log. */
const CREDENTIAL_HEADER = /auth|cookie|secret|token|signature|api-?key|password|session/;
const NUMBER_OPS: ReadonlySet<RuleOp> = new Set(['gt', 'gte', 'lt', 'lte']);
const MONGO_OP: Record<Exclude<RuleOp, 'matches'>, (v: JsonValue | undefined) => Record<string, unknown>> = {
  equals: (v) => ({ $eq: v }),
  notEquals: (v) => ({ $ne: v }),
  exists: () => ({ $exists: true }),
  notExists: () => ({ $exists: false }),
  in: (v) => ({ $in: v }),
  notIn: (v) => ({ $nin: v }),
  gt: (v) => ({ $gt: v }),
  gte: (v) => ({ $gte: v }),
  lt: (v) => ({ $lt: v }),
  lte: (v) => ({ $lte: v }),
};

/** The document path a field reads in `{ trigger, headers }`, or why it cannot be read. */
function documentPath(field: string): { path: string } | { problem: string } {
  const header = HEADER_FIELD.exec(field);
  if (header && CREDENTIAL_HEADER.test(header[1]))
    return { problem: 'a header that carries a credential would be kept with every delivery: filter on another' };
  if (header) return { path: `headers.${header[1]}` };
  if (!isExpression(field))
    return { problem: 'must be trigger, trigger.<path> (as in a placeholder) or headers.<lower-case name>' };
  const segments = parsePath(field);
  if (segments.some((s) => typeof s === 'string' && (s.includes('.') || s.startsWith('$') || s === '')))
    return { problem: 'a key with a dot, a leading $ or no name cannot be filtered on' };
  return { path: ['trigger', ...segments.map(String)].join('.') };
}

/** The header names conditions read: the receiver keeps these with each delivery. */
export function ruleHeaders(rules: TriggerRules | null): string[] {
  return (rules?.conditions ?? []).flatMap((c) => HEADER_FIELD.exec(c.field)?.[1] ?? []);
}

/** Why a rule set cannot be saved, and where in it (`['conditions', 2, 'value']`), or null when it can. */
export function ruleProblem(rules: TriggerRules): { path: Array<string | number>; problem: string } | null {
  if (rules.conditions.length > TRIGGER_RULES_MAX)
    return { path: ['conditions'], problem: `at most ${TRIGGER_RULES_MAX} conditions` };
  for (const [i, c] of rules.conditions.entries()) {
    const name = HEADER_FIELD.exec(c.field)?.[1];
    if (name && RESERVED_HEADER_NAMES.has(name))
      return { path: ['conditions', i, 'field'], problem: `${name} is not a header name to filter on` };
    const read = documentPath(c.field);
    if ('problem' in read) return { path: ['conditions', i, 'field'], problem: read.problem };
    const problem = valueProblem(c);
    if (problem) return { path: ['conditions', i, 'value'], problem };
  }
  return null;
}

function valueProblem({ op, value }: TriggerCondition): string | null {
  if (op === 'exists' || op === 'notExists') return value === undefined ? null : 'takes no value';
  if (value === undefined) return 'a value is needed';
  if (Buffer.byteLength(JSON.stringify(value)) > RULE_VALUE_BYTES) return `at most ${RULE_VALUE_BYTES} bytes`;
  if (op === 'in' || op === 'notIn') {
    if (!Array.isArray(value)) return 'must be a list';
    return value.length > RULE_LIST_ITEMS ? `at most ${RULE_LIST_ITEMS} items` : null;
  }
  if (NUMBER_OPS.has(op)) return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
  if (op === 'matches') {
    if (typeof value !== 'string') return 'must be a pattern (a string)';
    if (value.length > RULE_PATTERN_CHARS) return `a pattern of at most ${RULE_PATTERN_CHARS} characters`;
    let instructions: number;
    try {
      instructions = programSize(RE2JS.compile(value));
    } catch (err) {
      return `not a pattern the linear-time engine takes (RE2: no lookaround or backreferences): ${(err as Error).message}`;
    }
    if (instructions > RULE_PATTERN_INSTRUCTIONS)
      return (
        `a pattern too costly to test on what senders send (${instructions} instructions, at most ` +
        `${RULE_PATTERN_INSTRUCTIONS}): use fewer or smaller counted repetitions ({1,64} → +)`
      );
  }
  return null;
}

/** A condition in a line of the deliveries log: `trigger.amount gte 100`. */
function describeCondition(c: TriggerCondition): string {
  const text = `${c.field} ${c.op}${c.value === undefined ? '' : ` ${JSON.stringify(c.value)}`}`;
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** The size of a compiled pattern's program (re2js keeps it on its compiled form, untyped). */
function programSize(re: RE2JS): number {
  return (re as unknown as { re2Input: { prog: { numInst(): number } } }).re2Input.prog.numInst();
}

/**
 * Lets a long test of patterns give way: every RULE_YIELD_CHARS characters tested it beats (an
 * activity's heartbeat) and lets the event loop turn, so the worker's other work goes on.
 */
export class MatchPacer {
  private since = 0;
  constructor(private readonly beat: () => void = () => undefined) {}

  async tested(chars: number): Promise<void> {
    this.since += chars;
    if (this.since < RULE_YIELD_CHARS) return;
    this.since = 0;
    this.beat();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A compiled condition: a mingo query, or (matches) an RE2 pattern on the values mingo resolves. */
interface Test {
  test(subject: Record<string, unknown>, pacer: MatchPacer): boolean | Promise<boolean>;
}

/**
 * The strings a `matches` condition tests at its path, as MongoDB's `$regex` reads them (a string
 * there, or a string item of an array there), each cut at RULE_MATCH_CHARS.
 */
function* patternValues(subject: Record<string, unknown>, path: string): Generator<string> {
  const cut = (x: string) => (x.length > RULE_MATCH_CHARS ? x.slice(0, RULE_MATCH_CHARS) : x);
  for (const value of ensureArray(resolve(subject, path, { unwrapArray: true }))) {
    if (typeof value === 'string') yield cut(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') yield cut(item);
  }
}

/** `matches` as MongoDB's `$regex` does it, in linear time, each value tested once, paced. */
class PatternTest implements Test {
  private readonly re: RE2JS;
  constructor(
    readonly path: string,
    pattern: string,
  ) {
    this.re = RE2JS.compile(pattern);
  }

  async test(subject: Record<string, unknown>, pacer: MatchPacer): Promise<boolean> {
    for (const value of patternValues(subject, this.path)) {
      const found = this.re.matcher(value).find();
      await pacer.tested(value.length);
      if (found) return true;
    }
    return false;
  }
}

/** Rules ready to test subjects: each condition compiled once. */
export class CompiledRules {
  private readonly queries: Test[];
  private readonly patterns: PatternTest[];
  /** Why a subject meeting no condition of `any` is stopped: made once. */
  private readonly noneMet: string;

  constructor(private readonly rules: TriggerRules) {
    const all = rules.conditions.map(describeCondition).join('; ');
    this.noneMet = `no condition met (any of ${rules.conditions.length}): ${all}`.slice(0, 400);
    this.queries = rules.conditions.map((c) => {
      const read = documentPath(c.field);
      if ('problem' in read) throw new Error(`condition on ${c.field}: ${read.problem}`);
      if (c.op === 'matches') return new PatternTest(read.path, typeof c.value === 'string' ? c.value : '');
      const query = new Query({ [read.path]: MONGO_OP[c.op](c.value) });
      return { test: (subject: Record<string, unknown>) => query.test(subject) };
    });
    this.patterns = this.queries.filter((q): q is PatternTest => q instanceof PatternTest);
  }

  /**
   * The characters the patterns would test in the subject at most (every `matches` condition's
   * values, whether or not an earlier condition decides first): counted before any is tested, so a
   * delivery over its budget makes no run at all.
   */
  matchChars(subject: RuleSubject): number {
    let chars = 0;
    const tested = testedForm(subject);
    for (const p of this.patterns) for (const value of patternValues(tested, p.path)) chars += value.length;
    return chars;
  }

  /** Why the subject is stopped (the condition that stopped it), or null when it may make a run. */
  async stopReason(subject: RuleSubject, pacer = new MatchPacer()): Promise<string | null> {
    const { conditions, match } = this.rules;
    if (conditions.length === 0) return null;
    const tested = testedForm(subject);
    if (match === 'any') {
      for (const q of this.queries) if (await q.test({ ...tested }, pacer)) return null;
      return this.noneMet;
    }
    for (const [i, q] of this.queries.entries())
      if (!(await q.test({ ...tested }, pacer)))
        return `condition ${i + 1} not met: ${describeCondition(conditions[i])}`;
    return null;
  }
}

/**
 * A subject as it is tested: its headers by their own names only (a rule saved before such names
 * were refused may name `constructor`).
 */
function testedForm(subject: RuleSubject): Record<string, unknown> {
  return { trigger: subject.trigger, headers: Object.assign(Object.create(null), subject.headers) as object };
}
