/**
 * Trigger rules (src/domain/trigger-rules.ts, docs/api.md#trigger-rules): what a robot's conditions
 * may be, and what testing them may cost a delivery.
 */
import { KiB, MiB } from './units';

/** Conditions per robot: a filter, not a program; each is tested on every delivery (and CSV row). */
export const TRIGGER_RULES_MAX = 20;
/** Items of an `in` / `notIn` list. */
export const RULE_LIST_ITEMS = 100;
/** Characters of a `matches` pattern. */
export const RULE_PATTERN_CHARS = 200;
/**
 * Instructions of a pattern's compiled program. RE2's time is linear in the text, but its cost per
 * character grows with the program: a counted repetition makes it large (an e-mail pattern with
 * `{1,64}` and `{1,255}` is 650 instructions, about 5 µs a character on text made against it;
 * `[ab]{0,95}[^ab]`, 193 instructions, about 6 µs). At 100, the patterns people write to filter
 * (`^refs/heads/main$` 19, `[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$` 12, `(?i)^(push|release)$` 31) fit
 * many times over, and the worst costs about 2 µs a character (measured with re2js 2.10 here).
 */
export const RULE_PATTERN_INSTRUCTIONS = 100;
/**
 * Characters of a value a pattern is tested on (a longer value is cut): the sender chooses the
 * length, and one value should not use a delivery's whole budget.
 */
export const RULE_MATCH_CHARS = 64 * KiB;
/**
 * Characters a delivery's patterns may test in all, across its values, CSV rows and conditions
 * (default of the setting RULE_MATCH_CHARS_PER_DELIVERY): about 2 s of a worker at the worst
 * allowed pattern, while a CSV of 100,000 rows whose tested column has 10 characters fits. Past
 * it the delivery is failed naming the setting, and makes no run.
 */
export const DEFAULT_RULE_MATCH_CHARS_PER_DELIVERY = 1 * MiB;
/** Characters tested between two turns of the event loop (and heartbeats): a few ms at the worst pattern. */
export const RULE_YIELD_CHARS = 4 * KiB;
/** Bytes of a condition's value as JSON. */
export const RULE_VALUE_BYTES = 4 * KiB;
