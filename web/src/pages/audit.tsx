/**
 * The audit log (`/audit`): every management write of the workspace, done or refused, and what
 * senders did on its URLs (who, what, how it ended, on which resource, when, and for owners from
 * which address), newest first, a page at a time. Who is shown by its kind first: the admin token,
 * a key (named in quotes, with its id), or a sender, so a key named "admin" never reads as the admin.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, type AuditEntry } from '../api';
import { canManageKeys } from '../rights';
import { formatTime } from './components';

const PAGE = 50;

/** Who acted, as the log shows it: never the bare name a key was given. */
function Actor({ actor }: { actor: AuditEntry['actor'] }) {
  if (actor.kind === 'admin') return <strong>Admin token</strong>;
  if (actor.kind === 'sender') return <span>Sender (webhook URL)</span>;
  return (
    <span>
      Key “{actor.name}” <code>{actor.keyId}</code>
    </span>
  );
}

export function AuditPage() {
  const [cursors, setCursors] = useState<string[]>([]); // the cursors of the pages before this one
  const [page, setPage] = useState<{ entries: AuditEntry[]; nextCursor: string | null } | null>(null);
  const cursor = cursors.at(-1);
  useEffect(() => {
    let current = true;
    void call('auditLog', { query: { limit: PAGE, cursor } }).then((p) => current && setPage(p));
    return () => void (current = false);
  }, [cursor]);
  const next = page?.nextCursor;
  const addresses = canManageKeys(); // the API answers addresses to owners and the admin only
  return (
    <section>
      <h1>Audit log</h1>
      <p class="muted">Every change made or refused in this workspace, newest first.</p>
      {!page ? (
        <p>Loading…</p>
      ) : (
        <>
          <table aria-label="Audit log">
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>Action</th>
                <th>Outcome</th>
                <th>Resource</th>
                {addresses && <th>Address</th>}
              </tr>
            </thead>
            <tbody>
              {page.entries.map((e, i) => (
                <tr key={`${e.at}-${i}`}>
                  <td>{formatTime(e.at)}</td>
                  <td>
                    <Actor actor={e.actor} />
                  </td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>{e.outcome}</td>
                  <td>
                    <code>{e.resource}</code>
                  </td>
                  {addresses && <td>{e.address}</td>}
                </tr>
              ))}
            </tbody>
          </table>
          {page.entries.length === 0 && <p>Nothing changed yet.</p>}
        </>
      )}
      <div class="actions">
        <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </button>
        <button type="button" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>
          Older
        </button>
      </div>
    </section>
  );
}
