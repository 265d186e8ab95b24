/**
 * Several receivers and workers on one Temporal server (PostgreSQL, 4 history shards): the same
 * delivery raced through both receivers is one run, and a receiver and a worker killed with
 * SIGKILL mid-burst or mid-CSV lose and double nothing (their supervisors start them again).
 */
import { Connection } from '@temporalio/client';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEDUP_KEY_MAX_BYTES } from '../../src/domain/dedup';
import { waitFor } from '../../src/launch/os/wait';
import { expectCsvSurvives, expectExactlyOneRunEach, range, sendDeliveries } from '../faults/deliveries';
import { useClusterStack } from './cluster-stack';

const stack = useClusterStack();

/** The receiver's URL of a robot's webhook on another base (a receiver's own address). */
const on = (webhookUrl: string, base: string) => base + new URL(webhookUrl).pathname;

it('makes one run of each delivery sent to both receivers at the same moment', async () => {
  const robot = await stack.robotAtWork();
  const ids = range(0, 50);
  const answers = await Promise.all(
    ids.flatMap((id) =>
      stack.receiverUrls.map(async (base) => {
        const res = await fetch(on(robot.webhookUrl, base), { method: 'POST', body: JSON.stringify({ id }) });
        return res.status;
      }),
    ),
  );
  expect(answers).toEqual(answers.map(() => 200));
  await expectExactlyOneRunEach(stack, robot.robotId, new Set(ids));
  // The other copy of each is in the log as its duplicate.
  const counts = await waitFor(
    () => stack.counts(robot.robotId),
    (c) => c.deliveries + c.duplicates === 2 * ids.length,
  );
  expect(counts).toMatchObject({ deliveries: ids.length, duplicates: ids.length });
});

it('spreads deliveries over both receivers through the entry', async () => {
  const robot = await stack.robotAtWork();
  const { accepted } = await sendDeliveries(robot.webhookUrl, range(0, 40), { concurrency: 4 });
  expect(accepted.size).toBe(40);
  await expectExactlyOneRunEach(stack, robot.robotId, accepted);
  // Each receiver counted some of them (its own metrics port).
  const answered = await Promise.all(
    stack.receiverMetricsUrls.map(async (base) => {
      const text = await (await fetch(`${base}/metrics`)).text();
      return [...text.matchAll(/^webhooks_delivery_responses_total\{code="200"\} (\d+)/gm)].reduce(
        (n, m) => n + Number(m[1]),
        0,
      );
    }),
  );
  expect(answered.every((n) => n > 0)).toBe(true);
});

it('loses and doubles nothing when a receiver and a worker are killed during a burst', async () => {
  const robot = await stack.robotAtWork();
  const sending = sendDeliveries(robot.webhookUrl, range(0, 1000), { retryUntil200: true });
  await waitFor(
    () => stack.counts(robot.robotId),
    (c) => c.succeeded >= 100,
  );
  const receiver = stack.cluster.service('receiver', 0).current();
  const worker = stack.cluster.service('worker', 0).current();
  receiver.child.kill('SIGKILL');
  worker.child.kill('SIGKILL');
  const { accepted } = await sending;
  expect(accepted.size).toBe(1000);
  await expectExactlyOneRunEach(stack, robot.robotId, accepted);
  expect((await stack.counts(robot.robotId)).deliveries).toBe(1000);
  // Both were started again by their supervisors.
  expect(stack.cluster.service('receiver', 0).current()).not.toBe(receiver);
  expect(stack.cluster.service('worker', 0).current()).not.toBe(worker);
});

it('loses and doubles no row when a receiver and a worker are killed during a 1,500-row CSV', async () => {
  // Killed a third of the way through, before the fan-out's continue-as-new (RUNS_PER_CONTINUATION).
  const rows = 1500;
  await expectCsvSurvives(stack, rows, async (robotId) => {
    stack.cluster.service('worker', 1).current().child.kill('SIGKILL');
    stack.cluster.service('receiver', 1).current().child.kill('SIGKILL');
    expect((await stack.counts(robotId)).succeeded).toBeLessThan(rows);
  });
});

it("fits Temporal server's 255-byte workflow IDs: a delivery with the longest key a sender may send runs", async () => {
  const robot = await stack.robotAtWork();
  // Short enough to be used as it is, too long for that, and not printable ASCII (Latin-1 bytes).
  const keys = ['k'.repeat(DEDUP_KEY_MAX_BYTES - 'idempotency-key:'.length), 'k'.repeat(1000), 'clé-'.repeat(100)];
  for (const [i, key] of keys.entries()) {
    const res = await fetch(robot.webhookUrl, {
      method: 'POST',
      body: JSON.stringify({ id: i }),
      headers: { 'idempotency-key': key },
    });
    expect(res.status).toBe(200);
  }
  await expectExactlyOneRunEach(stack, robot.robotId, new Set([0, 1, 2]));
});

it('sends a management request that stalls at a receiver to no other receiver: answered 504, done at most once', async () => {
  const before = await refusedBy();
  const stalled = stack.cluster.service('receiver', 0).current().child;
  stalled.kill('SIGSTOP');
  const names = range(0, 4).map((i) => `once-${i}-${Date.now()}`);
  let answers: number[];
  try {
    // Round robin: half of them reach the stalled receiver.
    answers = await Promise.all(names.map((name) => createRobot(stack.baseUrl, name)));
  } finally {
    stalled.kill('SIGCONT');
  }
  // Refused at once by the receiver that answers (no such app); the stalled ones time out at the entry.
  expect(answers.filter((s) => s === 504)).toHaveLength(2);
  expect(answers.filter((s) => s === 400)).toHaveLength(2);
  // Once the resumed receiver answers a request of its own, it has taken its earlier connections: it
  // handled each stalled request at most once. (It may handle none: the entry streams the body and,
  // past its read timeout, closes the connection, whose unread request the kernel may then drop.)
  expect(await createRobot(stack.receiverUrls[0], `barrier-${Date.now()}`)).toBe(400);
  const after = await refusedBy();
  expect(after[1] - before[1]).toBe(2); // the entry sent none of them on to the other receiver
  expect(after[0] - before[0] - 1).toBeLessThanOrEqual(2);
});

it('is closed by default: Temporal takes no client without its certificate, PostgreSQL no connection without the password', async () => {
  const { tls } = stack.cluster;
  const address = stack.cluster.temporalAddress;
  const reach = async (options: Parameters<typeof Connection.connect>[0]) => {
    try {
      const c = await Connection.connect({ ...options, connectTimeout: 5000 });
      try {
        await c.withDeadline(Date.now() + 5000, () => c.workflowService.getSystemInfo({}));
        return 'answered';
      } finally {
        await c.close();
      }
    } catch {
      return 'refused';
    }
  };
  expect(await reach({ address })).toBe('refused');
  const ca = fs.readFileSync(tls.ca);
  expect(await reach({ address, tls: { serverRootCACertificate: ca, serverNameOverride: tls.serverName } })).toBe(
    'refused',
  );
  const clientCertPair = { crt: fs.readFileSync(tls.clientCert), key: fs.readFileSync(tls.clientKey) };
  expect(
    await reach({ address, tls: { serverRootCACertificate: ca, serverNameOverride: tls.serverName, clientCertPair } }),
  ).toBe('answered');

  const passwordFile = path.join(stack.dataDir, 'postgres-password');
  expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);
  const psql = (password?: string) =>
    promisify(execFile)(
      path.join(path.dirname(process.env.POSTGRES_BIN!), 'psql'),
      // -w: never ask for a password (one not given is refused, not prompted for).
      [
        '-w',
        '-h',
        '127.0.0.1',
        '-p',
        String(stack.postgresPort),
        '-U',
        'temporal',
        '-d',
        'postgres',
        '-tAc',
        'select 1',
      ],
      { env: { ...process.env, ...(password === undefined ? {} : { PGPASSWORD: password }), PGCONNECT_TIMEOUT: '5' } },
    ).then(
      (r) => r.stdout.trim(),
      () => 'refused',
    );
  expect(await psql()).toBe('refused');
  expect(await psql('wrong')).toBe('refused');
  expect(await psql(fs.readFileSync(passwordFile, 'utf8').trim())).toBe('1');
});

/** Creates a robot of an app that does not exist (a 400), by a raw request: the entry's 504 is nginx's own page. */
function createRobot(url: string, name: string): Promise<number> {
  return fetch(`${url}/api/robots`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, trigger: { appId: 'none' } }),
  }).then((r) => r.status);
}

/** Each receiver's `400` answers to the API so far. */
async function refusedBy(): Promise<number[]> {
  return Promise.all(
    stack.receiverMetricsUrls.map(async (u) => {
      const text = await (await fetch(`${u}/metrics`)).text();
      return Number(/^webhooks_api_responses_total\{code="400"\} (\d+)/m.exec(text)?.[1] ?? 0);
    }),
  );
}
