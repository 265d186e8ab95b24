/**
 * The migration to workspaces (src/storage/workspace-migration.ts) on the real database: a store
 * written before workspaces moves to `default` at start, once, and is read as before. It needs no
 * stack: the database of its own, on the server of global-setup.ts, is all it opens.
 */
import { connectDatabase } from '../src/storage/connect';
import { RobotDirectory } from '../src/workspaces/robot-directory';
import { withDatabase } from './support/stack';

describe('the migration to workspaces', () => {
  it('moves a store written before workspaces to `default`, once, and the service reads it as before', async () => {
    const uri = withDatabase(process.env.MONGODB_URI!, `before-workspaces-${Date.now()}`);
    const { db, models } = await connectDatabase(uri);
    try {
      // What 0.9 stored: apps, connections and robots without a workspace, no workspace, no mark.
      await models.Migration.deleteMany({});
      await models.Workspace.deleteMany({});
      const at = new Date('2026-11-01T00:00:00Z');
      await models.App.collection.insertOne({
        _id: 'app-09',
        name: 'Old app',
        supportsInboundTrigger: true,
        bodyFormat: 'json',
        verificationSealed: null,
        sender: null,
        dedup: null,
        createdAt: at,
      } as never);
      await models.Connection.collection.insertOne({
        _id: 'conn-09',
        provider: 'stripe',
        name: 'Old connection',
        signingSecretSealed: null,
        createdAt: at,
      } as never);
      await models.Robot.collection.insertOne({
        _id: 'robot-09',
        name: 'Old robot',
        state: 'draft',
        trigger: { kind: 'custom', appId: 'app-09', connectionId: null, identifier: null, tokenHash: null },
        steps: [{ name: 's', type: 'compose', templateJson: '{}' }],
        stepsVersion: 0,
        rulesJson: null,
        heldSince: null,
        createdAt: at,
      } as never);
    } finally {
      await db.close();
    }
    for (let start = 0; start < 2; start++) {
      const again = await connectDatabase(uri);
      try {
        for (const model of [again.models.App, again.models.Connection, again.models.Robot]) {
          const docs = await (model as typeof again.models.App).find().lean();
          expect(docs.map((d) => d.workspaceId)).toEqual(['default']);
        }
        expect(await again.models.Workspace.find().lean()).toEqual([
          expect.objectContaining({ _id: 'default', name: 'Default' }),
        ]);
        expect(await again.models.Migration.countDocuments()).toBe(1);
        // Listed in `default`'s directory, once: the robots page shows it.
        expect(await again.models.RobotListing.find().lean()).toEqual([
          expect.objectContaining({ _id: 'default:1', robotId: 'robot-09', name: 'Old robot' }),
        ]);
        expect((await new RobotDirectory(again.models).page('default', { limit: 50 })).ids).toEqual(['robot-09']);
      } finally {
        await again.db.close();
      }
    }
  });
});
