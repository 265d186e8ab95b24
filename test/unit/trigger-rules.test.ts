import {
  CompiledRules,
  MatchPacer,
  ruleHeaders,
  ruleProblem,
  type TriggerCondition,
  type TriggerRules,
} from '../../src/domain/trigger-rules';
import { eventTypeStop } from '../../src/domain/deliveries';
import {
  RULE_LIST_ITEMS,
  RULE_MATCH_CHARS,
  RULE_PATTERN_INSTRUCTIONS,
  RULE_YIELD_CHARS,
  TRIGGER_RULES_MAX,
} from '../../src/domain/limits';
import { MatchChars } from '../../src/domain/delivery-caps';
import type { JsonValue } from '../../src/domain/types';

const order: JsonValue = {
  status: 'paid',
  amount: 120,
  customer: { email: 'ann@example.com', tags: ['vip'] },
  items: [{ sku: 'A-1' }, { sku: 'B-2' }],
  note: null,
};
const all = (...conditions: TriggerCondition[]): TriggerRules => ({ match: 'all', conditions });
const stop = (rules: TriggerRules, trigger: JsonValue = order, headers: Record<string, string> = {}) =>
  new CompiledRules(rules).stopReason({ trigger, headers });

describe('each operator, met and not', () => {
  test.each<[TriggerCondition, TriggerCondition]>([
    [
      { field: 'trigger.status', op: 'equals', value: 'paid' },
      { field: 'trigger.status', op: 'equals', value: 'open' },
    ],
    [
      { field: 'trigger.status', op: 'notEquals', value: 'open' },
      { field: 'trigger.status', op: 'notEquals', value: 'paid' },
    ],
    [
      { field: 'trigger.customer.email', op: 'exists' },
      { field: 'trigger.customer.phone', op: 'exists' },
    ],
    [
      { field: 'trigger.customer.phone', op: 'notExists' },
      { field: 'trigger.customer.email', op: 'notExists' },
    ],
    [
      { field: 'trigger.status', op: 'in', value: ['paid', 'refunded'] },
      { field: 'trigger.status', op: 'in', value: ['open'] },
    ],
    [
      { field: 'trigger.status', op: 'notIn', value: ['open'] },
      { field: 'trigger.status', op: 'notIn', value: ['paid'] },
    ],
    [
      { field: 'trigger.customer.email', op: 'matches', value: '@example\\.com$' },
      { field: 'trigger.customer.email', op: 'matches', value: '^bob@' },
    ],
    [
      { field: 'trigger.amount', op: 'gt', value: 100 },
      { field: 'trigger.amount', op: 'gt', value: 120 },
    ],
    [
      { field: 'trigger.amount', op: 'gte', value: 120 },
      { field: 'trigger.amount', op: 'gte', value: 121 },
    ],
    [
      { field: 'trigger.amount', op: 'lt', value: 121 },
      { field: 'trigger.amount', op: 'lt', value: 120 },
    ],
    [
      { field: 'trigger.amount', op: 'lte', value: 120 },
      { field: 'trigger.amount', op: 'lte', value: 119 },
    ],
  ])('%o is met; %o is not', async (met, notMet) => {
    expect(ruleProblem(all(met))).toBeNull();
    expect(await stop(all(met))).toBeNull();
    expect(await stop(all(notMet))).toMatch(/^condition 1 not met: trigger\./);
  });
});

test('paths as placeholders write them: an index, any array item, a header', async () => {
  expect(await stop(all({ field: 'trigger.items[1].sku', op: 'equals', value: 'B-2' }))).toBeNull();
  expect(await stop(all({ field: 'trigger.items.sku', op: 'equals', value: 'B-2' }))).toBeNull();
  expect(await stop(all({ field: 'trigger.items[0].sku', op: 'equals', value: 'B-2' }))).not.toBeNull();
  const push = all({ field: 'headers.x-github-event', op: 'equals', value: 'push' });
  expect(await stop(push, order, { 'x-github-event': 'push' })).toBeNull();
  expect(await stop(push, order, { 'x-github-event': 'issues' })).not.toBeNull();
  expect(await stop(push, order, {})).not.toBeNull();
  expect(ruleHeaders(push)).toEqual(['x-github-event']);
  // A text body is the trigger itself.
  expect(await stop(all({ field: 'trigger', op: 'matches', value: '^ALERT' }), 'ALERT: disk full')).toBeNull();
});

test('all names the first condition not met; any stops only when none is met', async () => {
  const rules = all(
    { field: 'trigger.status', op: 'equals', value: 'paid' },
    { field: 'trigger.amount', op: 'gte', value: 500 },
  );
  expect(await stop(rules)).toBe('condition 2 not met: trigger.amount gte 500');
  expect(await stop({ ...rules, match: 'any' })).toBeNull();
  expect(await stop({ ...rules, match: 'any' }, { status: 'open', amount: 1 })).toMatch(
    /^no condition met \(any of 2\)/,
  );
  expect(await stop(all())).toBeNull();
});

test("a rule saved on `headers.constructor` finds no header: only the request's own count", async () => {
  const rules = all({ field: 'headers.constructor', op: 'exists' });
  expect(await stop(rules, {}, {})).toMatch(/condition 1 not met/);
  expect(await stop(all({ field: 'headers.x-kind', op: 'equals', value: 'a' }), {}, { 'x-kind': 'a' })).toBeNull();
});

test('numbers compare with numbers only: a CSV cell is a string', async () => {
  expect(await stop(all({ field: 'trigger.amount', op: 'gt', value: 5 }), { amount: '10' })).not.toBeNull();
});

test('what cannot be saved, with where it is', () => {
  const problem = (c: TriggerCondition) => ruleProblem(all(c));
  expect(problem({ field: 'body.x', op: 'exists' })?.path).toEqual(['conditions', 0, 'field']);
  expect(problem({ field: 'trigger["a.b"]', op: 'exists' })?.problem).toMatch(/dot/);
  expect(problem({ field: 'trigger.x', op: 'exists', value: 1 })?.problem).toBe('takes no value');
  expect(problem({ field: 'trigger.x', op: 'equals' })?.problem).toBe('a value is needed');
  expect(problem({ field: 'trigger.x', op: 'gt', value: '5' })?.problem).toBe('must be a number');
  expect(problem({ field: 'trigger.x', op: 'in', value: 'a' })?.problem).toBe('must be a list');
  const long = Array.from({ length: RULE_LIST_ITEMS + 1 }, (_, i) => i);
  expect(problem({ field: 'trigger.x', op: 'in', value: long })?.problem).toMatch(/at most/);
  expect(problem({ field: 'trigger.x', op: 'matches', value: '(' })?.problem).toMatch(/linear-time engine/);
  // RE2's syntax: no lookaround or backreferences (what a linear-time engine cannot do).
  expect(problem({ field: 'trigger.x', op: 'matches', value: '(?=a)b' })?.problem).toMatch(/no lookaround/);
  expect(problem({ field: 'trigger.x', op: 'matches', value: '(a)\\1' })?.problem).toMatch(/linear-time/);
  // A header that carries a credential would be kept with every delivery.
  for (const name of ['authorization', 'cookie', 'x-api-key', 'x-hub-signature-256'])
    expect(problem({ field: `headers.${name}`, op: 'exists' })?.problem).toMatch(/credential/);
  // Names an object lookup gives meaning to: a rule on one read Object's own function (N9).
  for (const name of ['constructor', '__proto__', 'prototype'])
    expect(problem({ field: `headers.${name}`, op: 'exists' })?.problem).toMatch(/not a header name/);
  const many = Array.from({ length: TRIGGER_RULES_MAX + 1 }, () => ({ field: 'trigger', op: 'exists' as const }));
  expect(ruleProblem(all(...many))?.path).toEqual(['conditions']);
});

test("the payment provider's events list is a rule on the event's type", async () => {
  const trigger = { kind: 'stripe' as const, events: ['invoice.paid'] };
  expect(await eventTypeStop(trigger, { type: 'invoice.paid' })).toBeNull();
  expect(await eventTypeStop(trigger, { type: 'charge.refunded' })).toBe(
    'event type "charge.refunded" is not selected',
  );
  expect(await eventTypeStop(trigger, 'not an object')).toBe('event type null is not selected');
  expect(await eventTypeStop({ kind: 'stripe', events: [] }, { type: 'x' })).toBeNull();
  expect(await eventTypeStop({ kind: 'custom', events: ['a'] }, { type: 'x' })).toBeNull();
});

test('a pattern runs in linear time on what a sender sends: no catastrophic backtracking', async () => {
  // Exponential for a backtracking engine; RE2 answers at once.
  const rules = all({ field: 'trigger.text', op: 'matches', value: '^(a|aa)+$' });
  expect(ruleProblem(rules)).toBeNull();
  expect(await stop(rules, { text: 'a'.repeat(50_000) + 'b' })).not.toBeNull();
  expect(await stop(rules, { text: 'a'.repeat(50_000) })).toBeNull();
  // As MongoDB's $regex: any string item of an array at the path.
  expect(await stop(all({ field: 'trigger.tags', op: 'matches', value: '^vip$' }), { tags: ['eu', 'vip'] })).toBeNull();
});

describe('what testing patterns costs (review N1)', () => {
  class CountingPacer extends MatchPacer {
    chars = 0;
    beats = 0;
    constructor() {
      super(() => void this.beats++);
    }
    override tested(chars: number): Promise<void> {
      this.chars += chars;
      return super.tested(chars);
    }
  }

  test('a pattern whose program is over RULE_PATTERN_INSTRUCTIONS cannot be saved', () => {
    const problem = (value: string) => ruleProblem(all({ field: 'trigger.x', op: 'matches', value }))?.problem ?? null;
    expect(problem('[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,255}\\.(com|org)$')).toMatch(/too costly/);
    expect(problem('[ab]{0,95}[^ab]')).toMatch(new RegExp(`at most ${RULE_PATTERN_INSTRUCTIONS}`));
    for (const fine of ['^refs/heads/main$', '[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$', '(?i)^(push|release)$'])
      expect(problem(fine)).toBeNull();
  });

  test('each value is tested once, the beats and turns come as characters are tested, and matchChars counts them first', async () => {
    const rules = new CompiledRules(all({ field: 'trigger.v', op: 'matches', value: '^z' }));
    const subject = { trigger: { v: ['a'.repeat(30_000), 'b'.repeat(30_000), 'c'.repeat(100_000)] }, headers: {} };
    const pacer = new CountingPacer();
    expect(await rules.stopReason(subject, pacer)).not.toBeNull();
    // The third is cut at RULE_MATCH_CHARS; none is tested twice (an array item was).
    expect(pacer.chars).toBe(60_000 + RULE_MATCH_CHARS);
    expect(rules.matchChars(subject)).toBe(pacer.chars);
    // A beat and a turn of the event loop once RULE_YIELD_CHARS have been tested since the last: after each of these.
    expect(pacer.beats).toBe(3);
    const many = { trigger: { v: Array.from({ length: 100 }, () => 'a'.repeat(1000)) }, headers: {} };
    const often = new CountingPacer();
    await rules.stopReason(many, often);
    expect(often.beats).toBe(Math.floor(100 / Math.ceil(RULE_YIELD_CHARS / 1000)));
  });

  test('a delivery is counted against its budget before anything is tested', () => {
    const chars = new MatchChars(10);
    chars.add(10);
    expect(() => chars.add(1)).toThrow(/^over RULE_MATCH_CHARS_PER_DELIVERY: /);
  });
});
