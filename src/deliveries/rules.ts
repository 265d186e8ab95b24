/**
 * Which trigger data values of a delivery make runs (the rule: src/domain/trigger-rules.ts): the
 * rules of the version the delivery was accepted with, compiled once per version, tested on each
 * value in order (a CSV's rows one by one). Preparing (./prepare.ts) and the seeds of a CSV's later
 * runs (./csv-runs.ts) read rows through the same `admitted`, so a run's index is the same in both.
 */
import type { FieldCollector } from '../domain/fields';
import { FIELDS_CSV_ROWS, HEARTBEAT_ROWS, ROBOTS_KEPT } from '../domain/limits';
import { CompiledRules, MatchPacer } from '../domain/trigger-rules';
import type { DeliveryInput, JsonValue } from '../domain/types';
import type { StepsVersions } from '../robots/steps-versions';

/** Rows the rules stopped, and why the first was. */
export class StoppedRows {
  count = 0;
  first: string | null = null;

  add(reason: string): void {
    this.count++;
    this.first ??= reason;
  }
}

export class DeliveryRules {
  private readonly compiled = new Map<string, CompiledRules | null>();

  constructor(private readonly versions: StepsVersions) {}

  /** The delivery's rules, or null when it has none (or was accepted before versions, 0.4). */
  async of(input: DeliveryInput): Promise<CompiledRules | null> {
    if (input.stepsVersion === undefined) return null;
    const key = `${input.robotId}:${input.stepsVersion}`;
    const hit = this.compiled.get(key);
    if (hit !== undefined) return hit;
    const { rules } = await this.versions.version(input.robotId, input.stepsVersion);
    const compiled = rules && rules.conditions.length > 0 ? new CompiledRules(rules) : null;
    if (this.compiled.size >= ROBOTS_KEPT) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(key, compiled);
    return compiled;
  }
}

/** What reading a CSV's rows does beside filtering: collect its fields, count what is stopped. */
interface Admission {
  rules: CompiledRules | null;
  headers: Record<string, string>;
  /** Collects the first FIELDS_CSV_ROWS rows' fields (all rows, stopped or not), when given. */
  fields?: FieldCollector | null;
  stopped?: StoppedRows;
  /** Told every HEARTBEAT_ROWS rows read: a long run of stopped rows stores nothing that would beat. */
  beat?: () => void;
}

/** The rows that make runs, in order (`rowOf`: the row an item carries, when it is not the row itself). */
export async function* admitted<T>(
  items: AsyncIterable<T>,
  { rules, headers, fields, stopped, beat }: Admission,
  rowOf: (item: T) => JsonValue = (item) => item as JsonValue,
): AsyncGenerator<T, void, undefined> {
  let n = 0;
  const pacer = new MatchPacer(beat);
  for await (const item of items) {
    const row = rowOf(item);
    if (fields && n < FIELDS_CSV_ROWS) fields.add(row);
    if (++n % HEARTBEAT_ROWS === 0) beat?.();
    const reason = rules ? await rules.stopReason({ trigger: row, headers }, pacer) : null;
    if (reason === null) yield item;
    else stopped?.add(reason);
  }
}

/**
 * How many of the rows make runs, read as `admitted` reads them (nothing collected): what a CSV is
 * charged to the fan-out quota before any run is stored (./fanout-quota.ts), rows the rules stop not.
 */
export async function admittedCount<T>(
  items: AsyncIterable<T>,
  admission: Pick<Admission, 'rules' | 'headers' | 'beat'>,
): Promise<number> {
  let count = 0;
  for await (const _ of admitted(items, admission)) count++;
  return count;
}
