/** What the delivery workflow gets to start runs: their ids, with their trigger data when small. */
import { SEEDS_MAX_BYTES, TRIGGER_INLINE_BYTES } from '../domain/limits';
import type { JsonValue, RunSeed } from '../domain/types';

/** A run's seed: its trigger data inline up to TRIGGER_INLINE_BYTES, else read from the stored run. */
export function seedOf(runId: string, triggerJson: string, data: JsonValue): RunSeed {
  const bytes = Buffer.byteLength(triggerJson);
  return bytes <= TRIGGER_INLINE_BYTES
    ? { runId, trigger: { kind: 'inline', data }, bytes }
    : { runId, trigger: { kind: 'stored' }, bytes: 0 };
}

/** Collects seeds while they fit: at most `max` runs and SEEDS_MAX_BYTES of inline data (always one). */
export class SeedBatch {
  readonly seeds: RunSeed[] = [];
  private bytes = 0;
  constructor(private readonly max: number) {}
  offer(seed: RunSeed): boolean {
    if (this.seeds.length >= this.max || (this.seeds.length > 0 && this.bytes + seed.bytes > SEEDS_MAX_BYTES))
      return false;
    this.seeds.push(seed);
    this.bytes += seed.bytes;
    return true;
  }
}
