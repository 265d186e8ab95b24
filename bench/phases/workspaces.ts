/**
 * Workspaces at scale (issue 45): the robots page's reads (its first page, a search by name, a later
 * page) with 10,000 robots in the workspace and as many in another, and the audit log's first and a
 * deep page with 100,000 entries, each against the same read of a workspace with 60 of each (more
 * than a page: the pages show as many; the baseline, measured in the same run). Robots and entries
 * are stored as the service stores them (raw inserts of the same documents), then read through the
 * API with an owner's key. `robotsCold` is the directory's page in a process that never read the
 * workspace (its snapshot and what came after, src/workspaces/robot-directory.ts, without HTTP);
 * `robotsAfterRename` the first page after a rename.
 */
import { randomUUID } from 'node:crypto';
import { apiClient, type ApiClient } from '../../src/client/api-client';
import type { Models } from '../../src/storage/models';
import type { RobotDoc } from '../../src/storage/documents';
import type { AuditEntryDoc, AuditHeadDoc } from '../../src/storage/workspace-documents';
import { byId } from '../../src/storage/by-id';
import { rawCollection } from '../../src/storage/writes';
import { RobotDirectory } from '../../src/workspaces/robot-directory';
import { percentiles, type Percentiles } from '../load';
import { log, round } from '../util';

export const WORKSPACE_READS = [
  'robotsFirstPage',
  'robotsCold',
  'robotsAfterRename',
  'robotsSearch',
  'robotsLaterPage',
  'auditFirstPage',
  'auditDeepPage',
] as const;
export type WorkspaceRead = (typeof WORKSPACE_READS)[number];

export interface WorkspacesResult {
  robots: number;
  entries: number;
  samples: number;
  seedSeconds: number;
  baselineMs: Record<WorkspaceRead, Percentiles>;
  scaledMs: Record<WorkspaceRead, Percentiles>;
}

/** A workspace with an owner's key, its robots and audit entries stored. */
interface Seeded {
  workspaceId: string;
  /** A robot of it made through the API (renamed by the `robotsAfterRename` read). */
  robotId: string;
  client: ApiClient;
  laterCursor: string;
  deepCursor: string;
}

async function seed(api: ApiClient, models: Models, robots: number, entries: number): Promise<Seeded> {
  const { id } = await api.call('createWorkspace', { body: { name: `bench ${robots}` } });
  const { key } = await api.call('createKey', { params: { id }, body: { name: 'bench', role: 'owner' } });
  const client = apiClient(api.baseUrl, key);
  const app = await client.call('createApp', { body: { name: 'a', supportsInboundTrigger: true, bodyFormat: 'json' } });
  const start = Date.now() - robots * 1000;
  for (let from = 0; from < robots; from += 1000) {
    const docs: RobotDoc[] = [];
    for (let i = from; i < Math.min(robots, from + 1000); i++) {
      docs.push({
        _id: randomUUID(),
        workspaceId: id,
        name: `Robot ${i}`,
        state: 'draft',
        trigger: { kind: 'custom', appId: app.id, connectionId: null, identifier: null },
        steps: [{ name: 's', type: 'compose', templateJson: '{"n":"{{trigger.n}}"}' }],
        stepsVersion: 0,
        rulesJson: null,
        heldSince: null,
        createdAt: new Date(start + i * 1000),
      });
    }
    await rawCollection(models.Robot).insertMany(docs);
    // Each listed in the workspace's directory, as making it through the API does.
    const listings = docs.map((r, k) => ({
      _id: `${id}:${from + k + 1}`,
      robotId: r._id,
      name: r.name,
      createdAt: r.createdAt,
    }));
    await rawCollection(models.RobotListing).insertMany(listings);
  }
  // After the entries its setup wrote (the key, the app).
  const made = (await byId<AuditHeadDoc>(models.AuditHead, id))?.last ?? 0;
  const last = made + entries;
  for (let from = made + 1; from <= last; from += 1000) {
    const docs: AuditEntryDoc[] = [];
    for (let n = from; n < Math.min(last + 1, from + 1000); n++) {
      docs.push({
        _id: `${id}:${n}`,
        at: new Date(),
        actor: 'bench',
        action: 'robot.pause',
        resource: `robot:${n}`,
        address: '127.0.0.1',
      });
    }
    await rawCollection(models.AuditEntry).insertMany(docs);
  }
  await rawCollection(models.AuditHead).updateOne(
    { _id: id },
    { $max: { last }, $setOnInsert: { from: 1 } },
    { upsert: true },
  );
  // A robot made through the API, listed after those; the first page reads the directory whole (and
  // writes its snapshot).
  const robot = await client.call('createRobot', { body: { name: 'made', trigger: { appId: app.id }, steps: [] } });
  const first = await client.call('listRobots', { query: { limit: 5 } });
  return {
    workspaceId: id,
    robotId: robot.id,
    client,
    laterCursor: first.nextCursor ?? '',
    deepCursor: String(Math.max(2, Math.floor(entries / 2))),
  };
}

/** Times `read`, but for what it hands `unmeasured` (a write before the read). */
async function timed(
  samples: number,
  read: (unmeasured: (work: () => Promise<unknown>) => Promise<void>) => Promise<unknown>,
): Promise<Percentiles> {
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    let skipped = 0;
    const unmeasured = async (work: () => Promise<unknown>) => {
      const t = performance.now();
      await work();
      skipped += performance.now() - t;
    };
    const t = performance.now();
    await read(unmeasured);
    ms.push(performance.now() - t - skipped);
  }
  return percentiles(ms);
}

async function reads(s: Seeded, models: Models, samples: number): Promise<Record<WorkspaceRead, Percentiles>> {
  const firstPage = () => s.client.call('listRobots');
  let renames = 0;
  return {
    robotsFirstPage: await timed(samples, firstPage),
    // A process that never read the workspace: its snapshot, then what came after it.
    robotsCold: await timed(Math.min(samples, 20), () => new RobotDirectory(models).page(s.workspaceId, { limit: 50 })),
    robotsAfterRename: await timed(Math.min(samples, 50), async (unmeasured) => {
      await unmeasured(() =>
        s.client.call('editRobot', { params: { id: s.robotId }, body: { name: `renamed ${++renames}` } }),
      );
      await firstPage();
    }),
    robotsSearch: await timed(samples, () => s.client.call('listRobots', { query: { search: 'ROBOT' } })),
    robotsLaterPage: await timed(samples, () => s.client.call('listRobots', { query: { cursor: s.laterCursor } })),
    auditFirstPage: await timed(samples, () => s.client.call('auditLog')),
    auditDeepPage: await timed(samples, () => s.client.call('auditLog', { query: { cursor: s.deepCursor } })),
  };
}

export async function workspacesBench(
  api: ApiClient,
  models: Models,
  { robots, entries, samples }: { robots: number; entries: number; samples: number },
): Promise<WorkspacesResult> {
  log(`workspaces: a baseline of 60 robots and 60 audit entries`);
  const small = await seed(api, models, 60, 60);
  const baselineMs = await reads(small, models, samples);
  log(`workspaces: seeding ${robots} robots (and as many in another workspace) and ${entries} audit entries`);
  const t = Date.now();
  const large = await seed(api, models, robots, entries);
  await seed(api, models, robots, 0);
  const seedSeconds = round((Date.now() - t) / 1000, 1);
  const scaledMs = await reads(large, models, samples);
  return { robots, entries, samples, seedSeconds, baselineMs, scaledMs };
}
