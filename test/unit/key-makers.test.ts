/**
 * The pure rules under keys bound to their makers and the audit log (review R4, R7): the expiry a
 * key made by a key gets, which keys a revocation takes with it, how entries written before 0.11
 * name their actor, and the one retry helper. The stack's side is test/keys-and-audit.test.ts.
 */
import { retried } from '../../src/core/retry';
import { storedActor } from '../../src/workspaces/audit';
import { cappedExpiry, madeBy } from '../../src/workspaces/keys';
import type { ApiKeyDoc } from '../../src/storage/workspace-documents';

const at = (iso: string) => new Date(iso);

it("caps a key's expiry to its maker's, and keeps an earlier one or the admin's choice", () => {
  const maker = at('2026-12-01T00:00:00Z');
  expect(cappedExpiry(null, maker)).toEqual(maker);
  expect(cappedExpiry(at('2027-01-01T00:00:00Z'), maker)).toEqual(maker);
  expect(cappedExpiry(at('2026-11-30T00:00:00Z'), maker)).toEqual(at('2026-11-30T00:00:00Z'));
  expect(cappedExpiry(null, null)).toBeNull();
  expect(cappedExpiry(at('2027-01-01T00:00:00Z'), null)).toEqual(at('2027-01-01T00:00:00Z'));
});

it('finds every key a key made, and what they made, in any order, and nothing else', () => {
  const key = (id: string, by: string | null, legacy = false): ApiKeyDoc => ({
    _id: id,
    workspaceId: 'w',
    name: id,
    role: 'owner',
    secretHash: '',
    createdAt: new Date(0),
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    ...(legacy ? {} : { createdBy: by ? { kind: 'key', keyId: by } : { kind: 'admin', keyId: null } }),
  });
  // Listed grandchild first: the walk goes on until nothing more is found.
  const keys = [key('g', 'c'), key('c', 'm'), key('m', null), key('s', null), key('c2', 'm'), key('old', null, true)];
  expect(
    madeBy(keys, 'm')
      .map((k) => k._id)
      .sort(),
  ).toEqual(['c', 'c2', 'g']);
  expect(madeBy(keys, 'g')).toEqual([]);
  expect(madeBy(keys, 's')).toEqual([]);
});

it('reads an actor written as text before 0.11: "admin" is the admin, "<name> (key <id>)" a key', () => {
  const id = '6f1c2d3e-0000-4000-8000-000000000001';
  expect(storedActor('admin')).toEqual({ kind: 'admin', keyId: null, name: null });
  expect(storedActor(`admin (key ${id})`)).toEqual({ kind: 'key', keyId: id, name: 'admin' });
  expect(storedActor(`Ada (key x) (key ${id})`)).toEqual({ kind: 'key', keyId: id, name: 'Ada (key x)' });
  const fields = { kind: 'sender' as const, keyId: null, name: null };
  expect(storedActor(fields)).toBe(fields);
});

it('tries again until the work succeeds, at most the attempts planned, and throws the last failure', async () => {
  let tries = 0;
  const flaky = () => (++tries < 3 ? Promise.reject(new Error(`try ${tries}`)) : Promise.resolve('done'));
  await expect(retried(flaky, { attempts: 3, firstDelayMs: 1 })).resolves.toBe('done');
  expect(tries).toBe(3);
  tries = 0;
  await expect(retried(flaky, { attempts: 2, firstDelayMs: 1 })).rejects.toThrow('try 2');
  expect(tries).toBe(2);
});
