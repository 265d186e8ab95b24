/**
 * The dashboard: sign-in, robots (`/`), a robot with its trigger step's card, run history and
 * deliveries log (`/robots/:id`), and a run (`/runs/:id`). Pages are chosen by the path; links
 * move through the browser's history without reloading.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { session, whenSignedOut } from './api';
import { link } from './nav';
import { RobotsPage } from './pages/robots';
import { RobotPage } from './pages/robot';
import { RunPage } from './pages/run';
import { SignIn } from './pages/sign-in';
import './style.css';

function App() {
  const [path, setPath] = useState(location.pathname);
  const [signedIn, setSignedIn] = useState(session.token() !== null);
  useEffect(() => {
    const moved = () => setPath(location.pathname);
    addEventListener('popstate', moved);
    whenSignedOut(() => setSignedIn(false));
    return () => removeEventListener('popstate', moved);
  }, []);

  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  const robot = /^\/robots\/([^/]+)$/.exec(path);
  const run = /^\/runs\/([^/]+)$/.exec(path);
  return (
    <>
      <header>
        <a href="/" onClick={link('/')}>
          Robots
        </a>
        <button
          type="button"
          onClick={() => {
            session.signOut();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        {robot ? (
          <RobotPage key={robot[1]} id={decodeURIComponent(robot[1])} />
        ) : run ? (
          <RunPage key={run[1]} id={decodeURIComponent(run[1])} />
        ) : (
          <RobotsPage />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
