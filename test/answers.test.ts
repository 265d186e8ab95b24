/**
 * Answers a person can act on (issue 54, item 7), through the real receiver and worker: a refusal
 * says why in one line of text a sender's console shows, with the status senders depend on, and a
 * handshake keeps its body; a token pasted with a trailing space or newline works; a wrong or old
 * token is answered as an unknown URL but logged on its robot, within the refusal throttle; Fields
 * seen shows a GitHub push's `author`; a run whose every placeholder came out empty says so; the
 * Temporal Web UI link is the operator's only.
 */
import { randomUUID } from 'node:crypto';
import { apiClient, robotAtWork, type ApiClient } from '../src/client/api-client';
import { waitFor } from '../src/launch/os/wait';
import { WRONG_TOKEN } from '../src/deliveries/receiver-records';
import { REFUSALS } from '../src/receiver/refusals';
import { startStack, type Stack } from './support/stack';
import { SENDER_FIXTURES } from './support/senders';
import { preparedGithubSignatures } from './support/senders/github';
import { metaVerification } from './support/senders/meta';
import type { Answer, SenderFixture, SentRequest } from './support/senders/fixture';
import { githubPush, withCredentials } from './support/github-push';

/** REJECTED_PER_MINUTE here: small, so the throttle is reached in a few requests. */
const REJECTED = 4;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ REJECTED_PER_MINUTE: String(REJECTED), TEMPORAL_UI_URL: 'http://127.0.0.1:8233' });
  await preparedGithubSignatures();
});
afterAll(() => stack.close());

const fixture = (name: string): SenderFixture => SENDER_FIXTURES.find((f) => f.name === name && !f.variant)!;
const withToken = (url: string, token: string) => url.replace(/[^/]+$/, token);
const senderRobot = (f: SenderFixture) => robotAtWork(stack.client, { template: {}, verification: f.verification });

/** A fixture's request sent to the URL, answered as its sender reads it. */
async function sendAs(url: string, sent: SentRequest): Promise<Answer> {
  const bodyless = sent.method === 'GET' || sent.method === 'HEAD';
  const res = await stack.send(sent.method, url + sent.query, bodyless ? undefined : sent.body, sent.headers);
  return { status: res.status, headers: Object.fromEntries(res.headers), body: res.text };
}

/** What a refusal must look like: the status, one line of text/plain, never sniffed. */
function expectRefusal(answer: Answer, status: number, line: string) {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: `${line}\n` });
  expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
}

const rejectedOf = async (robotId: string) =>
  ((await stack.deliveries(robotId)) as Array<{ outcome: string; reason?: string }>).filter(
    (d) => d.outcome === 'rejected',
  );

describe('a refusal answers one line of text saying why, with the status senders depend on', () => {
  it('an unknown identifier, a robot stopped, a wrong token: one answer, word for word', async () => {
    const atWork = await stack.robotAtWork();
    const stopped = await stack.robotAtWork();
    await stack.client.json('POST', `/api/robots/${stopped.robotId}/stop`);
    const unknown = atWork.webhookUrl.replace(/custom:[0-9a-f-]+/, `custom:${randomUUID()}`);
    const answers = await Promise.all(
      [unknown, atWork.webhookUrl.replace(/custom:[0-9a-f-]+/, 'nope'), stopped.webhookUrl].map((url) =>
        sendAs(url, { method: 'POST', query: '', headers: {}, body: '{"a":1}' }),
      ),
    );
    answers.push(await sendAs(withToken(atWork.webhookUrl, 'A'.repeat(43)), { ...post('{"a":1}') }));
    for (const answer of answers) {
      expectRefusal(answer, 404, 'no webhook at this URL: it is unknown or its robot is stopped');
      // Nothing else tells them apart: the same headers but the date and each request's own id.
      const { date: _date, 'x-request-id': _id, ...headers } = answer.headers;
      const { date: _first, 'x-request-id': _firstId, ...first } = answers[0].headers;
      expect(headers).toEqual(first);
    }
    expect(new Set(answers.map((a) => a.headers['x-request-id'])).size).toBe(answers.length);
  });

  it.each([
    ['github', 400],
    ['discord', 401],
    ['gocardless', 498],
  ])('%s signed with another secret: %i and "check the signing secret"', async (name, status) => {
    const f = fixture(name);
    const robot = await senderRobot(f);
    const answer = await sendAs(robot.webhookUrl, f.signedWrongly(f.body, robot.webhookUrl, new Date()));
    expectRefusal(answer, status, 'signature does not match: check the signing secret');
  });

  it('a signature header missing, a signed time too old: each says what to check', async () => {
    const github = fixture('github');
    const robot = await senderRobot(github);
    expectRefusal(await sendAs(robot.webhookUrl, post(github.body)), 400, REFUSALS.missing);
    const slack = fixture('slack');
    const slackRobot = await senderRobot(slack);
    const old = new Date(Date.now() - (slack.toleranceSeconds! + 120) * 1000);
    expectRefusal(
      await sendAs(slackRobot.webhookUrl, slack.signed(slack.body, slackRobot.webhookUrl, old)),
      400,
      REFUSALS.stale,
    );
    const [missing, stale] = await waitFor(
      () => Promise.all([rejectedOf(robot.robotId), rejectedOf(slackRobot.robotId)]),
      ([a, b]) => a.length === 1 && b.length === 1,
    );
    // The exact reason is the robot's to read.
    expect(missing[0].reason).toMatch(/^missing .*header$/);
    expect(stale[0].reason).toMatch(/^timestamp outside/);
  });

  it("handshakes keep the body their sender checks; Meta's with another verify token is 403 and says so", async () => {
    for (const name of ['meta', 'slack', 'discord']) {
      const f = fixture(name);
      const robot = await senderRobot(f);
      const answer = await sendAs(robot.webhookUrl, f.handshake!.request(robot.webhookUrl, new Date()));
      expect(() => f.handshake!.accepts(answer)).not.toThrow();
    }
    const meta = await senderRobot(fixture('meta'));
    const wrong = await sendAs(meta.webhookUrl, metaVerification('another-verify-token-of-24'));
    expectRefusal(wrong, 403, 'verify token does not match: check the verify token set on the app');
  });

  it('a method the URL does not take, and a URL past its refusals this minute', async () => {
    const robot = await senderRobot(fixture('github'));
    const res = await stack.send('DELETE', robot.webhookUrl);
    const deleted = { status: res.status, headers: Object.fromEntries(res.headers), body: res.text };
    expectRefusal(deleted, 405, 'method not allowed: send POST or PUT');
    expect(deleted.headers.allow).toBe('POST, PUT');
    const statuses: number[] = [];
    let last: Answer | undefined;
    for (let i = 0; i <= REJECTED; i++) {
      last = await sendAs(robot.webhookUrl, post(`{"n":${i}}`));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(REJECTED).fill(400), 429]);
    expectRefusal(last!, 429, REFUSALS.throttled);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

const post = (body: string): SentRequest => ({ method: 'POST', query: '', headers: {}, body });

it.each(['%20', '%0A', '%0D%0A', '+', '%20%0D%0A'])(
  'a token pasted with a trailing %s still reaches its robot',
  async (tail) => {
    const robot = await stack.robotAtWork();
    const res = await stack.send('POST', robot.webhookUrl + tail, '{"pasted":true}');
    expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: '' });
    const [run] = await waitFor(
      () => stack.runs(robot.robotId),
      (runs) => runs[0]?.status === 'succeeded',
    );
    expect(run.trigger).toEqual({ pasted: true });
  },
);

describe('a wrong or old token on a known identifier', () => {
  it('is answered as an unknown URL, and logged on its robot as "wrong or old token"', async () => {
    const robot = await stack.robotAtWork();
    const wrong = await sendAs(withToken(robot.webhookUrl, 'B'.repeat(43)), post('{"a":1}'));
    expectRefusal(wrong, 404, REFUSALS.unknown);
    // Rotated with no grace: the old URL is an old token.
    const rotated = await stack.client.json<{ trigger: { card: { webhookUrl: string } } }>(
      'POST',
      `/api/robots/${robot.robotId}/trigger/rotate`,
      { graceHours: 0 },
    );
    expectRefusal(await sendAs(robot.webhookUrl, post('{"a":2}')), 404, REFUSALS.unknown);
    expect((await stack.send('POST', rotated.trigger.card.webhookUrl, '{"a":3}')).status).toBe(200);
    const rejected = await waitFor(
      () => rejectedOf(robot.robotId),
      (d) => d.length === 2,
    );
    expect(rejected.map((d) => d.reason)).toEqual([WRONG_TOKEN, WRONG_TOKEN]);
    expect(WRONG_TOKEN).toBe('wrong or old token');
  });

  it("is throttled with the URL's other refusals: a stranger guessing tokens fills nothing and learns nothing", async () => {
    const github = fixture('github');
    const robot = await senderRobot(github);
    for (let i = 0; i < REJECTED + 3; i++) {
      const guess = withToken(robot.webhookUrl, `${i}`.padStart(43, 'C'));
      expectRefusal(await sendAs(guess, post('{"guess":true}')), 404, REFUSALS.unknown);
    }
    // The same throttle as forgeries: the URL's refusals are used up this minute.
    const forged = await sendAs(robot.webhookUrl, github.signedWrongly(github.body, robot.webhookUrl, new Date()));
    expectRefusal(forged, 429, REFUSALS.throttled);
    // A delivery signed right is still taken; once it is in the log, so is every refusal recorded.
    const signed = await sendAs(robot.webhookUrl, github.signed(github.body, robot.webhookUrl, new Date()));
    expect(signed.status).toBe(200);
    const log = await waitFor(
      () => stack.deliveries(robot.robotId) as Promise<Array<{ outcome: string; reason?: string }>>,
      (d) => d.some((x) => x.outcome === 'processed') && d.filter((x) => x.outcome === 'rejected').length >= REJECTED,
    );
    expect(log.filter((d) => d.outcome === 'rejected').map((d) => d.reason)).toEqual(Array(REJECTED).fill(WRONG_TOKEN));
  });
});

it("Fields seen shows a GitHub push's author and pusher, and redacts only the credentials", async () => {
  const robot = await stack.robotAtWork({ template: { who: '{{trigger.head_commit.author.name}}' } });
  expect((await stack.send('POST', robot.webhookUrl, JSON.stringify(withCredentials))).status).toBe(200);
  const { fields } = await waitFor(
    () =>
      stack.client.json<{ fields: Array<{ path: string; example: string | null }> }>(
        'GET',
        `/api/robots/${robot.robotId}/fields`,
      ),
    (f) => f.fields.length > 0,
  );
  const example = (path: string) => fields.find((f) => f.path === path)?.example;
  expect(example('head_commit.author.name')).toBe(githubPush.head_commit.author.name);
  expect(example('commits[0].author.email')).toBe('ada@example.com');
  expect(example('pusher.name')).toBe('ada-l');
  expect(example('sender.node_id')).toBe(githubPush.sender.node_id);
  expect(example('installation.access_token')).toBe('[redacted]');
  expect(example('hook.config.secret')).toBe('[redacted]');
  expect(example('Authorization')).toBe('[redacted]');
});

describe('a run whose every placeholder came out empty', () => {
  it('says so with a hint naming the body format; a run with one placeholder filled has none', async () => {
    const empty = await stack.robotAtWork({
      template: { a: '{{trigger.order.id}}', b: 'total: {{trigger.order.total}}' },
    });
    const text = await stack.robotAtWork({ bodyFormat: 'text', template: { a: '{{trigger.order.id}}' } });
    const filled = await stack.robotAtWork({ template: { a: '{{trigger.order.id}}', b: '{{trigger.x}}' } });
    for (const robot of [empty, text, filled]) await stack.send('POST', robot.webhookUrl, '{"order":{"id":7}}');
    const [[emptyRun], [textRun], [filledRun]] = await Promise.all(
      [empty, text, filled].map((robot) =>
        waitFor(
          () => stack.runs(robot.robotId),
          (runs) => runs[0]?.status === 'succeeded',
        ),
      ),
    );
    // The JSON app's robot asked for paths the body does not have.
    await stack.send('POST', empty.webhookUrl, '{"other":1}');
    const runs = await waitFor(
      () => stack.runs(empty.robotId),
      (r) => r.length === 2 && r.every((x) => x.status === 'succeeded'),
    );
    const missed = runs.find((r) => r.trigger.other === 1);
    expect(missed.hint).toBe(
      "every placeholder in this run's steps came out empty: check the paths against Fields seen; " +
        'the body format is json',
    );
    expect(emptyRun).not.toHaveProperty('hint');
    expect(textRun.hint).toBe(
      "every placeholder in this run's steps came out empty: check the paths against Fields seen; " +
        'the body format is text',
    );
    expect(filledRun).not.toHaveProperty('hint');
  });
});

describe('the Temporal Web UI link', () => {
  let key: ApiClient;
  beforeAll(async () => {
    const made = await stack.client.json<{ key: string }>('POST', '/api/workspaces/default/keys', {
      name: `owner ${randomUUID()}`,
      role: 'owner',
    });
    key = apiClient(stack.baseUrl, made.key);
  });

  it("is in a run's and a delivery's answer for the operator only", async () => {
    const robot = await stack.robotAtWork();
    await stack.send('POST', robot.webhookUrl, '{"a":1}');
    const [run] = await waitFor(
      () => stack.runs(robot.robotId),
      (runs) => runs[0]?.status === 'succeeded',
    );
    expect(run.workflowUrl).toMatch(/^http:\/\/127\.0\.0\.1:8233\/namespaces\/.+\/workflows\?query=/);
    const [delivery] = await stack.deliveries(robot.robotId);
    expect(delivery.workflowUrl).toMatch(/^http:\/\/127\.0\.0\.1:8233\//);

    const asKey = await key.json(`GET`, `/api/runs/${run.id}`);
    expect(asKey.id).toBe(run.id);
    expect(asKey).not.toHaveProperty('workflowUrl');
    const { deliveries } = await key.json('GET', `/api/robots/${robot.robotId}/deliveries`);
    expect(deliveries[0].id).toBe(delivery.id);
    expect(deliveries[0]).not.toHaveProperty('workflowUrl');
    expect(await key.json('GET', `/api/deliveries/${delivery.id}`)).not.toHaveProperty('workflowUrl');
  });
});
