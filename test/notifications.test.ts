/**
 * Notification channels through the real stack (docs/notifications.md): a webhook channel's receiver
 * verifies what it gets with the `standardwebhooks` package; a Slack channel gets `{ text, blocks }`;
 * an email goes through a real SMTP server started here; the notify workflow retries a failing
 * channel and marks it `failing`; and the outbound rules (docs/security.md): a loopback URL is
 * refused when made unless NOTIFY_ALLOW_PRIVATE_ADDRESSES=1, a redirect is never followed.
 *
 * The receivers here are on loopback, so this file's main stack sets NOTIFY_ALLOW_PRIVATE_ADDRESSES=1
 * (a second stack, without it, shows the refusal), and NOTIFY_ATTEMPTS=2 with NOTIFY_BACKOFF_MS=50
 * so that a failing channel's retries take a moment. Last, the whole path: a signed robot's refusals
 * open an issue (src/issues/counter.ts), which notifies once however many refusals follow.
 */
import { Webhook } from 'standardwebhooks';
import { apiClient, type ApiClient } from '../src/client/api-client';
import { waitFor } from '../src/launch/os/wait';
import { robotAtWork } from '../src/client/api-client';
import { issueId } from '../src/domain/issue-ids';
import { startIssueNotification } from '../src/notifications/start';
import { startStack, type Stack } from './support/stack';
import {
  httpReceiver,
  mailServer,
  type HttpReceiver,
  type Mail,
  type MailServer,
} from './support/notification-receivers';

let stack: Stack;
let receiver: HttpReceiver;
let smtp: MailServer;
beforeAll(async () => {
  receiver = await httpReceiver();
  smtp = await mailServer();
  stack = await startStack({
    NOTIFY_ALLOW_PRIVATE_ADDRESSES: '1',
    SMTP_URL: smtp.smtpUrl,
    SMTP_FROM: 'alerts@example.com',
    NOTIFY_ATTEMPTS: '2',
    NOTIFY_BACKOFF_MS: '50',
    REJECTED_PER_MINUTE: '5000', // 1,001 refusals below, none throttled (a throttled one is an issue of its own)
  });
});
afterAll(async () => {
  await stack.close();
  await receiver.close();
  await smtp.close();
});

/** A new workspace (its channels its own) and an editor's client of it. */
async function workspace(name: string): Promise<{ id: string; editor: ApiClient }> {
  const { id } = await stack.client.call('createWorkspace', { body: { name } });
  const { key } = await stack.client.call('createKey', { params: { id }, body: { name: 'editor', role: 'editor' } });
  return { id, editor: apiClient(stack.baseUrl, key) };
}

/** An issue of `robotId` opened now in `workspaceId`, as an issue counter tells it (src/issues/counter.ts). */
const openedIssue = (workspaceId: string, robotId: string, n = 1) => {
  const at = new Date(Date.now() + n); // each a distinct opening: its own workflow
  return {
    _id: `iss_test${Math.random().toString(16).slice(2, 10)}`,
    workspaceId,
    robotId,
    kind: 'refused',
    reason: 'signature',
    count: 3,
    firstSeen: at,
    lastSeen: at,
    notifiedAt: at,
  };
};

const notifier = () => ({ temporal: stack.temporal, config: stack.config });

it('sends a webhook channel a test notification its receiver verifies with standardwebhooks', async () => {
  const { editor } = await workspace('webhook');
  const made = await editor.call('createNotificationChannel', { body: { kind: 'webhook', url: receiver.url('/ok') } });
  expect(made).toMatchObject({ kind: 'webhook', status: 'ok', failuresInARow: 0 });
  expect(made.secret).toMatch(/^whsec_/);
  const { channels } = await editor.call('listNotificationChannels');
  expect(channels.map((c) => c.id)).toEqual([made.id]);
  expect(channels[0]).not.toHaveProperty('secret');

  const before = receiver.on('/ok').length;
  expect(await editor.call('testNotificationChannel', { params: { id: made.id } })).toEqual({
    delivered: true,
    status: 200,
  });
  const [got] = receiver.on('/ok').slice(before);
  const headers = got.headers as Record<string, string>;
  expect(new Webhook(made.secret!).verify(got.body, headers)).toMatchObject({ type: 'test' });
  expect(() => new Webhook(`whsec_${Buffer.alloc(24).toString('base64')}`).verify(got.body, headers)).toThrow();
  const after = await editor.call('listNotificationChannels');
  expect(after.channels[0].lastSentAt).not.toBeNull();
});

it("notifies an issue's opening to a Slack channel as { text, blocks }, naming the robot", async () => {
  const { id, editor } = await workspace('slack');
  const robot = await stack.robotAtWork();
  const made = await editor.call('createNotificationChannel', { body: { kind: 'slack', url: receiver.url('/slack') } });
  expect(made.secret).toBeNull();
  await startIssueNotification(notifier(), openedIssue(id, robot.robotId), 'opened');
  const [got] = await waitFor(
    () => receiver.on('/slack'),
    (r) => r.length > 0,
  );
  const message = JSON.parse(got.body) as { text: string; blocks: unknown[] };
  expect(message.text).toContain('Robot "Robot"');
  expect(message.text).toContain('refused (signature), 3 times');
  expect(message.text).toContain(`${stack.baseUrl}/robots/${robot.robotId}`);
  expect(message.blocks).toHaveLength(1);
  expect(got.headers).not.toHaveProperty('webhook-signature');
});

it('sends an email channel the issue through the SMTP server of SMTP_URL', async () => {
  const { id, editor } = await workspace('email');
  const robot = await stack.robotAtWork();
  await editor.call('createNotificationChannel', { body: { kind: 'email', to: 'oncall@example.com' } });
  const issue = openedIssue(id, robot.robotId);
  await startIssueNotification(notifier(), issue, 'reopened');
  const mail = await waitFor(
    () => smtp.mails.find((m) => m.text.includes(issue._id)),
    (m): m is Mail => m !== undefined,
  );
  expect(mail.to).toEqual(['oncall@example.com']);
  expect(mail.text).toMatch(/^From: alerts@example\.com/m);
  expect(mail.text).toMatch(/^Subject: Robot: refused \(signature\)/m);
  expect(mail.text).toContain('Issue reopened: Robot "Robot": refused (signature), 3 times');
});

it('starts one notification per opening: a second start of the same opening sends nothing more', async () => {
  const { id, editor } = await workspace('once');
  await editor.call('createNotificationChannel', { body: { kind: 'slack', url: receiver.url('/once') } });
  const issue = openedIssue(id, 'no-such-robot');
  await startIssueNotification(notifier(), issue, 'opened');
  await waitFor(
    () => receiver.on('/once').length,
    (n) => n === 1,
  );
  await startIssueNotification(notifier(), issue, 'opened');
  const handle = stack.temporal.workflow.getHandle(`notify:${issue._id}:${issue.notifiedAt.getTime()}`);
  await handle.result();
  expect(receiver.on('/once')).toHaveLength(1);
});

it('retries a channel answering 500, records each failure, and marks it failing after 3 notifications', async () => {
  const { id, editor } = await workspace('failing');
  const made = await editor.call('createNotificationChannel', {
    body: { kind: 'webhook', url: receiver.url('/fail') },
  });
  const before = receiver.on('/fail').length;
  for (let n = 1; n <= 3; n++) {
    const issue = openedIssue(id, 'no-such-robot', n);
    await startIssueNotification(notifier(), issue, 'opened');
    const outcomes = await stack.temporal.workflow
      .getHandle(`notify:${issue._id}:${issue.notifiedAt.getTime()}`)
      .result();
    expect(outcomes).toEqual({ [made.id]: 'failed' });
    const { channels } = await editor.call('listNotificationChannels');
    expect(channels[0]).toMatchObject({ failuresInARow: n, status: n < 3 ? 'ok' : 'failing' });
    expect(channels[0].lastError).toBe('answered 500');
  }
  // Two attempts each (NOTIFY_ATTEMPTS=2), the same webhook-id on both attempts of one notification.
  const attempts = receiver.on('/fail').slice(before);
  expect(attempts).toHaveLength(6);
  expect(attempts[0].headers['webhook-id']).toBe(attempts[1].headers['webhook-id']);
  expect(attempts[2].headers['webhook-id']).not.toBe(attempts[0].headers['webhook-id']);
  // Counted once a notification, after its last attempt (the worker's metrics).
  const metrics = await stack.metrics.worker.registry.getSingleMetricAsString('webhooks_notifications_total');
  expect(metrics).toContain('webhooks_notifications_total{channel_kind="webhook",outcome="failed"} 3');
});

it('does not follow a redirect: a 302 to a loopback address fails the test, its target never reached', async () => {
  const { editor } = await workspace('redirect');
  const made = await editor.call('createNotificationChannel', {
    body: { kind: 'webhook', url: receiver.url('/redirect') },
  });
  const { status, body } = await editor.request('POST', `/api/notification-channels/${made.id}/test`);
  expect(status).toBe(502);
  expect(body.error).toBe('not delivered: answered 302: redirect not followed');
  expect(receiver.on('/redirect')).toHaveLength(1);
  expect(receiver.on('/target')).toHaveLength(0);
  const { channels } = await editor.call('listNotificationChannels');
  expect(channels[0]).toMatchObject({ lastError: 'answered 302: redirect not followed', failuresInARow: 0 });
});

it('refuses, without NOTIFY_ALLOW_PRIVATE_ADDRESSES, a URL on loopback or resolving to it, and email without SMTP_URL', async () => {
  const closed = await startStack({}, { worker: false });
  try {
    for (const url of [receiver.url('/ok'), 'http://[::ffff:127.0.0.1]:9/', 'http://localhost:9/']) {
      const { status, body } = await closed.api('POST', '/api/notification-channels', { kind: 'webhook', url });
      expect({ status, field: body.field }).toEqual({ status: 400, field: 'url' });
      expect(body.error).toMatch(/loopback address$/);
    }
    const email = await closed.api('POST', '/api/notification-channels', { kind: 'email', to: 'a@example.com' });
    expect(email.status).toBe(400);
    expect(email.body.error).toContain('SMTP_URL');
    expect((await closed.client.call('listNotificationChannels')).channels).toEqual([]);
  } finally {
    await closed.close();
  }
});

it('notifies once when wrongly signed deliveries open an issue, not again for 1,000 more within the interval', async () => {
  // In the admin's workspace, whose only channel this is.
  const made = await stack.client.call('createNotificationChannel', {
    body: { kind: 'webhook', url: receiver.url('/issues') },
  });
  const robot = await robotAtWork(stack.client, {
    template: {},
    verification: { scheme: 'github', secret: 'a-github-secret-of-some-length' },
  });
  const forged = () =>
    stack.send('POST', robot.webhookUrl, '{"zen":"forged"}', {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
    });
  expect((await forged()).status).toBe(400);
  const [first] = await waitFor(
    () => receiver.on('/issues'),
    (r) => r.length > 0,
  );
  const sent = new Webhook(made.secret!).verify(first.body, first.headers as Record<string, string>) as {
    type: string;
    issue: Record<string, unknown>;
  };
  const id = issueId(robot.robotId, 'refused', 'signature');
  expect(sent).toMatchObject({
    type: 'issue.opened',
    issue: { id, robotId: robot.robotId, robotName: 'Robot', kind: 'refused', reason: 'signature', count: 1 },
  });
  const opened = await stack.models.Issue.findById(id).lean();

  for (let i = 0; i < 1000; i += 50) {
    const answers = await Promise.all(Array.from({ length: 50 }, forged));
    expect(answers.map((a) => a.status)).toEqual(new Array(50).fill(400));
  }
  // Every refusal counted; the issue was not notified again (its notifiedAt is the first one's).
  const counted = await waitFor(
    () => stack.models.Issue.findById(id).lean(),
    (issue) => issue?.count === 1001,
  );
  expect(counted!.notifiedAt).toEqual(opened!.notifiedAt);
  expect(receiver.on('/issues')).toHaveLength(1);
});
