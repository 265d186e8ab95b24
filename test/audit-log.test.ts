/**
 * The audit log (src/workspaces/audit.ts) on the real stack: every write of a workspace is in its
 * log with who, what, which resource, when and from where, newest first, never a secret; the log
 * pages to its oldest entry, hides what is past retention and sweeps it.
 */
import { randomUUID } from 'node:crypto';
import { AuditLog } from '../src/workspaces/audit';
import { useWorkspaceA } from './support/workspaces';

const the = useWorkspaceA();

describe('a workspace', () => {
  it('records every write with who, what, which resource, when and from where, newest first, never a secret', async () => {
    const editor = await the.a.keyOf('editor', 'Ada');
    await editor.client.call('pause', { params: { id: the.robot.robotId } });
    await editor.client.call('resume', { params: { id: the.robot.robotId } });
    const rotated = await the.stack.api(
      'POST',
      `/api/robots/${the.robot.robotId}/trigger/rotate`,
      {},
      {
        'x-workspace-id': the.a.id,
      },
    );
    expect(rotated.status).toBe(200);
    const page = await the.a.owner.call('auditLog', { query: { limit: 10 } });
    // The writes; reads of the live URL (`robot.read-url`, docs/workspaces.md) are recorded between them.
    const entries = page.entries.filter((e) => e.action !== 'robot.read-url').slice(0, 4);
    const ada = { kind: 'key', keyId: editor.id, name: 'Ada' };
    const admin = { kind: 'admin', keyId: null, name: null };
    const robot = `robot:${the.robot.robotId}`;
    expect(entries.map(({ actor, action, resource }) => ({ actor, action, resource }))).toEqual([
      { actor: admin, action: 'robot.rotate-token', resource: robot },
      { actor: ada, action: 'robot.resume', resource: robot },
      { actor: ada, action: 'robot.pause', resource: robot },
      { actor: admin, action: 'key.create', resource: `key:${editor.id}` },
    ]);
    expect(entries[0].address).toMatch(/127\.0\.0\.1/);
    expect(Date.parse(entries[0].at)).toBeGreaterThan(Date.now() - 60_000);
    const all = JSON.stringify(await the.a.owner.call('auditLog', { query: { limit: 200 } }));
    expect(all).not.toContain(the.a.ownerKey.slice(-43));
    expect(all).not.toContain(the.robot.webhookUrl.split('/').pop());
  });
});

describe('the audit log', () => {
  it('pages newest first to the oldest, hides what is past retention and sweeps it', async () => {
    const workspace = randomUUID();
    const log = new AuditLog(the.stack.models, 3_600_000);
    const caller = {
      actor: { kind: 'admin' as const },
      workspaceId: workspace,
      role: 'operator' as const,
      address: '::1',
    };
    for (let i = 1; i <= 120; i++) await log.record(caller, 'robot.pause', `robot:${i}`);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await log.page(workspace, 50, cursor);
      seen.push(...page.entries.map((e) => e.resource));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => `robot:${120 - i}`));

    // The first 30 entries turn two hours old: not shown, and swept by the next sweep.
    await the.stack.models.AuditEntry.updateMany(
      { _id: { $in: Array.from({ length: 30 }, (_, i) => `${workspace}:${i + 1}`) } },
      { $set: { at: new Date(Date.now() - 7_200_000) } },
    );
    const shown = [];
    for (let page = await log.page(workspace, 200); ;) {
      shown.push(...page.entries);
      if (!page.nextCursor) break;
      page = await log.page(workspace, 200, page.nextCursor);
    }
    expect(shown).toHaveLength(90);
    expect(await log.sweep(workspace)).toBe(30);
    expect(await the.stack.models.AuditEntry.countDocuments({ _id: `${workspace}:1` })).toBe(0);
    expect((await log.page(workspace, 200)).entries).toHaveLength(90);
    await log.record(caller, 'robot.stop', 'robot:121');
    expect((await log.page(workspace, 1)).entries.map((e) => e.resource)).toEqual(['robot:121']);
  });
});
