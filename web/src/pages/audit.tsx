/**
 * The audit log (`/audit`): every management write of the workspace, done or refused, and what
 * senders did on its URLs (who, what, how it ended, on which resource, when, and for owners from
 * which address), newest first, a page at a time. Who is shown by its kind first: the admin token,
 * a key (named in quotes, with its id), or a sender, so a key named "admin" never reads as the admin.
 * Resources are shown by name (a robot's links to its page). Filters by who, action and time are
 * the API's (`GET /api/audit?actor=…&action=…&since=…&until=…`); Export CSV downloads what they
 * match, built here from pages of the API (at most AUDIT_EXPORT_MAX entries).
 */
import { useEffect, useState } from 'preact/hooks';
import { call, session, type AuditEntry, type Key } from '../api';
import { link } from '../nav';
import { canManageKeys } from '../rights';
import { MANAGEMENT } from '../../../src/contract/management';
import { AUDIT_EXPORT_MAX, AUDIT_PAGE_MAX } from '../../../src/domain/limits/management';
import { Badge, formatTime, plural, useTitle } from './components';
import { usePage } from './paged';

const PAGE = 50;

/** Every action the log records: each write's, and a live URL read and a secret a sender gave. */
const ACTIONS = [
  ...new Set([
    ...Object.values(MANAGEMENT).flatMap((op) => ('audit' in op ? [op.audit] : [])),
    'robot.read-url',
    'robot.secret-from-handshake',
  ]),
].sort();

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

/** What an entry acted on, by its name; a robot's links to its page. */
function Resource({ entry }: { entry: AuditEntry }) {
  const [kind, id] = entry.resource.split(/:(.*)/s);
  const name = entry.resourceName;
  if (kind === 'robot' && id && name)
    return (
      <a href={`/robots/${id}`} onClick={link(`/robots/${id}`)}>
        Robot “{name}”
      </a>
    );
  if (kind === 'app' && name)
    return (
      <a href="/apps" onClick={link('/apps')}>
        App “{name}”
      </a>
    );
  if (kind === 'key' && name && canManageKeys())
    return (
      <a href="/keys" onClick={link('/keys')}>
        Key “{name}”
      </a>
    );
  if (name) return <span>{`${kind[0].toUpperCase()}${kind.slice(1)} “${name}”`}</span>;
  return <code>{entry.resource}</code>;
}

interface Filter {
  actor: string;
  action: string;
  /** Dates (YYYY-MM-DD), in the browser's time zone: from the start of `since` to the end of `until`. */
  since: string;
  until: string;
}
const NO_FILTER: Filter = { actor: '', action: '', since: '', until: '' };

const queryOf = (f: Filter) => ({
  actor: f.actor || undefined,
  action: f.action || undefined,
  since: f.since ? new Date(`${f.since}T00:00:00`).toISOString() : undefined,
  until: f.until ? new Date(`${f.until}T23:59:59.999`).toISOString() : undefined,
});

export function AuditPage() {
  useTitle('Audit log');
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  const { page, older, newer } = usePage('auditLog', { query: { limit: PAGE, ...queryOf(filter) } });
  const [keys, setKeys] = useState<Key[]>([]);
  const workspaceId = session.caller()?.workspace.id;
  useEffect(() => {
    // Owners and the admin choose among the workspace's keys; others among the keys the log shows.
    if (canManageKeys() && workspaceId)
      void call('listKeys', { params: { id: workspaceId } }).then((k) => setKeys(k.keys));
  }, [workspaceId]);
  const next = page?.answer.nextCursor;
  const addresses = canManageKeys(); // the API answers addresses to owners and the admin only
  // A new filter starts again at the newest page (usePage).
  const change = (f: Partial<Filter>) => setFilter({ ...filter, ...f });
  const seen = new Map((page?.items ?? []).flatMap((e) => (e.actor.keyId ? [[e.actor.keyId, e.actor.name]] : [])));
  for (const k of keys) seen.set(k.id, k.name);
  if (filter.actor && !['admin', 'sender'].includes(filter.actor) && !seen.has(filter.actor))
    seen.set(filter.actor, filter.actor);
  return (
    <section>
      <h1>Audit log</h1>
      <p class="muted">Every change made or refused in this workspace, newest first.</p>
      <form aria-label="Filter the audit log" class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Who
          <select value={filter.actor} onChange={(e) => change({ actor: e.currentTarget.value })}>
            <option value="">Anyone</option>
            <option value="admin">Admin token</option>
            <option value="sender">Senders (webhook URLs)</option>
            {[...seen].map(([id, name]) => (
              <option key={id} value={id}>
                Key “{name}”
              </option>
            ))}
          </select>
        </label>
        <label>
          Action
          <select value={filter.action} onChange={(e) => change({ action: e.currentTarget.value })}>
            <option value="">Any action</option>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={filter.since} onInput={(e) => change({ since: e.currentTarget.value })} />
        </label>
        <label>
          Until
          <input type="date" value={filter.until} onInput={(e) => change({ until: e.currentTarget.value })} />
        </label>
      </form>
      <ExportCsv filter={filter} addresses={addresses} />
      {!page ? (
        <p>Loading…</p>
      ) : (
        <>
          <div class="table-scroll">
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
                {page.items.map((e, i) => (
                  <tr key={`${e.at}-${i}`}>
                    <td>{formatTime(e.at)}</td>
                    <td>
                      <Actor actor={e.actor} />
                    </td>
                    <td>
                      <code>{e.action}</code>
                    </td>
                    <td>
                      <Badge status={e.outcome} />
                    </td>
                    <td>
                      <Resource entry={e} />
                    </td>
                    {addresses && <td>{e.address}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {page.items.length === 0 &&
            (filter === NO_FILTER ? (
              <p>Nothing changed yet.</p>
            ) : (
              <p>No entry matches{next ? ' among those read: Older reads on' : ''}.</p>
            ))}
        </>
      )}
      <div class="actions">
        <button type="button" disabled={!newer} onClick={() => newer?.()}>
          Newer
        </button>
        <button type="button" disabled={!older} onClick={() => older?.()}>
          Older
        </button>
      </div>
    </section>
  );
}

/** A CSV field: quoted when it holds a comma, a quote or a line break; a leading = + - @ defused for spreadsheets. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csvOf(entries: AuditEntry[], addresses: boolean, cut: boolean): string {
  const head = [
    'at',
    'actor',
    'key id',
    'action',
    'outcome',
    'resource',
    'resource name',
    ...(addresses ? ['address'] : []),
  ];
  const who = (a: AuditEntry['actor']) => (a.kind === 'key' ? `key ${a.name ?? ''}` : a.kind);
  const rows = entries.map((e) => [
    e.at,
    who(e.actor),
    e.actor.keyId ?? '',
    e.action,
    e.outcome,
    e.resource,
    e.resourceName ?? '',
    ...(addresses ? [e.address ?? ''] : []),
  ]);
  const lines = [head, ...rows].map((r) => r.map(csvField).join(','));
  if (cut) lines.push(csvField(`(cut short at ${AUDIT_EXPORT_MAX} entries: narrow the time to export the rest)`));
  return `${lines.join('\r\n')}\r\n`;
}

/** Export CSV: the entries the filter matches, read page by page (AUDIT_PAGE_MAX a page, AUDIT_EXPORT_MAX at most). */
function ExportCsv({ filter, addresses }: { filter: Filter; addresses: boolean }) {
  const [status, setStatus] = useState<string | null>(null);
  const exportCsv = async () => {
    const entries: AuditEntry[] = [];
    let cursor: string | undefined;
    setStatus('Reading the log…');
    do {
      const page = await call('auditLog', { query: { limit: AUDIT_PAGE_MAX, cursor, ...queryOf(filter) } });
      entries.push(...page.entries);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && entries.length < AUDIT_EXPORT_MAX);
    const cut = entries.length > AUDIT_EXPORT_MAX || cursor !== undefined;
    const blob = new Blob([csvOf(entries.slice(0, AUDIT_EXPORT_MAX), addresses, cut)], { type: 'text/csv' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `audit-log-${new Date().toISOString().slice(0, 10)}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
    setStatus(
      `Exported ${plural(Math.min(entries.length, AUDIT_EXPORT_MAX), 'entry', 'entries')}${cut ? ' (cut short)' : ''}`,
    );
  };
  return (
    <div class="actions">
      <button type="button" onClick={() => void exportCsv()}>
        Export CSV
      </button>
      {status && <span role="status">{status}</span>}
    </div>
  );
}
