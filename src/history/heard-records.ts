/**
 * Delivery records heard in this process: a worker's recorder (./slots.ts) tells this worker's
 * history keeper each delivery whose slot it claimed and whose record its own insert stored, so the
 * keeper takes it without reading the claim and the record back (./build.ts): two reads fewer per
 * delivery, on FerretDB and in the worker. Deliveries recorded by another process (the receiver's
 * refusals, another worker) are still found by the keeper's reads.
 *
 * A hint, never the record: what is heard was stored first, exactly as heard. A record this
 * process found stored already (an earlier attempt's, which may name another slot) is not heard.
 * Bounded: past HEARD_RECORDS_KEPT, or HEARD_RECORD_MS after it was heard (its robot's keeper is
 * in another process, or was not looking), the oldest is forgotten and read back like any other.
 */
import { HEARD_RECORDS_KEPT } from '../domain/limits';
import type { DeliveryDoc } from '../storage/documents';

/** How long a heard record waits for this process's keeper before it is left to the keeper's reads. */
export const HEARD_RECORD_MS = 60_000;

export class HeardRecords {
  /** By robot and slot (`<robotId>\n<slot>`), in the order heard. */
  private readonly bySlot = new Map<string, { doc: DeliveryDoc; at: number }>();

  /** A delivery's claim and record were both stored by this process. */
  heard(doc: DeliveryDoc, now = Date.now()): void {
    this.bySlot.set(`${doc.robotId}\n${doc.slot}`, { doc, at: now });
    for (const [key, { at }] of this.bySlot) {
      if (this.bySlot.size <= HEARD_RECORDS_KEPT && now - at < HEARD_RECORD_MS) break;
      this.bySlot.delete(key);
    }
  }

  /** The record heard for the robot's slot, forgotten once handed out; undefined when none was. */
  take(robotId: string, slot: number): DeliveryDoc | undefined {
    const key = `${robotId}\n${slot}`;
    const held = this.bySlot.get(key);
    if (held) this.bySlot.delete(key);
    return held?.doc;
  }
}
