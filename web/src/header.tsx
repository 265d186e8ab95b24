/**
 * The dashboard's header: its pages (Robots, Apps, Issues with the open ones counted, Audit log, the
 * workspace's Settings, and Keys for an owner or the admin), who is signed in, as what, in which
 * workspace; for the admin (the operator) a switcher of the workspace the admin token acts in, and a
 * form to make a new one; and Sign out.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, type Caller, type Workspace } from './api';
import { link } from './nav';
import { canManageKeys, isOperator } from './rights';
import { useOpenIssues } from './open-issues';
import { FieldError, useRefusal } from './pages/components';

const ROLE_NAMES: Record<Caller['role'], string> = {
  viewer: 'viewer',
  editor: 'editor',
  owner: 'owner',
  operator: 'admin',
};

export function Header(props: { caller: Caller; onSwitch: (workspaceId: string) => void; onSignOut: () => void }) {
  const { caller } = props;
  const openIssues = useOpenIssues(caller.workspace.id);
  return (
    <header>
      <nav aria-label="Pages">
        <a href="/" onClick={link('/')}>
          Robots
        </a>
        <a href="/apps" onClick={link('/apps')}>
          Apps
        </a>
        <a href="/issues" onClick={link('/issues')}>
          Issues{openIssues === null ? '' : ` (${openIssues})`}
        </a>
        <a href="/audit" onClick={link('/audit')}>
          Audit log
        </a>
        <a href="/settings" onClick={link('/settings')}>
          Settings
        </a>
        {canManageKeys() && (
          <a href="/keys" onClick={link('/keys')}>
            Keys
          </a>
        )}
      </nav>
      <p class="who" aria-label="Signed in">
        {caller.actor} ({ROLE_NAMES[caller.role]}) in <strong>{caller.workspace.name}</strong>
      </p>
      {isOperator() && <WorkspaceSwitcher current={caller.workspace.id} onSwitch={props.onSwitch} />}
      <button type="button" onClick={props.onSignOut}>
        Sign out
      </button>
    </header>
  );
}

/** The admin's choice of workspace, and a new workspace (chosen once made). */
function WorkspaceSwitcher({ current, onSwitch }: { current: string; onSwitch: (id: string) => void }) {
  const [workspaces, setWorkspaces] = useState<Workspace[] | null>(null);
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const { refusal, attempt } = useRefusal();
  useEffect(() => void call('listWorkspaces').then((w) => setWorkspaces(w.workspaces)), [current]);
  const create = (e: Event) => {
    e.preventDefault();
    void attempt(async () => {
      const made = await call('createWorkspace', { body: { name } });
      setName('');
      setCreating(false);
      onSwitch(made.id);
    });
  };
  return (
    <div class="workspaces">
      <label for="workspace">Workspace</label>
      <select id="workspace" value={current} onChange={(e) => onSwitch(e.currentTarget.value)} disabled={!workspaces}>
        {(workspaces ?? []).map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
      {!creating ? (
        <button type="button" onClick={() => setCreating(true)}>
          New workspace
        </button>
      ) : (
        <form onSubmit={create} aria-label="New workspace" class="inline">
          <label>
            Workspace name <input value={name} onInput={(e) => setName(e.currentTarget.value)} required />
          </label>
          <button type="submit">Create workspace</button>
          <button type="button" onClick={() => setCreating(false)}>
            Cancel
          </button>
          <FieldError refusal={refusal} field="name" />
          <FieldError refusal={refusal} />
        </form>
      )}
    </div>
  );
}
