/**
 * Workspaces (src/domain/workspaces.ts): made by the operator, never deleted. Few (one per team or
 * customer of the platform), so the operator's list reads them all; everything else finds one by
 * `_id`, and a process remembers the ids it has seen exist (`default` is made by the migration at
 * connect, src/storage/workspace-migration.ts).
 */
import { DEFAULT_WORKSPACE } from '../domain/workspaces';
import { newId } from '../domain/secrets';
import { byId } from '../storage/by-id';
import type { WorkspaceDoc } from '../storage/workspace-documents';
import type { Models } from '../storage/models';

export class Workspaces {
  /** Ids seen to exist: a workspace is never deleted. */
  private readonly known = new Set<string>([DEFAULT_WORKSPACE]);

  constructor(private readonly models: Models) {}

  async create(name: string): Promise<WorkspaceDoc> {
    const doc = { _id: newId(), name, createdAt: new Date() };
    await this.models.Workspace.create(doc);
    this.known.add(doc._id);
    return doc;
  }

  /** Every workspace, oldest first. */
  async all(): Promise<WorkspaceDoc[]> {
    const all = await this.models.Workspace.find().lean();
    return all.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /** The workspace, or null when there is none of this id. */
  async get(id: string): Promise<WorkspaceDoc | null> {
    const doc = await byId<WorkspaceDoc>(this.models.Workspace, id);
    if (doc) this.known.add(id);
    return doc;
  }

  /** Whether a workspace of this id exists (one read by `_id` the first time). */
  async exists(id: string): Promise<boolean> {
    return this.known.has(id) || (await this.get(id)) !== null;
  }
}
