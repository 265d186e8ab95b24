/**
 * The workspace's settings (`/settings`): its notification channels (docs/notifications.md), where
 * an issue's opening or reopening is told: each channel's kind, where it sends, whether it is failing
 * (with its last error) and when it last delivered. Editors and owners add channels (./channel-form.tsx:
 * a webhook's signing secret shown once), send a test notification and delete one (asked first);
 * viewers read.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, type Channel, type Workspace } from '../api';
import { canWrite } from '../rights';
import { NewChannel } from './channel-form';
import { Badge, FieldError, formatTime, useRefusal, useTitle } from './components';
import { ConfirmGroup } from './shown-once';

export const CHANNEL_KINDS: Record<Channel['kind'], string> = {
  webhook: 'Webhook',
  slack: 'Slack',
  email: 'Email',
};

/** Every channel of the workspace: a few (CHANNELS_PER_WORKSPACE), read page after page. */
async function allChannels(): Promise<Channel[]> {
  const channels: Channel[] = [];
  let cursor: string | undefined;
  do {
    const page = await call('listNotificationChannels', { query: cursor ? { cursor } : {} });
    channels.push(...page.channels);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return channels;
}

export function SettingsPage({ workspace }: { workspace: Workspace }) {
  useTitle('Settings');
  const [channels, setChannels] = useState<Channel[] | null>(null);
  const load = async () => setChannels(await allChannels());
  useEffect(() => void load(), [workspace.id]);
  return (
    <>
      <section>
        <h1>Settings of {workspace.name}</h1>
        <h2>Notification channels</h2>
        <p class="muted">
          When an issue opens, or opens again after it was resolved, each channel is told its robot, reason and count,
          with a link here: once an issue in each ISSUE_NOTIFY_INTERVAL (an hour unless the service is set otherwise),
          however many failures follow.
        </p>
        {!channels ? <p>Loading…</p> : <ChannelsTable channels={channels} onChange={() => void load()} />}
      </section>
      {canWrite() ? (
        <NewChannel onCreated={() => void load()} />
      ) : (
        <p class="muted">An editor or an owner of the workspace adds, tests and deletes channels.</p>
      )}
    </>
  );
}

/** Whether the channel's last attempt failed: its error is news, not history. */
const failedLast = (c: Channel) =>
  c.lastError !== null && (c.lastSentAt === null || (c.lastFailedAt ?? '') > c.lastSentAt);

function ChannelsTable({ channels, onChange }: { channels: Channel[]; onChange: () => void }) {
  const [asking, setAsking] = useState<string | null>(null);
  const [tested, setTested] = useState<string | null>(null);
  const { refusal, attempt } = useRefusal();
  const where = (c: Channel) => c.url ?? c.to ?? '';
  const test = (c: Channel) =>
    void attempt(async () => {
      setTested(null);
      try {
        const answer = await call('testNotificationChannel', { params: { id: c.id } });
        setTested(`Test notification delivered to ${where(c)} (${answer.status}).`);
      } finally {
        onChange();
      }
    });
  const remove = (c: Channel) =>
    void attempt(async () => {
      await call('deleteNotificationChannel', { params: { id: c.id } });
      setAsking(null);
      setTested(null);
      onChange();
    });
  if (channels.length === 0) return <p>No channel yet: nobody is told when an issue opens.</p>;
  return (
    <>
      {tested && <p role="status">{tested}</p>}
      <FieldError refusal={refusal} />
      <div class="table-scroll">
        <table aria-label="Notification channels">
          <thead>
            <tr>
              <th>Kind</th>
              <th>Sends to</th>
              <th>Status</th>
              <th>Last delivered</th>
              <th>Added</th>
              {canWrite() && <th aria-label="Test or delete" />}
            </tr>
          </thead>
          <tbody>
            {channels.map((c) => (
              <tr key={c.id}>
                <td>{CHANNEL_KINDS[c.kind]}</td>
                <td>
                  <code>{where(c)}</code>
                </td>
                <td>
                  <Badge status={c.status} label={c.status === 'ok' ? 'ok' : 'failing'} />
                  {failedLast(c) && (
                    <div class="error">
                      Last error{c.lastFailedAt ? ` (${formatTime(c.lastFailedAt)})` : ''}: {c.lastError}
                    </div>
                  )}
                </td>
                <td>{c.lastSentAt ? formatTime(c.lastSentAt) : 'never'}</td>
                <td>{formatTime(c.createdAt)}</td>
                {canWrite() && (
                  <td>
                    {asking !== c.id ? (
                      <div class="actions">
                        <button type="button" aria-label={`Send test to ${where(c)}`} onClick={() => test(c)}>
                          Send test
                        </button>
                        <button type="button" aria-label={`Delete channel ${where(c)}`} onClick={() => setAsking(c.id)}>
                          Delete
                        </button>
                      </div>
                    ) : (
                      <ConfirmGroup
                        question={`Delete channel ${where(c)}?`}
                        warning="Its notifications stop, one under way too."
                        yes="Yes, delete"
                        onYes={() => remove(c)}
                        onCancel={() => setAsking(null)}
                      />
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
