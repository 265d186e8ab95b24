/**
 * The migration to workspaces (0.10, issue 45): every app, connection and robot stored before it
 * goes to the `default` workspace, which is made. It runs when a process connects (./connect.ts),
 * before anything is served; it is idempotent (it sets only what has no workspace, and two
 * processes starting at once do the same), and once done it is marked (`migrations/workspaces`),
 * so later starts cost one read by `_id`. The scan it makes once is the only one.
 */
import type { mongo } from 'mongoose';
import { DEFAULT_WORKSPACE, DEFAULT_WORKSPACE_NAME } from '../domain/workspaces';
import { byId } from './by-id';
import type { MigrationDoc } from './documents';
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
  await claimById(models.Migration, { _id: MIGRATION, at: new Date() });
}
