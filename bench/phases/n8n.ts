/**
 * n8n beside us: the same ack load as our ack path (bench/load.ts: autocannon, a unique JSON body
 * per request, one request in flight per connection) against n8n, at the same concurrency levels,
 * on the same machine and in the same run, so that our acks/s can be read beside a known product's.
 *
 * n8n comes from `N8N_BIN` (scripts/n8n.sh installs it outside the repo). It runs alone on the
 * machine (the bench stops the embedded stack first) on loopback, with a fresh data folder under
 * the temp folder (SQLite, n8n's defaults otherwise; telemetry, version notifications and
 * personalization off). The workflow: a Webhook node (POST, a fixed path, answering 200 as soon as
 * the request is received) feeding a Set node, created and activated through n8n's REST API as
 * the instance owner, whom this phase sets up. Before each level every execution of the previous
 * one has finished: n8n's count of finished executions (polled once every BENCH_POLL_S, read
 * through the REST API) has grown by at least that level's acks and none is still running. Then
 * n8n is stopped (SIGTERM, SIGKILL after a grace, its whole process group) and its folder removed
 * (kept with BENCH_KEEP_DATA=1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePorts } from '../../src/runtime/ports';
import { exited } from '../../src/runtime/child-processes';
import { waitFor } from '../../src/runtime/wait';
import { httpLoad, type HttpLoadSummary } from '../load';
import type { Settings } from '../settings';
import { log, round, sleep } from '../util';

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
const START_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 30_000;

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

/** A running n8n: its base URL, its REST API as the owner, and how to stop it. */
interface N8n {
  baseUrl: string;
  rest<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Signals n8n's process group (it runs in one of its own); false once nothing is left in it. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-child.pid!, signal);
    return true;
  } catch {
    return false;
  }
}

async function startN8n(bin: string, s: Settings): Promise<N8n> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-bench-n8n-'));
  const logFile = path.join(dataDir, 'n8n.log');
  const [port, brokerPort] = await freePorts(2);
  // Nothing of the bench's own environment: n8n reads many variables (DB_*, N8N_*, EXECUTIONS_*).
  const env: NodeJS.ProcessEnv = {
    // Its `#!/usr/bin/env node` finds the bench's Node first (the one its native modules were built for).
    PATH: [path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
    HOME: dataDir,
    N8N_USER_FOLDER: dataDir,
    N8N_PORT: String(port),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    N8N_PROTOCOL: 'http',
    N8N_SECURE_COOKIE: 'false',
    DB_TYPE: 'sqlite',
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
    // Its long-standing expression engine: 1.123's default, `vm`, needs isolated-vm's native build,
    // which scripts/n8n.sh does not make (see there); the Set node's one expression is the same either way.
    N8N_EXPRESSION_ENGINE: 'legacy',
    // No Code node, so no task runner; its broker gets a free port should a version start one anyway.
    N8N_RUNNERS_ENABLED: 'false',
    N8N_RUNNERS_BROKER_PORT: String(brokerPort),
    // The count of finished executions must not shrink while it is read.
    EXECUTIONS_DATA_PRUNE: 'false',
    N8N_LOG_LEVEL: 'warn',
  };
  const out = fs.openSync(logFile, 'a');
  // In a process group of its own, so that stopping it reaches whatever it starts.
  const child = spawn(bin, ['start'], { env, cwd: dataDir, detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  // Should the bench exit without stopping it (an uncaught error), n8n goes with it.
  const killOnExit = () => signalGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (signalGroup(child, 'SIGTERM')) {
        const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_GRACE_MS);
        await exited(child);
        clearTimeout(timer);
        // Anything left in its group (a task runner) goes too; wait until the group is empty.
        for (let i = 0; i < 50 && signalGroup(child, 'SIGKILL'); i++) await sleep(100);
      }
      process.removeListener('exit', killOnExit);
      if (s.keepData) log(`n8n's data folder and log are kept in ${dataDir}`);
      else fs.rmSync(dataDir, { recursive: true, force: true });
    })());

  const baseUrl = `http://127.0.0.1:${port}`;
  let cookie = '';
  const rest = async <T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}/rest${route}`, {
      method,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const auth = res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
    if (auth) cookie = auth.split(';')[0];
    const text = await res.text();
    if (!res.ok) throw new Error(`n8n: ${method} /rest${route} answered ${res.status}: ${text.slice(0, 500)}`);
    try {
      return (JSON.parse(text) as { data: T }).data;
    } catch {
      throw new Error(`n8n: ${method} /rest${route} answered ${res.status} with no JSON: ${text.slice(0, 200)}`);
    }
  };
  try {
    // A number while it runs (the probe's status), a string once it has exited.
    const ready = await waitFor(
      async (): Promise<number | string> =>
        spawnError || child.exitCode !== null || child.signalCode !== null
          ? `n8n exited (${spawnError?.message ?? child.exitCode ?? child.signalCode}) before it was ready`
          : // Its REST API answering JSON, not /healthz/readiness: while n8n starts, that answers 200 before
            // the routes are mounted, and the routes answer "n8n is starting up" with a 200 too.
            await fetch(`${baseUrl}/rest/settings`).then(
              async (r) => (r.status === 200 && (await r.text()).startsWith('{"data"') ? 200 : r.status + 1000),
              () => 0,
            ),
      (v) => v === 200 || typeof v === 'string',
      START_TIMEOUT_MS,
      { intervalMs: 500, message: () => `n8n did not start within ${START_TIMEOUT_MS / 1000} s` },
    );
    if (typeof ready === 'string') throw new Error(ready);
    return { baseUrl, rest, stop };
  } catch (err) {
    const lastLines = tail(logFile);
    await stop();
    throw new Error(`${(err as Error).message}; its log:\n${lastLines}`, { cause: err });
  }
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
