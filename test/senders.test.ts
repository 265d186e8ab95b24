/**
 * Every sender of the catalog (src/domain/senders/catalog.ts) through the real receiver, played by
 * its fixture (test/support/senders/: signed with the sender's own library wherever one exists): its
 * handshake is answered as the sender checks it, never as HTML; a delivery it signs runs once with
 * the trigger data it carries, however often it is sent; one signed with a wrong key, or too long ago
 * where the sender signs a time, is refused with the sender's status and makes no run.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { SENDERS } from '../src/domain/senders/catalog';
import { encryptSecret } from '../src/domain/secrets';
import { robotAtWork } from '../src/client/api-client';
import { waitFor } from '../src/launch/os/wait';
import { startStack, type Stack } from './support/stack';
import { SENDER_FIXTURES } from './support/senders';
import { preparedGithubSignatures } from './support/senders/github';
import type { Answer, SentRequest } from './support/senders/fixture';

let stack: Stack;
beforeAll(async () => {
  await preparedGithubSignatures();
  stack = await startStack();
});
afterAll(() => stack.close());

/** Sends what the sender sends to the webhook URL; the answer as the sender reads it. */
async function send(url: string, sent: SentRequest): Promise<Answer> {
  const res = await stack.send(
    sent.method,
    url + sent.query,
    sent.method === 'GET' || sent.method === 'HEAD' ? undefined : sent.body,
    sent.headers,
  );
  return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: res.text };
}

/** An editor confirms the one secret a handshake left pending on the robot's URL. */
async function confirmPendingSecret(robotId: string): Promise<void> {
  const { body: robot } = await stack.api('GET', `/api/robots/${robotId}`);
  const [pending] = robot.trigger.card.handshakeSecrets.pending as Array<{ fingerprint: string }>;
  const path = `/api/robots/${robotId}/trigger/handshake-secrets/confirm`;
  expect((await stack.api('POST', path, { fingerprint: pending.fingerprint })).status).toBe(200);
}

describe.each(SENDER_FIXTURES.map((f) => [f.variant ? `${f.name} (${f.variant})` : f.name, f] as const))(
  '%s',
  (_, sender) => {
    const entry = SENDERS[sender.name];

    it('answers its handshake as it checks it, runs what it signs once, and refuses a wrong key', async () => {
      const robot = await robotAtWork(stack.client, {
        template: { ok: true },
        bodyFormat: entry.bodyFormat,
        verification: sender.verification,
      });
      const url = robot.webhookUrl;
      let recorded = 0;
      if (sender.handshake) {
        const answer = await send(url, sender.handshake.request(url, new Date()));
        sender.handshake.accepts(answer);
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
        expect(answer.headers['content-type'] ?? '').not.toMatch(/html/);
        recorded++;
      }
      // A secret the handshake gave is pending until an editor confirms it on the card (review R1).
      if (entry.secretFromHandshake) await confirmPendingSecret(robot.robotId);

      const signed = sender.signed(sender.body, url, new Date());
      const first = await send(url, signed);
      const acknowledged = entry.acknowledgeStatus ?? 200;
      expect({ status: first.status, body: first.body }).toEqual({ status: acknowledged, body: '' });
      // The very request again: one delivery.
      expect((await send(url, signed)).status).toBe(acknowledged);
      expect((await send(url, sender.signedWrongly(sender.body, url, new Date()))).status).toBe(entry.refusalStatus);
      recorded += 3;
      if (sender.toleranceSeconds !== null) {
        const long = new Date(Date.now() - (sender.toleranceSeconds + 120) * 1000);
        expect((await send(url, sender.signed(sender.body, url, long))).status).toBe(entry.refusalStatus);
        recorded++;
      }

      const deliveries = await waitFor(
        () => stack.deliveries(robot.robotId),
        (d) => d.length >= recorded,
      );
      const outcomes = deliveries.map((d) => d.outcome).sort();
      const refused = sender.toleranceSeconds !== null ? 2 : 1;
      expect(outcomes).toEqual(
        [
          ...(sender.handshake ? ['handshake'] : []),
          'duplicate',
          'processed',
          ...Array<string>(refused).fill('rejected'),
        ].sort(),
      );
      const runs = await waitFor(
        () => stack.runs(robot.robotId),
        (r) => r.length === 1 && r[0].status === 'succeeded',
      );
      expect(runs[0].trigger).toEqual(sender.triggerDataOf?.(signed) ?? sender.triggerData);
      for (const kept of [...deliveries, ...runs])
        expect(JSON.stringify(kept)).not.toContain(sender.verification.secret ?? '\u0000');
    });
  },
);

it('names the sender of an app saved before 0.8 when a receiver starts, so its forms are read as forms', async () => {
  // As 0.7 wrote it: the verification sealed, no sender in clear.
  const verification = { scheme: 'github', secret: 'a-github-secret-of-0.7' };
  const _id = randomUUID();
  await stack.models.App.collection.insertOne({
    _id,
    name: 'Saved by 0.7',
    supportsInboundTrigger: true,
    bodyFormat: 'json',
    verificationSealed: encryptSecret(stack.config.secretsKey, JSON.stringify(verification)),
    dedup: null,
    createdAt: new Date(),
  } as never);
  const receiver = await stack.startReceiver();
  await receiver.close();
  const app = await stack.models.App.findById(_id).lean();
  expect(app?.sender).toBe('github');
});

it('reads the path and query of an absolute-form request line, never its scheme and host, and answers HEAD 405', async () => {
  const robot = await robotAtWork(stack.client, {
    template: {},
    verification: { scheme: 'dropbox', secret: 'a'.repeat(15) },
  });
  const { pathname } = new URL(robot.webhookUrl);
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: new URL(robot.webhookUrl).port,
        method: 'GET',
        path: `http://elsewhere.example${pathname}?challenge=c-7`,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
  expect(status).toBe(200);
  expect((await stack.send('HEAD', `${robot.webhookUrl}?challenge=c-8`)).status).toBe(405);
});

it("answers Asana's signed heartbeat (`events: []`) 200 and records it as a handshake, with no run", async () => {
  const asana = SENDER_FIXTURES.find((f) => f.name === 'asana')!;
  const robot = await robotAtWork(stack.client, { template: { ok: true }, verification: asana.verification });
  const url = robot.webhookUrl;
  asana.handshake!.accepts(await send(url, asana.handshake!.request(url, new Date())));
  await confirmPendingSecret(robot.robotId);
  const heartbeat = await send(url, asana.signed(JSON.stringify({ events: [] }), url, new Date()));
  expect({ status: heartbeat.status, body: heartbeat.body }).toEqual({ status: 200, body: '' });
  // An event after it runs: the heartbeat made none.
  expect((await send(url, asana.signed(asana.body, url, new Date()))).status).toBe(200);
  const deliveries = await waitFor(
    () => stack.deliveries(robot.robotId),
    (d) => d.length === 3,
  );
  expect(deliveries.map((d) => d.outcome).sort()).toEqual(['handshake', 'handshake', 'processed']);
  const runs = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r.length === 1 && r[0].status === 'succeeded',
  );
  expect(runs[0].trigger).toEqual(asana.triggerData);
});
