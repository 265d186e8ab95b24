/**
 * The migration to workspaces (0.10, issue 45): every app, connection and robot stored before it
 * goes to the `default` workspace, which is made, and every robot is listed in its workspace's
 * directory. It runs when a process connects (./connect.ts),
 * before anything is served; it is idempotent (it sets only what has no workspace, and two
 * processes starting at once do the same), and once done it is marked (`migrations/workspaces`),
 * so later starts cost one read by `_id`. The scan it makes once is the only one.
 */
import type { mongo } from 'mongoose';
import { DEFAULT_WORKSPACE, DEFAULT_WORKSPACE_NAME } from '../domain/workspaces';
import { byId } from './by-id';
import type { MigrationDoc, SnapshotRobot } from './workspace-documents';
import type { Models } from './models';
import { claimById, rawCollection } from './writes';

const MIGRATION = 'workspaces';

export async function migrateToWorkspaces(models: Models): Promise<void> {
  if (await byId<MigrationDoc>(models.Migration, MIGRATION)) return;
  await rawCollection(models.Workspace).updateOne(
    { _id: DEFAULT_WORKSPACE },
    { $setOnInsert: { name: DEFAULT_WORKSPACE_NAME, createdAt: new Date() } },
    { upsert: true },
  );
  const owned = [rawCollection(models.App), rawCollection(models.Connection), rawCollection(models.Robot)];
  for (const collection of owned as unknown as mongo.Collection<{ _id: string; workspaceId?: string }>[]) {
    await collection.updateMany({ workspaceId: { $exists: false } }, { $set: { workspaceId: DEFAULT_WORKSPACE } });
  }
  await listRobots(models);
  await claimById(models.Migration, { _id: MIGRATION, at: new Date() });
}

/**
 * Every robot in its workspace's directory (src/workspaces/robot-directory.ts), oldest first, and a
 * snapshot of each workspace's. The entries' numbers follow from the robots, so a second run, or
 * one beside another process's, claims the same ones and writes nothing new.
 */
async function listRobots(models: Models): Promise<void> {
  const robots = await rawCollection(models.Robot)
    .find({}, { projection: { _id: 1, workspaceId: 1, name: 1, createdAt: 1, state: 1 } })
    .toArray();
  robots.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a._id.localeCompare(b._id));
  const byWorkspace = new Map<string, typeof robots>();
  for (const r of robots) {
    const list = byWorkspace.get(r.workspaceId);
    if (list) list.push(r);
    else byWorkspace.set(r.workspaceId, [r]);
  }
  for (const [workspaceId, listed] of byWorkspace) {
    for (const [i, r] of listed.entries()) {
      await claimById(models.RobotListing, {
        _id: `${workspaceId}:${i + 1}`,
        robotId: r._id,
        name: r.name,
        createdAt: r.createdAt,
        state: r.state,
      });
    }
    await rawCollection(models.RobotListingSnapshot).updateOne(
      { _id: workspaceId },
      {
        $setOnInsert: {
          upTo: listed.length,
          robotsJson: JSON.stringify(
            listed.map((r): SnapshotRobot => ({
              id: r._id,
              name: r.name,
              createdAt: r.createdAt.getTime(),
              state: r.state,
            })),
          ),
        },
      },
      { upsert: true },
    );
  }
}
