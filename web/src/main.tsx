/**
 * The dashboard: sign-in (a key or the admin token), robots (`/`), a robot with its trigger step's
 * card, run history and deliveries log (`/robots/:id`), a run (`/runs/:id`), the workspace's audit
 * log (`/audit`), keys (`/keys`), apps (`/apps`), issues (`/issues`) and settings (`/settings`: its
 * notification channels). Pages are chosen by the path; links move
 * through the browser's history without reloading. Everything shown is of one workspace: the key's,
 * or the one the admin chose in the header, whose change shows its robots afresh.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, session, whenSignedOut, type Caller } from './api';
import { Header } from './header';
import { navigate } from './nav';
import { AppsPage } from './pages/apps';
import { AuditPage } from './pages/audit';
import { IssuesPage } from './pages/issues';
import { KeysPage } from './pages/keys';
import { RobotsPage } from './pages/robots';
import { RobotPage } from './pages/robot';
import { RunPage } from './pages/run';
import { SettingsPage } from './pages/settings';
import { DeliveryPage } from './pages/delivery';
import { SignIn } from './pages/sign-in';
import './style.css';
import './widgets.css';

function App() {
  const [path, setPath] = useState(location.pathname);
  const [signedIn, setSignedIn] = useState(session.token() !== null);
  const [caller, setCaller] = useState<Caller | null>(session.caller());
  useEffect(() => {
    const moved = () => setPath(location.pathname);
    addEventListener('popstate', moved);
    whenSignedOut(() => setSignedIn(false));
    return () => removeEventListener('popstate', moved);
  }, []);
  /** A session given its credential only (another tab's, say) asks who it is first. */
  useEffect(() => {
    if (signedIn && !caller) void whoAmI().then(setCaller);
  }, [signedIn, caller]);

  if (!signedIn && !caller)
    return (
      <SignIn
        onSignedIn={(c) => {
          setCaller(c);
          setSignedIn(true);
        }}
      />
    );
  if (!caller) return <p>Loading…</p>;
  const switchTo = async (workspaceId: string) => {
    session.chooseWorkspace(workspaceId);
    const now = await whoAmI();
    navigate('/');
    setCaller(now);
  };
  const signOut = () => {
    session.signOut();
    setCaller(null);
    setSignedIn(false);
  };
  return (
    <>
      <Header caller={caller} onSwitch={(id) => void switchTo(id)} onSignOut={signOut} />
      <main key={caller.workspace.id}>
        <Page path={path} caller={caller} />
      </main>
      {/* A credential refused mid-session: sign-in over the page, which keeps what its forms hold. */}
      {!signedIn && (
        <div class="overlay">
          <SignIn
            lapsed
            onSignedIn={(c) => {
              setCaller(c);
              setSignedIn(true);
            }}
          />
        </div>
      )}
    </>
  );
}

/** Who the credential is, kept for the session. */
async function whoAmI(): Promise<Caller> {
  const caller = await call('caller');
  session.remember(caller);
  return caller;
}

function Page({ path, caller }: { path: string; caller: Caller }) {
  const robot = /^\/robots\/([^/]+)$/.exec(path);
  const run = /^\/runs\/([^/]+)$/.exec(path);
  const delivery = /^\/deliveries\/([^/]+)$/.exec(path);
  if (robot) return <RobotPage key={robot[1]} id={decodeURIComponent(robot[1])} />;
  if (run) return <RunPage key={run[1]} id={decodeURIComponent(run[1])} />;
  if (delivery) return <DeliveryPage key={delivery[1]} id={decodeURIComponent(delivery[1])} />;
  if (path === '/apps') return <AppsPage />;
  if (path === '/audit') return <AuditPage />;
  if (path === '/issues') return <IssuesPage />;
  if (path === '/settings') return <SettingsPage workspace={caller.workspace} />;
  if (path === '/keys') return <KeysPage workspace={caller.workspace} />;
  return <RobotsPage />;
}

render(<App />, document.getElementById('app')!);
