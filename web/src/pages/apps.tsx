/**
 * Apps (`/apps`): the workspace's apps with the robots that use them (name, body format, sender),
 * and its payment connections (Stripe) with theirs; an app opens to be edited (./app-edit.tsx),
 * then offers to replay what its robots refused, a connection too (./connection-edit.tsx); the
 * new-app form (./app-form.tsx), where Stripe is a sender too. A viewer sees the lists only,
 * nothing to open (../rights.ts).
 */
import { useEffect, useState } from 'preact/hooks';
import { call, type App, type Connection, type Robot } from '../api';
import { canWrite } from '../rights';
import { SENDERS } from '../../../src/domain/senders/catalog';
import { EditApp } from './app-edit';
import { EditConnection } from './connection-edit';
import { BODY_FORMATS, NewApp } from './app-form';
import { RobotLinks, useTitle } from './components';

/** Robots read to tell which use which app: the newest, up to this many. */
const ROBOTS_READ = 1000;
const ROBOTS_PAGE = 200;

interface Listed {
  apps: App[];
  connections: Connection[];
  robots: Robot[];
  /** More robots than were read. */
  more: boolean;
}

/** The newest robots, a page of ROBOTS_PAGE at a time, up to ROBOTS_READ. */
async function newestRobots(): Promise<{ robots: Robot[]; more: boolean }> {
  const robots: Robot[] = [];
  let cursor: string | undefined;
  while (robots.length < ROBOTS_READ) {
    const page = await call('listRobots', { query: { limit: ROBOTS_PAGE, cursor } });
    robots.push(...page.robots);
    if (!page.nextCursor) return { robots, more: false };
    cursor = page.nextCursor;
  }
  return { robots, more: true };
}

const formatName = (f: App['bodyFormat']) => BODY_FORMATS.find(([k]) => k === f)?.[1] ?? f;

export function AppsPage() {
  useTitle('Apps');
  const [listed, setListed] = useState<Listed | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const load = async () => {
    const [apps, connections, robots] = await Promise.all([call('listApps'), call('listConnections'), newestRobots()]);
    setListed({ apps: apps.apps, connections: connections.connections, ...robots });
  };
  useEffect(() => void load(), []);
  if (!listed) return <p>Loading…</p>;
  const robotsOf = (app: App) => listed.robots.filter((r) => r.trigger.kind === 'custom' && r.trigger.appId === app.id);
  const robotsOn = (c: Connection) =>
    listed.robots.filter((r) => r.trigger.kind === 'stripe' && r.trigger.connectionId === c.id);
  const opened = listed.apps.find((a) => a.id === open) ?? null;
  const openedConnection = listed.connections.find((c) => c.id === open) ?? null;
  return (
    <>
      <div class="title">
        <h1>Apps</h1>
      </div>
      <p class="muted">
        An app is who sends a robot's deliveries and how they are checked: its sender, its settings and its body format.
      </p>
      <table aria-label="Apps">
        <thead>
          <tr>
            <th>Name</th>
            <th>Body format</th>
            <th>Sender</th>
            <th>Robots</th>
          </tr>
        </thead>
        <tbody>
          {listed.apps.map((a) => (
            <tr key={a.id}>
              <td>
                {canWrite() ? (
                  <button type="button" class="link" aria-expanded={open === a.id} onClick={() => setOpen(a.id)}>
                    {a.name}
                  </button>
                ) : (
                  a.name
                )}
              </td>
              <td>{formatName(a.bodyFormat)}</td>
              <td>{a.verification ? SENDERS[a.verification.scheme].label : 'None (unsigned)'}</td>
              <td>
                <RobotLinks robots={robotsOf(a)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {listed.apps.length === 0 && <p>No app yet.</p>}
      {listed.more && <p class="muted">Robots are shown from the newest {ROBOTS_READ}.</p>}
      {opened && (
        <EditApp
          key={opened.id}
          app={opened}
          robots={robotsOf(opened)}
          onSaved={(now) => setListed({ ...listed, apps: listed.apps.map((a) => (a.id === now.id ? now : a)) })}
          onClose={() => setOpen(null)}
        />
      )}
      <h2>Payment connections</h2>
      <table aria-label="Payment connections">
        <thead>
          <tr>
            <th>Name</th>
            <th>Signing secret</th>
            <th>Event types</th>
            <th>Robots</th>
          </tr>
        </thead>
        <tbody>
          {listed.connections.map((c) => (
            <tr key={c.id}>
              <td>
                {canWrite() ? (
                  <button type="button" class="link" aria-expanded={open === c.id} onClick={() => setOpen(c.id)}>
                    Stripe: {c.name}
                  </button>
                ) : (
                  `Stripe: ${c.name}`
                )}
              </td>
              <td>{c.hasSigningSecret ? 'set (never shown)' : 'none: events taken unsigned'}</td>
              <td>{c.events.length ? c.events.join(', ') : 'every event'}</td>
              <td>
                <RobotLinks robots={robotsOn(c)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {listed.connections.length === 0 && <p>No payment connection yet: choose Stripe as the sender of a new app.</p>}
      {openedConnection && (
        <EditConnection
          key={openedConnection.id}
          connection={openedConnection}
          onSaved={(now) =>
            setListed({ ...listed, connections: listed.connections.map((c) => (c.id === now.id ? now : c)) })
          }
          onClose={() => setOpen(null)}
        />
      )}
      {canWrite() && <NewApp onCreated={() => void load()} />}
    </>
  );
}
