/**
 * Marks: how a process that records a delivery tells the history keeper, in whatever process it
 * runs, that a robot has something new, so the keeper need not look at every robot every second.
 *
 * A mark is a document whose `_id` is the robot's id, inserted by the recorder (slots.ts) once the
 * delivery's slot is claimed. The keeper reads every mark once a tick with one query (a handful of
 * documents at most: one per robot that had a delivery since the last read), deletes them, and only
 * then looks at those robots, so a slot claimed before a mark it could not insert (the mark was
 * already there) is seen by that look.
 *
 * **The rule that lets a recorder skip marks**: a recorder marks a robot at most once every
 * MARK_EVERY_MS, and the keeper looks at a robot every second for QUIET_AFTER_MS (keeper-schedule.ts) after
 * reading its mark, which is at least as long: a delivery recorded without a mark is recorded
 * within MARK_EVERY_MS of a mark this recorder made, so within that second-by-second watch.
 *
 * A mark is a hint, never the record: a keeper looks at every robot at least every QUIET_TICK_MS,
 * so a delivery whose mark failed (the store refused it, the process died between) is still in the
 * history within a minute.
 */
import { isDuplicateKeyError, rawCollection } from '../storage/writes';
import type { Models } from '../storage/models';
import type { MarkDoc } from '../storage/history-documents';

/**
 * A recorder marks a robot again only this long after its last mark: a busy robot costs the store
 * one insert every few seconds, not one per delivery (at most QUIET_AFTER_MS, keeper-schedule.ts).
 */
export const MARK_EVERY_MS = 5000;
/** Past this many robots marked, a recorder forgets those marked longest ago (it only marks again). */
const MARKED_KEPT = 10_000;

export class RobotMarks {
  /** When this process last marked each robot. */
  private readonly markedAt = new Map<string, number>();

  constructor(private readonly models: Models) {}

  /** Tells the keeper the robot has a new delivery, unless this process did within MARK_EVERY_MS. */
  async mark(robotId: string): Promise<void> {
    const now = Date.now();
    if (now - (this.markedAt.get(robotId) ?? -Infinity) < MARK_EVERY_MS) return;
    try {
      await rawCollection<MarkDoc>(this.models.HistoryMark).insertOne({ _id: robotId, at: new Date(now) });
    } catch (err) {
      // Already marked: the keeper looks at the robot after it deletes that mark. Any other failure
      // leaves the delivery to the keeper's QUIET_TICK_MS look; the record itself is stored.
      if (!isDuplicateKeyError(err)) return;
    }
    if (this.markedAt.size >= MARKED_KEPT) this.markedAt.clear();
    this.markedAt.set(robotId, now);
  }
}

/**
 * The robots marked since the last call, their marks deleted: the keeper looks at them after this
 * returns. The one read that is not by `_id` on a history path: the collection holds at most one
 * document per robot recorded to within a tick. A delete that fails (or whose answer is lost)
 * still returns the robots: their marks are read again next time, which costs only a look.
 */
export async function takeMarks(models: Models): Promise<string[]> {
  const marks = rawCollection<MarkDoc>(models.HistoryMark);
  const ids = (await marks.find({}, { projection: { _id: 1 } }).toArray()).map((m) => m._id);
  if (ids.length > 0) await marks.deleteMany({ _id: { $in: ids } }).catch(() => undefined);
  return ids;
}
