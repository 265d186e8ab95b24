/**
 * Issues on the real stack (docs/issues.md): a signed app's wrongly signed deliveries make one open
 * issue whose count grows; acknowledged, resolved, and open again at the next refusal; a thousand
 * refusals are one issue of 1,000; an unparsable body and a failing step are issues of their own;
 * another workspace neither sees nor resolves it, a viewer cannot resolve it, and every write is in
 * the audit log. The throttled are counted apart (a stack of its own with a low throttle).
 */
import { apiClient, robotAtWork, type ApiClient } from '../src/client/api-client';
import type { IssueAnswer } from '../src/contract/answers';
import { waitFor } from '../src/launch/os/wait';
import { hmacSender } from './support/senders/hmac';
import { startStack, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  // Within the URL's refusals a minute: a thousand are all recorded (the throttled are counted below).
  stack = await startStack({ REJECTED_PER_MINUTE: '5000' });
});
afterAll(() => stack.close());

/** A robot at work on a new app that signs as the HMAC fixture does (test/support/senders/hmac.ts). */
const signedRobot = (client: ApiClient, stepName = 'compose') =>
  robotAtWork(client, { template: { data: '{{trigger}}' }, verification: hmacSender.verification, stepName });

/** Sends `body` to the URL signed with a wrong secret: refused, 400. */
async function sendForged(url: string, n: number): Promise<number> {
  const sent = hmacSender.signedWrongly(`{"order":${n}}`, url, new Date());
  return (await stack.send('POST', url, sent.body, sent.headers)).status;
}

const issuesOf = async (robotId: string, client: ApiClient = stack.client): Promise<IssueAnswer[]> =>
  (await client.call('listIssues', { query: { robotId } })).issues;

/** The robot's one issue once it has counted `count`. */
async function issueCounted(robotId: string, count: number, client?: ApiClient): Promise<IssueAnswer> {
  const issues = await waitFor(
    () => issuesOf(robotId, client),
    (list) => list.length === 1 && list[0].count === count,
    30_000,
  );
  return issues[0];
}

describe('a signed app whose deliveries are forged', () => {
  let robotId: string;
  let webhookUrl: string;
  let issue: IssueAnswer;

  beforeAll(async () => {
    ({ robotId, webhookUrl } = await signedRobot(stack.client));
  });

  it('opens one issue, refused for its signature, whose count grows', async () => {
    expect(await sendForged(webhookUrl, 1)).toBe(400);
    issue = await issueCounted(robotId, 1);
    expect(issue).toMatchObject({
      robotId,
      robotName: 'Robot',
      kind: 'refused',
      reason: 'signature',
      status: 'open',
      acknowledgedAt: null,
      resolvedAt: null,
      deliveriesUrl: `/api/robots/${robotId}/deliveries?outcome=rejected`,
    });
    expect(issue.id).toMatch(/^iss_[0-9a-f]{24}$/);
    // It links to the delivery it counted, recorded as rejected.
    const delivery = await stack.client.call('getDelivery', { params: { id: issue.lastDeliveryId! } });
    expect(delivery).toMatchObject({ robotId, outcome: 'rejected' });

    expect(await sendForged(webhookUrl, 2)).toBe(400);
    expect(await sendForged(webhookUrl, 3)).toBe(400);
    const grown = await issueCounted(robotId, 3);
    expect(grown).toMatchObject({ id: issue.id, status: 'open', firstSeen: issue.firstSeen });
    expect(Date.parse(grown.lastSeen)).toBeGreaterThan(Date.parse(issue.lastSeen));
  });

  it('is an issue of its own when a header is missing', async () => {
    const { robotId: other, webhookUrl: url } = await signedRobot(stack.client);
    const status = (await stack.send('POST', url, '{"order":1}', { 'content-type': 'application/json' })).status;
    expect(status).toBe(400);
    expect(await issueCounted(other, 1)).toMatchObject({ kind: 'refused', reason: 'missing_header' });
  });

  it('is acknowledged, then resolved, and opens again at the next refusal', async () => {
    const acknowledged = await stack.client.call('acknowledgeIssue', { params: { id: issue.id } });
    expect(acknowledged).toMatchObject({ id: issue.id, status: 'acknowledged', count: 3 });
    const listed = await stack.client.call('listIssues', { query: { status: 'acknowledged' } });
    expect(listed.issues.map((i) => i.id)).toContain(issue.id);
    const open = await stack.client.call('listIssues', { query: { status: 'open' } });
    expect(open.issues.map((i) => i.id)).not.toContain(issue.id);

    const resolved = await stack.client.call('resolveIssue', { params: { id: issue.id } });
    expect(resolved).toMatchObject({ id: issue.id, status: 'resolved' });
    // Acknowledging it now is refused: it is resolved.
    expect((await stack.api('POST', `/api/issues/${issue.id}/acknowledge`)).status).toBe(409);

    expect(await sendForged(webhookUrl, 4)).toBe(400);
    const reopened = await issueCounted(robotId, 4);
    expect(reopened).toMatchObject({ id: issue.id, status: 'open' });
  });

  it('counts in the webhooks_issues_open gauge while open', async () => {
    const open = (await stack.client.call('listIssues', { query: { status: 'open' } })).issues;
    const refused = open.filter((i) => i.kind === 'refused').length;
    expect(refused).toBeGreaterThanOrEqual(2);
    await waitFor(
      async () => (await stack.send('GET', `${stack.metricsUrl}/metrics`)).text,
      (text) => text.includes(`webhooks_issues_open{kind="refused"} ${refused}\n`),
      30_000,
    );
  });

  it('is not seen nor settled by another workspace, and a viewer cannot resolve it', async () => {
    const { id: workspace } = await stack.client.call('createWorkspace', { body: { name: 'Elsewhere' } });
    const { key } = await stack.client.call('createKey', {
      params: { id: workspace },
      body: { name: 'owner elsewhere', role: 'owner' },
    });
    const elsewhere = apiClient(stack.baseUrl, key);
    expect((await elsewhere.call('listIssues', {})).issues).toEqual([]);
    for (const verb of ['acknowledge', 'resolve'])
      expect((await elsewhere.request('POST', `/api/issues/${issue.id}/${verb}`)).status).toBe(404);

    const viewerKey = await stack.client.call('createKey', {
      params: { id: 'default' },
      body: { name: 'issue viewer', role: 'viewer' },
    });
    const viewer = apiClient(stack.baseUrl, viewerKey.key);
    expect((await issuesOf(robotId, viewer)).map((i) => i.id)).toEqual([issue.id]);
    expect((await viewer.request('POST', `/api/issues/${issue.id}/resolve`)).status).toBe(403);
    expect((await issuesOf(robotId))[0].status).toBe('open');
  });

  it('has each write in the audit log, the refused one too', async () => {
    const entries = (await stack.client.call('auditLog', {})).entries.filter((e) => e.resource === `issue:${issue.id}`);
    expect(entries.map((e) => [e.action, e.outcome])).toEqual([
      ['issue.resolve', 'refused'],
      ['issue.acknowledge', 'failed'],
      ['issue.resolve', 'done'],
      ['issue.acknowledge', 'done'],
    ]);
  });
});

it('makes a thousand refusals one issue of 1000', async () => {
  const { robotId, webhookUrl } = await signedRobot(stack.client);
  for (let i = 0; i < 1000; i += 25) {
    const batch = Array.from({ length: 25 }, (_, j) => sendForged(webhookUrl, i + j));
    expect(await Promise.all(batch)).toEqual(Array(25).fill(400));
  }
  const issue = await issueCounted(robotId, 1000);
  expect(issue).toMatchObject({ kind: 'refused', reason: 'signature', status: 'open' });
});

it('counts an unparsable body as failed, unparsable', async () => {
  const { robotId, webhookUrl } = await stack.robotAtWork();
  expect((await stack.send('POST', webhookUrl, '{"not json', { 'content-type': 'application/json' })).status).toBe(200);
  const issue = await issueCounted(robotId, 1);
  expect(issue).toMatchObject({ kind: 'failed', reason: 'unparsable', status: 'open' });
  expect(issue.deliveriesUrl).toBe(`/api/robots/${robotId}/deliveries?outcome=failed`);
  const delivery = await stack.client.call('getDelivery', { params: { id: issue.lastDeliveryId! } });
  expect(delivery).toMatchObject({ outcome: 'failed' });
});

it('counts a run failed at a step as run_failed, step:<its name>', async () => {
  const { robotId, webhookUrl } = await robotAtWork(stack.client, {
    template: { a: '{{trigger.a}}' },
    stepName: 'greet',
  });
  // A stored template that is not JSON: the step cannot be executed (as test/activities.test.ts does).
  await stack.models.Robot.updateOne({ _id: robotId }, { $set: { 'steps.0.templateJson': '{' } });
  await stack.models.RobotSteps.updateMany({ robotId }, { $set: { 'steps.0.templateJson': '{' } });
  expect((await stack.send('POST', webhookUrl, '{"a":1}', { 'content-type': 'application/json' })).status).toBe(200);
  const issue = await issueCounted(robotId, 1);
  expect(issue).toMatchObject({ kind: 'run_failed', reason: 'step:greet', status: 'open' });
  expect(issue.deliveriesUrl).toBe(`/api/robots/${robotId}/runs`);
  // Its summary: the run itself is read with its steps' templates, which this one's cannot be.
  const { runs } = await waitFor(
    () => stack.client.call('listRuns', { params: { id: robotId } }),
    (page) => page.runs.length === 1 && page.runs[0].status === 'failed',
    30_000,
  );
  const run = runs[0];
  expect(issue.lastDeliveryId).toBe(run.deliveryId);
});

describe('past the refusal throttle', () => {
  let throttled: Stack;
  beforeAll(async () => {
    throttled = await startStack({ REJECTED_PER_MINUTE: '2' }, { worker: false });
  });
  afterAll(() => throttled.close());

  it('counts the refused within it by reason, and those past it as throttled', async () => {
    const { robotId, webhookUrl } = await signedRobot(throttled.client);
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++) {
      const sent = hmacSender.signedWrongly(`{"order":${n}}`, webhookUrl, new Date());
      statuses.push((await throttled.send('POST', webhookUrl, sent.body, sent.headers)).status);
    }
    expect(statuses).toEqual([400, 400, 429, 429, 429]);
    const issues = await waitFor(
      async () => (await throttled.client.call('listIssues', { query: { robotId } })).issues,
      (list) => list.reduce((sum, i) => sum + i.count, 0) === 5,
      30_000,
    );
    const byReason = Object.fromEntries(issues.map((i) => [i.reason, i.count]));
    expect(byReason).toEqual({ signature: 2, throttled: 3 });
    expect(issues.find((i) => i.reason === 'throttled')).toMatchObject({ kind: 'refused', lastDeliveryId: null });
  });
});
