/**
 * Issues (`/issues`): the workspace's robots' failures grouped by cause (docs/issues.md), newest
 * failure first, all of them or those of one status: each with its robot (a link), kind, reason, how many, when first
 * and last seen, its status, and links to what it counted (the robot's deliveries log filtered to the
 * outcome, or its run history) and to the latest delivery. Editors and owners acknowledge and resolve
 * them here; viewers read. The table follows new failures every FOLLOW_MS.
 */
import { useState } from 'preact/hooks';
import { call, type Issue, type IssueStatus } from '../api';
import { link } from '../nav';
import { issuesChanged } from '../open-issues';
import { canWrite } from '../rights';
import { Badge, FieldError, formatTime, useRefusal, useTitle } from './components';
import { usePage, type Page } from './paged';

const KINDS: Record<Issue['kind'], string> = {
  refused: 'Refused',
  failed: 'Failed',
  run_failed: 'Run failed',
  handshake: 'Handshake',
};

/** Each reason in words (src/domain/issues.ts names them); a failed run's is its step's name. */
const REASONS: Record<string, string> = {
  signature: 'the signature does not verify',
  stale_time: 'its timestamp is too old, or it expired',
  missing_header: 'a header the sender always sends is missing',
  wrong_token: 'a wrong token on a known URL',
  throttled: 'throttled: too many refused in a minute',
  unparsable: 'the body is not of the body format',
  over_cap: 'over a cap',
  over_quota: 'over the fan-out quota',
  body_gone: 'its body was no longer kept',
  handshake: "the sender's check of the URL was refused",
};
const reasonText = (reason: string) =>
  reason.startsWith('step:') ? `the step “${reason.slice(5)}” failed` : (REASONS[reason] ?? null);

/** The dashboard's page of what an issue counted: the robot's log as its `deliveriesUrl` filters it. */
function logOf(issue: Issue): { href: string; label: string } {
  const api = new URL(issue.deliveriesUrl, location.origin);
  const runs = api.pathname.endsWith('/runs');
  const robot = `/robots/${encodeURIComponent(issue.robotId)}`;
  return runs
    ? { href: `${robot}#runs`, label: 'Runs' }
    : { href: `${robot}${api.search}#deliveries`, label: 'Deliveries' };
}

/** All by default: an issue acknowledged or resolved here stays in view, its new status shown. */
const FILTERS: Array<{ value: IssueStatus | ''; label: string }> = [
  { value: '', label: 'All' },
  { value: 'open', label: 'Open' },
  { value: 'acknowledged', label: 'Acknowledged' },
  { value: 'resolved', label: 'Resolved' },
];

export function IssuesPage() {
  useTitle('Issues');
  const [status, setStatus] = useState<IssueStatus | ''>('');
  const { page, older, newer } = usePage('listIssues', { query: status ? { status } : {} }, { follow: true });
  /** Issues changed here, shown as the API answered the change until the next read of the page. */
  const [changed, setChanged] = useState<{ on: Page<'listIssues'>; issues: Map<string, Issue> } | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const { refusal, attempt } = useRefusal();
  const act = (issue: Issue, action: 'acknowledgeIssue' | 'resolveIssue') =>
    void attempt(async () => {
      const now = await call(action, { params: { id: issue.id } });
      if (page) setChanged({ on: page, issues: new Map(changed?.on === page ? changed.issues : []).set(now.id, now) });
      setSaid(
        action === 'resolveIssue'
          ? `Resolved: its next failure opens it again.`
          : `Acknowledged: it stays so until it is resolved.`,
      );
      issuesChanged();
    });
  const shown = (page?.items ?? []).map((i) => (changed?.on === page ? changed.issues.get(i.id) : undefined) ?? i);
  return (
    <section>
      <h1>Issues</h1>
      <p class="muted">
        Your robots' failures grouped by cause: refused deliveries by reason, failed ones, failed runs by step, refused
        handshakes. A resolved issue opens again when its failure comes back.
      </p>
      <form aria-label="Filter issues" class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value as IssueStatus | '')}>
            {FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
      </form>
      {said && <p role="status">{said}</p>}
      <FieldError refusal={refusal} />
      {!page ? (
        <p>Loading…</p>
      ) : (
        <div class="table-scroll">
          <table aria-label="Issues">
            <thead>
              <tr>
                <th>Robot</th>
                <th>Kind</th>
                <th>Reason</th>
                <th>Count</th>
                <th>First seen</th>
                <th>Last seen</th>
                <th>Status</th>
                <th>Seen in</th>
                {canWrite() && <th aria-label="Acknowledge or resolve" />}
              </tr>
            </thead>
            <tbody>
              {shown.map((i) => (
                <IssueRow key={i.id} issue={i} onAct={act} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && shown.length === 0 && (
        <p>
          {status === 'open'
            ? 'No open issue.'
            : status
              ? `No ${status} issue.`
              : 'No issue yet: no robot of this workspace has failed.'}
          {page.answer.nextCursor ? ' Older reads on.' : ''}
        </p>
      )}
      <div class="actions">
        <button type="button" aria-label="Newer issues" disabled={!newer} onClick={() => newer?.()}>
          Newer
        </button>
        <button type="button" aria-label="Older issues" disabled={!older} onClick={() => older?.()}>
          Older
        </button>
      </div>
    </section>
  );
}

function IssueRow({
  issue: i,
  onAct,
}: {
  issue: Issue;
  onAct: (i: Issue, a: 'acknowledgeIssue' | 'resolveIssue') => void;
}) {
  const robot = `/robots/${encodeURIComponent(i.robotId)}`;
  const log = logOf(i);
  const words = reasonText(i.reason);
  return (
    <tr>
      <td>
        <a href={robot} onClick={link(robot)}>
          {i.robotName ?? <code>{i.robotId}</code>}
        </a>
      </td>
      <td>{KINDS[i.kind]}</td>
      <td>
        <code>{i.reason}</code>
        {words && <div class="muted">{words}</div>}
      </td>
      <td>{i.count.toLocaleString('en')}</td>
      <td>{formatTime(i.firstSeen)}</td>
      <td>{formatTime(i.lastSeen)}</td>
      <td>
        <Badge status={i.status} />
      </td>
      <td>
        <a href={log.href} onClick={link(log.href)}>
          {log.label}
        </a>
        {i.lastDeliveryId && (
          <>
            {' · '}
            <a href={`/deliveries/${i.lastDeliveryId}`} onClick={link(`/deliveries/${i.lastDeliveryId}`)}>
              Latest
            </a>
          </>
        )}
      </td>
      {canWrite() && (
        <td>
          <div class="actions">
            {i.status === 'open' && (
              <button type="button" onClick={() => onAct(i, 'acknowledgeIssue')}>
                Acknowledge
              </button>
            )}
            {i.status !== 'resolved' && (
              <button type="button" onClick={() => onAct(i, 'resolveIssue')}>
                Resolve
              </button>
            )}
          </div>
        </td>
      )}
    </tr>
  );
}
