/**
 * The robots page's directory: each workspace's robots by name and age, for `GET /api/robots`'s pages
 * and its search by name. A process keeps every robot's id, workspace, name and creation time in
 * memory (about 150 bytes a robot), read in one pass over the robots and read again only when a
 * robot was made or renamed, by any process: each does so through `changed`, which moves a shared
 * stamp (`trigger_changes/robots`) that a page reads by `_id` first. So a page costs one read
 * and a sort of the workspace's robots between changes, and one pass over the robots after one
 * (measured at 10,000 robots, docs/workspaces.md). Robots are never deleted.
 */
import { randomUUID } from 'node:crypto';
import { byId } from '../storage/by-id';
import type { Models } from '../storage/models';
import { rawCollection } from '../storage/writes';

/** The `_id` of the stamp that a robot was made or renamed. */
const STAMP_ID = 'robots';

interface Listed {
  id: string;
  name: string;
  /** The name in lower case, for the search. */
  folded: string;
  createdAt: number;
}

/** A page of ids, newest first, and where the next begins (null: none left). */
export interface DirectoryPage {
  ids: string[];
  nextCursor: string | null;
}

/** A cursor this service did not make. */
export class BadRobotsCursor extends Error {}

/** Newest first; robots made in the same millisecond by id. */
const newestFirst = (a: Listed, b: Listed) => b.createdAt - a.createdAt || a.id.localeCompare(b.id);
const cursorOf = (r: Listed) => `${r.createdAt}.${r.id}`;

export class RobotDirectory {
  private byWorkspace = new Map<string, Listed[]>();
  private stamp: string | null | undefined = undefined;
  private reading: Promise<void> | undefined;

  constructor(private readonly models: Models) {}

  /** A page of the workspace's robots whose name holds `search` (any case), newest first. */
  async page(workspaceId: string, limit: number, search?: string, cursor?: string): Promise<DirectoryPage> {
    await this.fresh();
    const folded = search?.trim().toLowerCase();
    let robots = this.byWorkspace.get(workspaceId) ?? [];
    if (folded) robots = robots.filter((r) => r.folded.includes(folded));
    let start = 0;
    if (cursor !== undefined) {
      const m = /^(\d{1,15})\.(.{1,100})$/.exec(cursor);
      if (!m) throw new BadRobotsCursor('not a cursor of this list');
      const after: Listed = { id: m[2], name: '', folded: '', createdAt: Number(m[1]) };
      start = robots.findIndex((r) => newestFirst(r, after) > 0);
      if (start < 0) start = robots.length;
    }
    const shown = robots.slice(start, start + limit);
    const more = start + limit < robots.length;
    return { ids: shown.map((r) => r.id), nextCursor: more ? cursorOf(shown[shown.length - 1]) : null };
  }

  /** A robot was made or renamed through this process: every process reads the robots again. */
  async changed(): Promise<void> {
    await rawCollection(this.models.TriggerChange).updateOne(
      { _id: STAMP_ID },
      { $set: { stamp: randomUUID() } },
      { upsert: true },
    );
  }

  /** Reads the robots again when the stamp moved since they were read (or they never were). */
  private async fresh(): Promise<void> {
    const stamp = (await byId<{ _id: string; stamp: string }>(this.models.TriggerChange, STAMP_ID))?.stamp ?? null;
    if (stamp === this.stamp) return;
    this.reading ??= this.read(stamp).finally(() => (this.reading = undefined));
    await this.reading;
  }

  private async read(stamp: string | null): Promise<void> {
    const robots = await rawCollection(this.models.Robot)
      .find({}, { projection: { _id: 1, workspaceId: 1, name: 1, createdAt: 1 } })
      .toArray();
    const byWorkspace = new Map<string, Listed[]>();
    for (const r of robots) {
      const listed = { id: r._id, name: r.name, folded: r.name.toLowerCase(), createdAt: r.createdAt.getTime() };
      const list = byWorkspace.get(r.workspaceId);
      if (list) list.push(listed);
      else byWorkspace.set(r.workspaceId, [listed]);
    }
    for (const list of byWorkspace.values()) list.sort(newestFirst);
    this.byWorkspace = byWorkspace;
    this.stamp = stamp;
  }
}
