/** Delivery records heard in a worker (src/history/heard-records.ts): handed out once, bounded in time and count. */
import { HEARD_RECORD_MS, HeardRecords } from '../../src/history/heard-records';
import { HEARD_RECORDS_KEPT } from '../../src/domain/limits';
import type { DeliveryDoc } from '../../src/storage/documents';

const record = (robotId: string, slot: number) => ({ _id: `${robotId}-${slot}`, robotId, slot }) as DeliveryDoc;

it("hands out a robot's record by its slot, once", () => {
  const heard = new HeardRecords();
  heard.heard(record('r1', 0));
  heard.heard(record('r2', 0));
  expect(heard.take('r1', 1)).toBeUndefined();
  expect(heard.take('r1', 0)?._id).toBe('r1-0');
  expect(heard.take('r1', 0)).toBeUndefined();
  expect(heard.take('r2', 0)?._id).toBe('r2-0');
});

it('forgets a record not taken within HEARD_RECORD_MS, and the oldest past HEARD_RECORDS_KEPT', () => {
  const heard = new HeardRecords();
  const start = Date.now();
  heard.heard(record('r1', 0), start);
  heard.heard(record('r1', 1), start + HEARD_RECORD_MS);
  expect(heard.take('r1', 0)).toBeUndefined();
  expect(heard.take('r1', 1)?._id).toBe('r1-1');
  for (let slot = 0; slot <= HEARD_RECORDS_KEPT; slot++) heard.heard(record('r2', slot), start);
  expect(heard.take('r2', 0)).toBeUndefined();
  expect(heard.take('r2', 1)?._id).toBe('r2-1');
  expect(heard.take('r2', HEARD_RECORDS_KEPT)?._id).toBe(`r2-${HEARD_RECORDS_KEPT}`);
});
