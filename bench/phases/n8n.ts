/**
 * n8n beside us: the same ack load as our ack path (bench/load.ts: autocannon, a unique JSON body
 * per request, one request in flight per connection) against n8n, at the same concurrency levels,
 * on the same machine and in the same run, so that our acks/s can be read beside a known product's.
 *
 * n8n comes from `N8N_BIN` (scripts/n8n.sh installs it outside the repo) and runs alone on the
 * machine (the bench stops the embedded stack first; the process: n8n-process.ts). The workflow:
 * a Webhook node (POST, a fixed path, answering 200 as soon as the request is received) feeding a
 * Set node, created and activated through n8n's REST API as
 * the instance owner, whom this phase sets up. Before each level every execution of the previous
 * one has finished: n8n's count of finished executions (polled once every BENCH_POLL_S, read
 * through the REST API) has grown by at least that level's acks and none is still running. Then
 * n8n is stopped.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { waitFor } from '../../src/launch/os/wait';
import { httpLoad, type HttpLoadSummary } from '../load';
import type { Settings } from '../settings';
import { log, round } from '../util';
import { startN8n, type N8n } from './n8n-process';

export interface N8nLevel {
  connections: number;
  /** The load's summary: acks/s (perSec), non-2xx, errors, latency p50/p95/p99. */
  ack: HttpLoadSummary;
  /** Executions of this level that n8n finished (at least the acks; a request cut at the end may add some). */
  executions: number;
  /** From the end of the load until n8n had finished every execution of the level. */
  drainS: number;
}

/** The webhook's path: the production URL is /webhook/<path>. */
const WEBHOOK_PATH = 'bench';

/** Webhook (POST /webhook/bench, answers 200 on receipt) → Set (copies the body's id). */
function workflow(): Record<string, unknown> {
  return {
    name: 'bench: webhook → set',
    nodes: [
      {
        id: randomUUID(),
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: randomUUID(),
        parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'onReceived', options: {} },
      },
      {
        id: randomUUID(),
        name: 'Set',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        position: [220, 0],
        parameters: {
          assignments: {
            assignments: [{ id: randomUUID(), name: 'id', value: '={{ $json.body.id }}', type: 'string' }],
          },
          options: {},
        },
      },
    ],
    connections: { Webhook: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
    settings: {},
    active: false,
  };
}

/** Sets up the owner, creates the workflow and activates it; resolves with the webhook's URL once it answers 200. */
async function webhookWorkflow(n8n: N8n): Promise<string> {
  await n8n.rest('POST', '/owner/setup', {
    email: 'bench@example.com',
    firstName: 'Bench',
    lastName: 'Mark',
    password: `Bench-${randomBytes(12).toString('hex')}-9`,
  });
  const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', workflow());
  await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
  const url = `${n8n.baseUrl}/webhook/${WEBHOOK_PATH}`;
  await waitFor(
    () =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"probe"}' }).then(
        (r) => r.status,
        () => 0,
      ),
    (status) => status === 200,
    60_000,
    { intervalMs: 500, message: (status) => `n8n's webhook answered ${status} for 60 s, never 200` },
  );
  return url;
}

interface ExecutionsPage {
  /** Finished executions (n8n counts every status but new and running). */
  count: number;
  results: Array<{ status: string }>;
}

/** Finished executions, and whether any is still new or running (one cheap REST read). */
async function executions(n8n: N8n): Promise<{ finished: number; running: boolean }> {
  const page = await n8n.rest<ExecutionsPage>('GET', '/executions?limit=1');
  return { finished: page.count, running: page.results.some((e) => e.status === 'new' || e.status === 'running') };
}

/** Waits until n8n has finished at least `target` executions and runs none; resolves with when that was seen. */
async function drained(n8n: N8n, target: number, s: Settings, what: string): Promise<number> {
  await waitFor(
    () => executions(n8n),
    (e) => e.finished >= target && !e.running,
    s.drainTimeoutS * 1000,
    {
      intervalMs: s.pollS * 1000,
      message: (e) =>
        `n8n finished ${e.finished} of ${target} executions ${what} within ${s.drainTimeoutS} s (BENCH_DRAIN_TIMEOUT_S)`,
    },
  );
  return Date.now();
}

/**
 * Starts n8n from `N8N_BIN`, measures each of `s.levels` with `httpLoad` against its webhook
 * (drained before each), and stops it. `cleanups` gets its stop, for the bench's own interruption.
 */
export async function n8nLevels(s: Settings, cleanups: Array<() => Promise<void>> = []): Promise<N8nLevel[]> {
  const bin = process.env.N8N_BIN;
  if (!bin || !fs.existsSync(bin)) throw new Error(`N8N_BIN is not an existing file (${bin}): run scripts/n8n.sh`);
  log(`starting n8n (${bin})`);
  const n8n = await startN8n(bin, s);
  cleanups.push(() => n8n.stop());
  try {
    const url = await webhookWorkflow(n8n);
    log('n8n: warming up (10 requests to the webhook)');
    for (let i = 0; i < 10; i++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: `n8n-warm-${i}` }),
      });
      if (res.status !== 200) throw new Error(`n8n's webhook answered ${res.status} to a warm-up request`);
      await res.arrayBuffer();
    }
    // The webhook's one answered probe and the warm-up: every execution so far.
    await drained(n8n, 11, s, 'of the warm-up');
    const levels: N8nLevel[] = [];
    for (const connections of s.levels) {
      const { finished } = await executions(n8n);
      const tag = `c${connections}-${randomBytes(3).toString('hex')}`;
      log(`n8n: ${connections} connections for ${s.durationS} s`);
      const load = await httpLoad(url, connections, s.durationS, `n8n-${tag}`);
      if (load.summary.ok === 0)
        throw new Error(
          `n8n acknowledged no request at ${connections} connections (${load.summary.non2xx} non-2xx, ` +
            `${load.summary.errors} errors)`,
        );
      log(`n8n: ${connections} connections: waiting for its ${load.summary.ok} executions to finish`);
      const at = await drained(n8n, finished + load.summary.ok, s, `at ${connections} connections`);
      const after = await executions(n8n);
      levels.push({
        connections,
        ack: load.summary,
        executions: after.finished - finished,
        drainS: round((at - load.endedAt) / 1000, 1),
      });
    }
    return levels;
  } finally {
    log('stopping n8n');
    await n8n.stop();
  }
}
