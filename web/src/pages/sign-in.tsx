/**
 * Sign-in: a workspace's key (`whk_…`) or the admin token, pasted by a person, checked against the
 * API (`GET /api/me`, who it is), and kept with that answer for the browser session.
 */
import { useState } from 'preact/hooks';
import { call, ApiError, session, type Caller } from '../api';

export function SignIn({ onSignedIn }: { onSignedIn: (caller: Caller) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    session.signIn(token.trim());
    try {
      const caller = await call('caller');
      session.remember(caller);
      onSignedIn(caller);
    } catch (err) {
      session.signOut();
      setError(
        err instanceof ApiError && err.status === 401
          ? 'That key or admin token is not right (or it was revoked, or it expired).'
          : String(err),
      );
    }
  };
  return (
    <main>
      <section>
        <h1>Webhook triggers</h1>
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
    </main>
  );
}
