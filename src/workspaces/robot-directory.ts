/**
 * The robots page's directory: each workspace's robots by name and age, for `GET /api/robots`'s pages
 * and its search by name, at a cost that does not grow with the robots of other workspaces nor, but
 * for the sort, with the workspace's own.
 *
 * A workspace's directory is a chain (src/storage/chains.ts) of entries `<workspace>:<n>`, one
 * appended by insert each time a robot is made or renamed (the last entry of a robot wins), and a
 * snapshot of it up to some entry (`robot_listing_snapshots/<workspace>`). A process keeps each
 * workspace it has read in memory (about 150 bytes a robot) with the number of the last entry it
 * applied; a page first looks for entries after it (one read by `_id` when there are none, so a
 * robot made through another process is listed by the next page), applies them and sorts again
 * only then. A process that has not read a workspace starts from its snapshot; one that applied
 * DIRECTORY_SNAPSHOT_EVERY entries past the snapshot writes a new one. Measured at 10,000 robots:
 * docs/workspaces.md. Robots are never deleted.
 *
 * Each entry also holds the robot's state (a transition appends one), for the page's filter by state
 * and its count. Entries and snapshots written before 0.12 hold none: the first process to read such
 * a workspace reads those robots' states by `_id` (CHAIN_READS_AT_ONCE at a time), once, and writes a
 * snapshot with them. A page shows each robot as read by `_id` (src/api/robots.ts), so an entry
 * behind its robot (two transitions crossing) is shown true and listed again there.
 */
import { CHAIN_READS_AT_ONCE, DIRECTORIES_KEPT, DIRECTORY_SNAPSHOT_EVERY, ROBOTS_KEPT } from '../domain/limits';
import { BadCursor } from '../domain/cursors';
import { byId } from '../storage/by-id';
import { Chains } from '../storage/chains';
import type { RobotDoc } from '../storage/documents';
import type { RobotState } from '../domain/types';
import type { RobotListingDoc, RobotListingSnapshotDoc, SnapshotRobot } from '../storage/workspace-documents';
import type { Models } from '../storage/models';
import { rawCollection } from '../storage/writes';

interface Listed {
  id: string;
  name: string;
  /** The name in lower case, for the search. */
  folded: string;
  createdAt: number;
  /** Undefined until read from the robot, for entries written before 0.12. */
  state: RobotState | undefined;
}

/** A workspace's directory as this process knows it. */
interface Known {
  upTo: number;
  snapshotUpTo: number;
  robots: Map<string, Listed>;
  /** Newest first; remade when an entry is applied. */
  sorted: Listed[] | null;
}

/**
 * A page of robots, newest first (their ids and states as listed): where the next begins and where
 * the one before ends (null: none), how many robots match, and how many of them come before it.
 */
export interface DirectoryPage {
  ids: string[];
  states: (RobotState | undefined)[];
  nextCursor: string | null;
  prevCursor: string | null;
  total: number;
  offset: number;
}

/** Which robots a page shows: `limit` of those matching, after `cursor` or before `before` (one of them). */
export interface DirectoryQuery {
  limit: number;
  search?: string;
  state?: RobotState;
  cursor?: string;
  before?: string;
}

/** Newest first; robots made in the same millisecond by id. */
const newestFirst = (a: Listed, b: Listed) => b.createdAt - a.createdAt || a.id.localeCompare(b.id);
const cursorOf = (r: Listed) => `${r.createdAt}.${r.id}`;
/** A robot as listed; a state absent (null as stored) is read from the robot (`readStates`). */
const listed = (id: string, name: string, createdAt: Date, state?: RobotState | null): Listed => ({
  id,
  name,
  folded: name.toLowerCase(),
  createdAt: createdAt.getTime(),
  state: state ?? undefined,
});

/** Where a cursor's robot is, or would be, in the list: the first robot not newer than it. */
function placeOf(robots: Listed[], cursor: string): number {
  const m = /^(\d{1,15})\.(.{1,100})$/.exec(cursor);
  if (!m) throw new BadCursor();
  const at = listed(m[2], '', new Date(Number(m[1])));
  let [low, high] = [0, robots.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (newestFirst(robots[middle], at) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class RobotDirectory {
  private readonly chains: Chains<RobotListingDoc>;
  private readonly known = new Map<string, Known>();
  private readonly reading = new Map<string, Promise<Known>>();

  constructor(private readonly models: Models) {
    this.chains = new Chains(models.RobotListing, ROBOTS_KEPT);
  }

  /** A page of the workspace's robots whose name holds `search` (any case), in `state` when given, newest first. */
  async page(workspaceId: string, query: DirectoryQuery): Promise<DirectoryPage> {
    const { limit, state, cursor, before } = query;
    const known = await this.current(workspaceId);
    known.sorted ??= [...known.robots.values()].sort(newestFirst);
    const folded = query.search?.trim().toLowerCase();
    const robots =
      folded || state
        ? known.sorted.filter((r) => (!folded || r.folded.includes(folded)) && (!state || r.state === state))
        : known.sorted;
    let start = 0;
    if (before !== undefined) start = Math.max(0, placeOf(robots, before) - limit);
    else if (cursor !== undefined) {
      start = placeOf(robots, cursor);
      // The cursor's robot ends the page before: this one begins after it.
      if (robots[start] && cursorOf(robots[start]) === cursor) start++;
    }
    const end = before !== undefined ? placeOf(robots, before) : start + limit;
    const shown = robots.slice(start, Math.min(end, start + limit));
    return {
      ids: shown.map((r) => r.id),
      states: shown.map((r) => r.state),
      nextCursor: start + shown.length < robots.length && shown.length > 0 ? cursorOf(shown[shown.length - 1]) : null,
      prevCursor: start > 0 && shown.length > 0 ? cursorOf(shown[0]) : null,
      total: robots.length,
      offset: start,
    };
  }

  /** The names of robots of the workspace, by id, as listed (for the audit log: no read of the robots). */
  async names(workspaceId: string, ids: readonly string[]): Promise<Map<string, string>> {
    const known = await this.current(workspaceId);
    return new Map(ids.flatMap((id) => (known.robots.has(id) ? [[id, known.robots.get(id)!.name]] : [])));
  }

  /** Lists a robot as it is now (made, or renamed): every process sees it from its next page on. */
  async list(robot: Pick<RobotDoc, '_id' | 'workspaceId' | 'name' | 'createdAt' | 'state'>): Promise<void> {
    const entry = { robotId: robot._id, name: robot.name, createdAt: robot.createdAt, state: robot.state };
    await this.chains.append(robot.workspaceId, entry, this.known.get(robot.workspaceId)?.upTo ?? 0);
  }

  /** The workspace's directory with every entry there is applied (one read at a time per workspace). */
  private async current(workspaceId: string): Promise<Known> {
    let reading = this.reading.get(workspaceId);
    if (!reading) {
      reading = this.catchUp(workspaceId).finally(() => this.reading.delete(workspaceId));
      this.reading.set(workspaceId, reading);
    }
    return reading;
  }

  private async catchUp(workspaceId: string): Promise<Known> {
    const known = this.known.get(workspaceId) ?? (await this.fromSnapshot(workspaceId));
    const last = await this.chains.last(workspaceId, known.upTo);
    for (let from = known.upTo + 1; from <= last; from += CHAIN_READS_AT_ONCE) {
      const numbers = Array.from({ length: Math.min(CHAIN_READS_AT_ONCE, last - from + 1) }, (_, i) => from + i);
      const entries = await Promise.all(numbers.map((n) => this.chains.entry(workspaceId, n)));
      // An entry a writer claimed but has not written yet cannot be: an insert is the claim.
      for (const e of entries) if (e) known.robots.set(e.robotId, listed(e.robotId, e.name, e.createdAt, e.state));
      known.sorted = null;
    }
    known.upTo = Math.max(known.upTo, last);
    const stateless = await this.readStates(known);
    this.known.delete(workspaceId);
    if (this.known.size >= DIRECTORIES_KEPT) this.known.delete(this.known.keys().next().value!);
    this.known.set(workspaceId, known);
    if (stateless || known.upTo - known.snapshotUpTo >= DIRECTORY_SNAPSHOT_EVERY)
      await this.snapshot(workspaceId, known);
    return known;
  }

  /** Reads by `_id` the states no entry held (listed before 0.12); whether there were any. */
  private async readStates(known: Known): Promise<boolean> {
    const stateless = [...known.robots.values()].filter((r) => r.state === undefined);
    for (let from = 0; from < stateless.length; from += CHAIN_READS_AT_ONCE) {
      const batch = stateless.slice(from, from + CHAIN_READS_AT_ONCE);
      const read = await Promise.all(batch.map((r) => byId<RobotDoc>(this.models.Robot, r.id, { state: 1 })));
      read.forEach((robot, i) => (batch[i].state = robot?.state ?? 'draft'));
      known.sorted = null;
    }
    return stateless.length > 0;
  }

  private async fromSnapshot(workspaceId: string): Promise<Known> {
    const snapshot = await byId<RobotListingSnapshotDoc>(this.models.RobotListingSnapshot, workspaceId);
    const kept = snapshot ? (JSON.parse(snapshot.robotsJson) as SnapshotRobot[]) : [];
    const robots = new Map(kept.map((r) => [r.id, listed(r.id, r.name, new Date(r.createdAt), r.state)]));
    const upTo = snapshot?.upTo ?? 0;
    return { upTo, snapshotUpTo: upTo, robots, sorted: null };
  }

  /**
   * Writes the workspace's snapshot as this process knows it. Two processes writing at once each
   * write a true snapshot (of the entries up to its `upTo`): the one kept is read with its tail.
   */
  private async snapshot(workspaceId: string, known: Known): Promise<void> {
    const robots: SnapshotRobot[] = [...known.robots.values()].map(({ id, name, createdAt, state }) => ({
      id,
      name,
      createdAt,
      state,
    }));
    await rawCollection(this.models.RobotListingSnapshot).replaceOne(
      { _id: workspaceId },
      { upTo: known.upTo, robotsJson: JSON.stringify(robots) },
      { upsert: true },
    );
    known.snapshotUpTo = known.upTo;
  }
}
