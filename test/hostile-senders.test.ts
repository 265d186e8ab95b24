/**
 * A sender who means harm, on the real stack (docs/api.md, Bad input): what one delivery may make
 * is capped (DeliveryCaps: here lowered, so the worst allowed CSV is small enough to run in a
 * test), and while the worst allowed CSV fans out another robot's delivery still runs at once;
 * slow senders, forgers and connection floods hold nothing another robot needs.
 */
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { robotAtWork } from '../src/client/api-client';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';
import { KiB, MiB } from '../src/domain/limits/units';
import { SENDERS } from '../src/domain/senders/catalog';
import { FanOutQuota } from '../src/deliveries/fanout-quota';
import { DEFAULT_WORKSPACE } from '../src/domain/workspaces';
import { microsoftGraphSender } from './support/senders/microsoft-graph';
import { twilioSender } from './support/senders/twilio';
import type { SentRequest } from './support/senders/fixture';

/** The JSON object sent padded with spaces to `bytes`: the same object, its credential as it was. */
function padded(sent: SentRequest, bytes: number): SentRequest {
  const json = sent.body.toString();
  return { ...sent, body: json.slice(0, -1) + ' '.repeat(bytes - json.length) + '}' };
}

/** The caps of this file's stack: small enough that the worst allowed CSV runs in about a minute. */
const CAPS = {
  CSV_MAX_ROWS: 1500,
  CSV_MAX_COLUMNS: 50,
  CSV_MAX_CELL_BYTES: 4096,
  MAX_TRIGGER_BYTES: 1024 * 1024,
  FANOUT_ROWS_PER_HOUR: 2000,
};

/** The fan-out quota of this file's stack, as its worker counts it. */
const CAPS_OF_QUOTA = { FANOUT_ROWS_PER_HOUR: CAPS.FANOUT_ROWS_PER_HOUR, FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: Infinity };

/** Limits of this file's stack against slow senders and forgers, lowered to be seen within a test. */
const LIMITS = { HEADERS_TIMEOUT_MS: 2000, BODY_IDLE_TIMEOUT_MS: 3000, MAX_CONNECTIONS: 64, REJECTED_PER_MINUTE: 5 };

let stack: Stack;
beforeAll(async () => {
  const settings = { ...CAPS, ...LIMITS };
  stack = await startStack(Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, String(v)])));
});
afterAll(() => stack.close());

async function onlyDelivery(robotId: string) {
  const [delivery] = await waitFor(
    () => stack.deliveries(robotId),
    (d) => d.length === 1,
  );
  return delivery;
}

describe('caps on what one delivery makes', () => {
  it('records a CSV of one row more than CSV_MAX_ROWS as failed, naming the cap, with no run', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'csv' });
    const body = `n\n${Array.from({ length: CAPS.CSV_MAX_ROWS + 1 }, (_, i) => i).join('\n')}\n`;
    expect((await stack.send('POST', robot.webhookUrl, body)).status).toBe(200);
    expect(await onlyDelivery(robot.robotId)).toMatchObject({
      outcome: 'failed',
      error: `over CSV_MAX_ROWS: more than ${CAPS.CSV_MAX_ROWS} rows`,
    });
    const failed = await stack.temporal.workflow.getHandle((await onlyDelivery(robot.robotId)).workflowId).describe();
    expect(failed.status.name).toBe('FAILED');
    expect(await stack.runs(robot.robotId)).toEqual([]);
  });

  it('refuses a row wider than CSV_MAX_COLUMNS and a cell over CSV_MAX_CELL_BYTES', async () => {
    const wide = await stack.robotAtWork({ bodyFormat: 'csv' });
    const header = Array.from({ length: CAPS.CSV_MAX_COLUMNS + 1 }, (_, i) => `c${i}`).join(',');
    await stack.send('POST', wide.webhookUrl, `${header}\n1\n`);
    expect((await onlyDelivery(wide.robotId)).error).toBe(
      `over CSV_MAX_COLUMNS: a row of ${CAPS.CSV_MAX_COLUMNS + 1} columns (at most ${CAPS.CSV_MAX_COLUMNS})`,
    );
    const long = await stack.robotAtWork({ bodyFormat: 'csv' });
    await stack.send('POST', long.webhookUrl, `a\n${'x'.repeat(CAPS.CSV_MAX_CELL_BYTES + 1)}\n`);
    expect((await onlyDelivery(long.robotId)).error).toBe(
      `over CSV_MAX_CELL_BYTES: a cell of more than ${CAPS.CSV_MAX_CELL_BYTES} bytes`,
    );
    expect([...(await stack.runs(wide.robotId)), ...(await stack.runs(long.robotId))]).toEqual([]);
  });

  it('refuses a column name over CSV_MAX_HEADER_CELL_BYTES: it would be repeated in every row (review #2b)', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'csv' });
    const name = 'n'.repeat(stack.config.deliveryCaps.CSV_MAX_HEADER_CELL_BYTES + 1);
    await stack.send('POST', robot.webhookUrl, `${name}\n${'a\n'.repeat(500)}`);
    expect((await onlyDelivery(robot.robotId)).error).toBe(
      `over CSV_MAX_HEADER_CELL_BYTES: a column name of more than ${stack.config.deliveryCaps.CSV_MAX_HEADER_CELL_BYTES} bytes`,
    );
    expect(await stack.runs(robot.robotId)).toEqual([]);
  });

  it('fails a CSV whose rows would pass what is left of its URL’s FANOUT_ROWS_PER_HOUR, naming it; stopped rows do not count', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'csv' });
    const { body: shown } = await stack.api('GET', `/api/robots/${robot.robotId}`);
    // Earlier deliveries of this hour made 1900 runs (counted as a worker counts them, without making them here).
    const earlier = {
      deliveryId: randomUUID(),
      triggerIdentifier: shown.trigger.identifier,
      receivedAt: new Date().toISOString(),
    };
    await new FanOutQuota(stack.models, CAPS_OF_QUOTA).charge({ ...earlier, workspaceId: DEFAULT_WORKSPACE }, 1900);
    const csv = (rows: number, from: number) => `n\n${Array.from({ length: rows }, (_, i) => from + i).join('\n')}\n`;
    const outcomes: string[] = [];
    const send = async (body: string) => {
      expect((await stack.send('POST', robot.webhookUrl, body)).status).toBe(200);
      const deliveries = await waitFor(
        () => stack.deliveries(robot.robotId),
        (d) => d.length === outcomes.length + 1,
      );
      outcomes.push(deliveries[0].outcome === 'failed' ? deliveries[0].error : deliveries[0].outcome);
    };
    // Every row stopped by a rule: no run, and nothing counted (review R6 (b)).
    const rules = { match: 'all', conditions: [{ field: 'trigger.n', op: 'equals', value: 'none' }] };
    expect((await stack.api('PATCH', `/api/robots/${robot.robotId}`, { rules })).status).toBe(200);
    await send(csv(200, 1900));
    // The same rows let through would make 200 runs: past what is left of the hour.
    expect((await stack.api('PATCH', `/api/robots/${robot.robotId}`, { rules: null })).status).toBe(200);
    await send(csv(200, 2100));
    expect(outcomes).toEqual([
      'filtered',
      `over FANOUT_ROWS_PER_HOUR: this URL's CSV deliveries made 1900 rows into runs this hour, and 200 more ` +
        `would pass ${CAPS.FANOUT_ROWS_PER_HOUR}`,
    ]);
  });

  it('refuses trigger data over MAX_TRIGGER_BYTES, in any format', async () => {
    const robot = await stack.robotAtWork();
    const body = JSON.stringify({ big: 'x'.repeat(CAPS.MAX_TRIGGER_BYTES) });
    expect((await stack.send('POST', robot.webhookUrl, body)).status).toBe(200);
    expect((await onlyDelivery(robot.robotId)).error).toBe(
      `over MAX_TRIGGER_BYTES: more than ${CAPS.MAX_TRIGGER_BYTES} bytes of trigger data`,
    );
  });

  it('pads nothing into existence: a wide header over one-cell rows makes runs of one column each', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'csv' });
    const header = Array.from({ length: CAPS.CSV_MAX_COLUMNS }, (_, i) => `column_${i}`).join(',');
    expect((await stack.send('POST', robot.webhookUrl, `${header}\nx\ny\n`)).status).toBe(200);
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r.length === 2 && r.every((x) => x.status === 'succeeded'),
    );
    expect(runs.map((r) => r.trigger).sort((a, b) => a.column_0.localeCompare(b.column_0))).toEqual([
      { column_0: 'x' },
      { column_0: 'y' },
    ]);
  });
});

it('runs another robot’s delivery at once while the worst allowed CSV fans out (fair sharing)', async () => {
  const bulk = await stack.robotAtWork({ bodyFormat: 'csv' });
  const other = await stack.robotAtWork();
  const rows = Array.from({ length: CAPS.CSV_MAX_ROWS }, (_, i) => i).join('\n');
  expect((await stack.send('POST', bulk.webhookUrl, `n\n${rows}\n`)).status).toBe(200);
  // The fan-out is under way: its runs are stored and the first have started.
  await waitFor(
    () => stack.client.json('GET', `/api/robots/${bulk.robotId}`),
    (r) => r.runCounts.succeeded > 0,
    120_000,
  );
  expect((await stack.send('POST', other.webhookUrl, '{"urgent":true}')).status).toBe(200);
  await waitFor(
    () => stack.runs(other.robotId),
    (r) => r[0]?.status === 'succeeded',
    120_000,
  );
  // Done while most of the CSV still waits: it did not queue behind the whole fan-out.
  const { runCounts } = await stack.client.json('GET', `/api/robots/${bulk.robotId}`);
  expect(runCounts.succeeded).toBeLessThan(CAPS.CSV_MAX_ROWS / 2);
});

describe('slow senders, floods and forgers', () => {
  it('answers another robot 200 while ten slow uploads, each announcing the largest body, hold one URL', async () => {
    const slow = await stack.robotAtWork();
    const other = await stack.robotAtWork();
    const { port } = new URL(slow.webhookUrl);
    const uploads = Array.from({ length: 10 }, () => {
      const req = http.request(slow.webhookUrl.replace('localhost', '127.0.0.1'), {
        method: 'POST',
        headers: { 'content-length': String(stack.config.maxBodyBytes) },
        port,
      });
      req.on('error', () => undefined);
      req.write(Buffer.alloc(64 * 1024, 'x'));
      return req;
    });
    // A byte now and then, well within BODY_IDLE_TIMEOUT_MS: they stay open through what follows.
    const trickle = setInterval(() => uploads.forEach((u) => u.write('x')), LIMITS.BODY_IDLE_TIMEOUT_MS / 3);
    try {
      for (let n = 0; n < 5; n++)
        expect((await stack.send('POST', other.webhookUrl, JSON.stringify({ n }))).status).toBe(200);
    } finally {
      clearInterval(trickle);
      uploads.forEach((u) => u.destroy());
    }
    const runs = await waitFor(
      () => stack.runs(other.robotId),
      (r) => r.length === 5 && r.every((run) => run.status === 'succeeded'),
    );
    expect(runs).toHaveLength(5);
  });

  it('closes a connection whose headers do not arrive within HEADERS_TIMEOUT_MS', async () => {
    const { hostname, port } = new URL(stack.baseUrl);
    const socket = net.connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('POST /api/webhooks/custom:x/y HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const trickle = setInterval(() => socket.write('a'), 200); // a header that never ends
    await closed;
    clearInterval(trickle);
    expect(answer).toMatch(/^(HTTP\/1\.1 408 |$)/);
  });

  it('at MAX_CONNECTIONS, closes idle connections to make room: a sender is served while more sit idle', async () => {
    const { port } = new URL(stack.baseUrl);
    const refused = async () => (await stack.metrics.receiver.connectionsRefused.get()).values[0]?.value ?? 0;
    const before = await refused();
    // Connections that send nothing, more than the cap: each past it makes room by closing an older one.
    const sockets = Array.from({ length: LIMITS.MAX_CONNECTIONS + 8 }, () => {
      const socket = net.connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      return socket;
    });
    try {
      await Promise.all(sockets.map((s) => new Promise((resolve) => s.once('connect', resolve))));
      const robot = await stack.robotAtWork();
      expect((await stack.send('POST', robot.webhookUrl, '{"among idle connections":true}')).status).toBe(200);
      expect((await refused()) - before).toBe(0);
      await waitFor(
        () => Promise.resolve(sockets.filter((s) => s.destroyed || s.closed).length),
        (n) => n >= 8,
      );
    } finally {
      sockets.forEach((s) => s.destroy());
    }
  });

  it('parses nothing past the unsigned budget: a 2 MiB Twilio form and a 100 KiB Graph batch are refused (review R5)', async () => {
    // Each carries its real credential: refused for its size alone, so it was never decoded.
    const cases = [
      {
        sender: twilioSender,
        sent: (url: string) => twilioSender.signed(`From=%2B15550001111&Body=${'a'.repeat(2 * MiB)}`, url, new Date()),
        reason: /^a form of more than 1048576 bytes/,
      },
      {
        sender: microsoftGraphSender,
        sent: (url: string) =>
          padded(microsoftGraphSender.signed(microsoftGraphSender.body, url, new Date()), 100 * KiB),
        reason: /^a body of more than 65536 bytes/,
      },
    ];
    for (const { sender, sent, reason } of cases) {
      const robot = await robotAtWork(stack.client, {
        template: { ok: true },
        bodyFormat: SENDERS[sender.name].bodyFormat,
        verification: sender.verification,
      });
      const large = sent(robot.webhookUrl);
      const res = await stack.send(large.method, robot.webhookUrl + large.query, large.body, large.headers);
      expect(res.status).toBe(SENDERS[sender.name].refusalStatus);
      const delivery = await onlyDelivery(robot.robotId);
      expect({ outcome: delivery.outcome, reason: delivery.reason }).toEqual({
        outcome: 'rejected',
        reason: expect.stringMatching(reason),
      });
      // Within the bound, the same credential runs.
      const small = sender.signed(sender.body, robot.webhookUrl, new Date());
      expect((await stack.send(small.method, robot.webhookUrl + small.query, small.body, small.headers)).status).toBe(
        200,
      );
    }
  });

  it('records at most REJECTED_PER_MINUTE forgeries of one URL a minute, then answers 429; a signed delivery still runs', async () => {
    const secret = 'signing-secret-' + 'x'.repeat(16);
    const robot = await robotAtWork(stack.client, {
      template: { n: '{{trigger.n}}' },
      verification: { scheme: 'github', secret },
    });
    const statuses = [];
    for (let i = 0; i < LIMITS.REJECTED_PER_MINUTE + 3; i++) {
      const res = await stack.send('POST', robot.webhookUrl, `{"forged":${i}}`, { 'x-hub-signature-256': 'sha256=00' });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([...Array(LIMITS.REJECTED_PER_MINUTE).fill(400), 429, 429, 429]);
    const body = '{"n":1}';
    const signature = 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');
    expect((await stack.send('POST', robot.webhookUrl, body, { 'x-hub-signature-256': signature })).status).toBe(200);
    const deliveries = await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.some((x) => x.outcome === 'processed'),
    );
    expect(deliveries.filter((d) => d.outcome === 'rejected')).toHaveLength(LIMITS.REJECTED_PER_MINUTE);
  });
});
