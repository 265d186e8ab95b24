/**
 * Slow senders, forgers and connection floods, on the real stack (docs/api.md, Bad input): they hold
 * nothing another robot needs. The limits against them are lowered here to be seen within a test.
 * What one delivery may make: ./hostile-senders.test.ts.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { robotAtWork } from '../src/client/api-client';
import { startStack, type Stack } from './support/stack';
import { onlyDelivery } from './support/robot-waits';
import { waitFor } from '../src/launch/os/wait';
import { KiB, MiB } from '../src/domain/limits/units';
import { SENDERS } from '../src/domain/senders/catalog';
import { microsoftGraphSender } from './support/senders/microsoft-graph';
import { twilioSender } from './support/senders/twilio';
import type { SentRequest } from './support/senders/fixture';

/** The JSON object sent padded with spaces to `bytes`: the same object, its credential as it was. */
function padded(sent: SentRequest, bytes: number): SentRequest {
  const json = sent.body.toString();
  return { ...sent, body: json.slice(0, -1) + ' '.repeat(bytes - json.length) + '}' };
}

/** Limits of this file's stack against slow senders and forgers, lowered to be seen within a test. */
const LIMITS = { HEADERS_TIMEOUT_MS: 2000, BODY_IDLE_TIMEOUT_MS: 3000, MAX_CONNECTIONS: 64, REJECTED_PER_MINUTE: 5 };

let stack: Stack;
beforeAll(async () => {
  stack = await startStack(Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [k, String(v)])));
});
afterAll(() => stack.close());

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
      const delivery = await onlyDelivery(stack, robot.robotId);
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
