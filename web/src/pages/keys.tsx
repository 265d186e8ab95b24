/**
 * Keys (`/keys`, for an owner of the workspace or the admin): the workspace's keys (name, role,
 * when made, when they expire, when last used, whether revoked; never their values), a new key,
 * whose value is shown once, as it is made, and revoking a key (asked twice): it is refused from
 * then on. The signed-in key is marked "your key", an expired one "expired"; a key whose revocation
 * the API would refuse (the workspace's last owner key, or one that made it) says so and has no Revoke.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, session, type Key, type Workspace } from '../api';
import { ROLES, type Role } from '../../../src/domain/workspaces';
import { canManageKeys } from '../rights';
import { Badge, FieldError, formatTime, TextField, useRefusal, useTitle } from './components';
import { ConfirmGroup, ShownOnce } from './shown-once';

export function KeysPage({ workspace }: { workspace: Workspace }) {
  useTitle('Keys');
  const [keys, setKeys] = useState<Key[] | null>(null);
  const load = async () => setKeys((await call('listKeys', { params: { id: workspace.id } })).keys);
  useEffect(() => {
    if (canManageKeys()) void load();
  }, [workspace.id]);
  if (!canManageKeys()) return <p>Only an owner of the workspace, or the admin, manages its keys.</p>;
  return (
    <>
      <section>
        <h1>Keys of {workspace.name}</h1>
        {!keys ? <p>Loading…</p> : <KeysTable keys={keys} onRevoked={() => void load()} />}
      </section>
      <NewKey workspaceId={workspace.id} onCreated={() => void load()} />
    </>
  );
}

function KeysTable({ keys, onRevoked }: { keys: Key[]; onRevoked: () => void }) {
  const [asking, setAsking] = useState<string | null>(null);
  /** The signed-in key (none for the admin token), marked "your key". */
  const mine = session.caller()?.keyId ?? null;
  const { refusal, attempt } = useRefusal();
  const revoke = (k: Key) =>
    void attempt(async () => {
      await call('revokeKey', { params: { id: k.id } });
      setAsking(null);
      onRevoked();
    });
  if (keys.length === 0) return <p>No key yet.</p>;
  return (
    <>
      <FieldError refusal={refusal} />
      <div class="table-scroll">
        <table aria-label="Keys">
          <thead>
            <tr>
              <th>Name</th>
              <th>Role</th>
              <th>Created</th>
              <th>Expires</th>
              <th>Last used</th>
              <th>Revoked</th>
              <th aria-label="Revoke" />
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td>
                  {k.name}
                  {k.id === mine && (
                    <>
                      {' '}
                      <Badge status="done" label="your key" />
                    </>
                  )}
                </td>
                <td>{k.role}</td>
                <td>{formatTime(k.createdAt)}</td>
                <td>
                  {!k.expiresAt ? (
                    'never'
                  ) : Date.parse(k.expiresAt) <= Date.now() ? (
                    <>
                      <Badge status="failed" label="expired" /> {formatTime(k.expiresAt)}
                    </>
                  ) : (
                    formatTime(k.expiresAt)
                  )}
                </td>
                <td>{k.lastUsedAt ? formatTime(k.lastUsedAt) : 'never'}</td>
                <td>{k.revokedAt ? formatTime(k.revokedAt) : 'no'}</td>
                <td>
                  {k.revokedAt ? null : k.revokeRefused ? (
                    <span class="muted">Cannot be revoked: {k.revokeRefused}.</span>
                  ) : asking !== k.id ? (
                    <button type="button" aria-label={`Revoke key ${k.name}`} onClick={() => setAsking(k.id)}>
                      Revoke
                    </button>
                  ) : (
                    <ConfirmGroup
                      question={`Revoke key ${k.name}?`}
                      warning="Refused from now on, by everything that uses it."
                      yes="Yes, revoke"
                      onYes={() => revoke(k)}
                      onCancel={() => setAsking(null)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** The end of the day chosen, in the browser's time zone, as the API's time. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59.999`).toISOString();

function NewKey({ workspaceId, onCreated }: { workspaceId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [expires, setExpires] = useState('');
  const [made, setMade] = useState<{ name: string; key: string } | null>(null);
  const { refusal, attempt } = useRefusal();
  const submit = (e: Event) => {
    e.preventDefault();
    void attempt(async () => {
      const body = { name, role, ...(expires ? { expiresAt: endOfDay(expires) } : {}) };
      const created = await call('createKey', { params: { id: workspaceId }, body });
      setMade({ name: created.name, key: created.key });
      setName('');
      setExpires('');
      onCreated();
    });
  };
  return (
    <section>
      <h2>New key</h2>
      {made && (
        <ShownOnce
          key={made.key}
          region="Key made"
          valueLabel="Key value"
          value={made.key}
          copy="Copy key"
          onDone={() => setMade(null)}
        >
          The key {made.name}:
        </ShownOnce>
      )}
      <form onSubmit={submit} aria-label="New key">
        <TextField label="Key name" value={name} onInput={setName} refusal={refusal} field="name" />
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_HINTS[r]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Expires on (optional: at the end of that day)
          <input type="date" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />
        </label>
        <button type="submit">Create key</button>
        <FieldError refusal={refusal} />
      </form>
    </section>
  );
}

const ROLE_HINTS: Record<Role, string> = {
  viewer: 'viewer (reads only)',
  editor: 'editor (everything but keys)',
  owner: 'owner (keys too)',
};
