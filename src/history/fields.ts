/**
 * A robot's fields seen (the rule: src/domain/fields.ts): the paths its last FIELDS_DELIVERIES
 * parsed deliveries carried. The deliveries log is read newest first, a block at a time, up to
 * FIELDS_LOG_SCAN entries; then each of those deliveries' records by `_id` for its fields. So it
 * costs the same however long the history is; a delivery appears once the history keeper has put
 * it in the log (within a second or two), and goes with it when retention removes it.
 */
import { mergeFields, type DeliveryFields, type RobotField } from '../domain/fields';
import { BLOCK_SIZE, FIELDS_DELIVERIES, FIELDS_LOG_SCAN } from '../domain/limits';
import { byId } from '../storage/by-id';
import type { DeliveryDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import type { DeliveryEntry } from './live-tally';
import { itemsDown } from './reads';
import { readTally } from './store';

export interface RobotFields {
  /** How many deliveries the fields come from (at most FIELDS_DELIVERIES). */
  deliveries: number;
  /** Some delivery had more paths than were kept. */
  truncated: boolean;
  fields: RobotField[];
}

/** Outcomes of deliveries whose body was parsed: they carry fields. */
const PARSED: ReadonlySet<string> = new Set(['processed', 'dropped', 'filtered']);

export async function robotFields(models: Models, robotId: string): Promise<RobotFields> {
  const { state } = await readTally(models, robotId);
  const ids: string[] = [];
  const stop = Math.max(state.firstEntry, state.entries - FIELDS_LOG_SCAN);
  for (let to = state.entries; to > stop && ids.length < FIELDS_DELIVERIES; to -= BLOCK_SIZE) {
    const entries = await itemsDown<DeliveryEntry>(models, 'deliveries', robotId, Math.max(stop, to - BLOCK_SIZE), to);
    for (const e of entries) if (PARSED.has(e.outcome) && ids.length < FIELDS_DELIVERIES) ids.push(e._id);
  }
  const docs = await Promise.all(ids.map((id) => byId<DeliveryDoc>(models.Delivery, id, { fieldsJson: 1 })));
  const seen: DeliveryFields[] = [];
  for (const doc of docs) if (doc?.fieldsJson) seen.push(JSON.parse(doc.fieldsJson) as DeliveryFields);
  return { deliveries: seen.length, truncated: seen.some((d) => d.truncated), fields: mergeFields(seen) };
}
