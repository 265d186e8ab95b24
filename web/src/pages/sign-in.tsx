/**
 * Sign-in: a workspace's key (`whk_…`) or the admin token, pasted by a person, checked against the
 * API (`GET /api/me`, who it is), and kept with that answer for the browser session. Shown over
 * the page when the credential is refused mid-session (`lapsed`), saying why: the page and its
 * forms stay underneath, so nothing typed is lost.
 */
import { useState } from 'preact/hooks';
import { call, ApiError, session, type Caller } from '../api';
import { useTitle } from './components';

export function SignIn({ onSignedIn, lapsed = false }: { onSignedIn: (caller: Caller) => void; lapsed?: boolean }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  useTitle('Sign in');
  const submit = async (e: Event) => {
    e.preventDefault();
    if (lapsed) session.resume(token.trim());
    else session.signIn(token.trim());
    try {
      const caller = await call('caller');
      session.remember(caller);
      onSignedIn(caller);
    } catch (err) {
      if (lapsed) session.lapse();
      else session.signOut();
      setError(
        err instanceof ApiError && err.status === 401
          ? 'That key or admin token is not right (or it was revoked, or it expired).'
          : String(err),
      );
    }
  };
  const Outer = lapsed ? 'div' : 'main';
  return (
    <Outer>
      <section aria-label="Sign in">
        <h1>Webhook triggers</h1>
        {lapsed && (
          <p role="alert" class="warning">
            Your key was refused: it was revoked or has expired. Sign in again with a key that works: this page, and
            what you typed in its forms, stay as they were.
          </p>
        )}
        <form onSubmit={(e) => void submit(e)}>
          <label>
            Key or admin token
            <input type="password" value={token} onInput={(e) => setToken(e.currentTarget.value)} required />
          </label>
          <button type="submit">Sign in</button>
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
        </form>
        <p>
          A key (<code>whk_…</code>) is given by an owner of its workspace. The admin token is printed by `npm start`
          and kept in the data folder (`admin-token`).
        </p>
      </section>
    </Outer>
  );
}
