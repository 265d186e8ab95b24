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
 */
import { CHAIN_READS_AT_ONCE, DIRECTORIES_KEPT, DIRECTORY_SNAPSHOT_EVERY, ROBOTS_KEPT } from '../domain/limits';
import { BadCursor } from '../domain/cursors';
import { byId } from '../storage/by-id';
import { Chains } from '../storage/chains';
import type { RobotDoc } from '../storage/documents';
import type { RobotListingDoc, RobotListingSnapshotDoc, SnapshotRobot } from '../storage/workspace-documents';
import type { Models } from '../storage/models';
import { rawCollection } from '../storage/writes';

interface Listed {
  id: string;
  name: string;
  /** The name in lower case, for the search. */
  folded: string;
  createdAt: number;
}

/** A workspace's directory as this process knows it. */
interface Known {
  upTo: number;
  snapshotUpTo: number;
  robots: Map<string, Listed>;
  /** Newest first; remade when an entry is applied. */
  sorted: Listed[] | null;
}

/** A page of ids, newest first, and where the next begins (null: none left). */
export interface DirectoryPage {
  ids: string[];
  nextCursor: string | null;
}

/** Newest first; robots made in the same millisecond by id. */
const newestFirst = (a: Listed, b: Listed) => b.createdAt - a.createdAt || a.id.localeCompare(b.id);
const cursorOf = (r: Listed) => `${r.createdAt}.${r.id}`;
const listed = (id: string, name: string, createdAt: Date): Listed => ({
  id,
  name,
  folded: name.toLowerCase(),
  createdAt: createdAt.getTime(),
});

export class RobotDirectory {
  private readonly chains: Chains<RobotListingDoc>;
  private readonly known = new Map<string, Known>();
  private readonly reading = new Map<string, Promise<Known>>();

  constructor(private readonly models: Models) {
    this.chains = new Chains(models.RobotListing, ROBOTS_KEPT);
  }

  /** A page of the workspace's robots whose name holds `search` (any case), newest first. */
  async page(workspaceId: string, limit: number, search?: string, cursor?: string): Promise<DirectoryPage> {
    const known = await this.current(workspaceId);
    known.sorted ??= [...known.robots.values()].sort(newestFirst);
    const folded = search?.trim().toLowerCase();
    const robots = folded ? known.sorted.filter((r) => r.folded.includes(folded)) : known.sorted;
    let start = 0;
    if (cursor !== undefined) {
      const m = /^(\d{1,15})\.(.{1,100})$/.exec(cursor);
      if (!m) throw new BadCursor();
      const after = listed(m[2], '', new Date(Number(m[1])));
      start = robots.findIndex((r) => newestFirst(r, after) > 0);
      if (start < 0) start = robots.length;
    }
    const shown = robots.slice(start, start + limit);
    const more = start + limit < robots.length;
    return { ids: shown.map((r) => r.id), nextCursor: more ? cursorOf(shown[shown.length - 1]) : null };
  }

  /** Lists a robot as it is now (made, or renamed): every process sees it from its next page on. */
  async list(robot: Pick<RobotDoc, '_id' | 'workspaceId' | 'name' | 'createdAt'>): Promise<void> {
    const entry = { robotId: robot._id, name: robot.name, createdAt: robot.createdAt };
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
      for (const e of entries) if (e) known.robots.set(e.robotId, listed(e.robotId, e.name, e.createdAt));
      known.sorted = null;
    }
    known.upTo = Math.max(known.upTo, last);
    this.known.delete(workspaceId);
    if (this.known.size >= DIRECTORIES_KEPT) this.known.delete(this.known.keys().next().value!);
    this.known.set(workspaceId, known);
    if (known.upTo - known.snapshotUpTo >= DIRECTORY_SNAPSHOT_EVERY) await this.snapshot(workspaceId, known);
    return known;
  }

  private async fromSnapshot(workspaceId: string): Promise<Known> {
    const snapshot = await byId<RobotListingSnapshotDoc>(this.models.RobotListingSnapshot, workspaceId);
    const kept = snapshot ? (JSON.parse(snapshot.robotsJson) as SnapshotRobot[]) : [];
    const robots = new Map(kept.map((r) => [r.id, listed(r.id, r.name, new Date(r.createdAt))]));
    const upTo = snapshot?.upTo ?? 0;
    return { upTo, snapshotUpTo: upTo, robots, sorted: null };
  }

  /**
   * Writes the workspace's snapshot as this process knows it. Two processes writing at once each
   * write a true snapshot (of the entries up to its `upTo`): the one kept is read with its tail.
   */
  private async snapshot(workspaceId: string, known: Known): Promise<void> {
    const robots: SnapshotRobot[] = [...known.robots.values()].map(({ id, name, createdAt }) => ({
      id,
      name,
      createdAt,
    }));
    await rawCollection(this.models.RobotListingSnapshot).replaceOne(
      { _id: workspaceId },
      { upTo: known.upTo, robotsJson: JSON.stringify(robots) },
      { upsert: true },
    );
    known.snapshotUpTo = known.upTo;
  }
}
