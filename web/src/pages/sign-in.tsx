/** Sign-in: the admin token, pasted by a person, checked against the API, kept for the session. */
import { useState } from 'preact/hooks';
import { call, ApiError, session } from '../api';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    session.signIn(token.trim());
    try {
      await call('listRobots');
      onSignedIn();
    } catch (err) {
      session.signOut();
      setError(err instanceof ApiError && err.status === 401 ? 'That admin token is not right.' : String(err));
    }
  };
  return (
    <main>
      <section>
        <h1>Webhook triggers</h1>
        <form onSubmit={(e) => void submit(e)}>
          <label>
            Admin token
            <input type="password" value={token} onInput={(e) => setToken(e.currentTarget.value)} required />
          </label>
          <button type="submit">Sign in</button>
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
        </form>
        <p>The token is printed by `npm start` and kept in the data folder (`admin-token`).</p>
      </section>
    </main>
  );
}
