/**
 * The audit log (`/audit`): every management write of the workspace (who, what, on which resource,
 * when, from which address), newest first, a page at a time.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, type AuditEntry } from '../api';
import { formatTime } from './components';

const PAGE = 50;

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
  return (
    <section>
      <h1>Audit log</h1>
      <p class="muted">Every change made in this workspace, newest first.</p>
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
                <th>Resource</th>
                <th>Address</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((e, i) => (
                <tr key={`${e.at}-${i}`}>
                  <td>{formatTime(e.at)}</td>
                  <td>{e.actor}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>
                    <code>{e.resource}</code>
                  </td>
                  <td>{e.address}</td>
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
