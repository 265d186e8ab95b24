/**
 * n8n as a process for the bench's n8n phase (n8n.ts): started from `N8N_BIN` alone on loopback
 * with a fresh data folder under the temp folder (SQLite, n8n's defaults otherwise; telemetry,
 * version notifications and personalization off), ready once its REST API answers JSON; its REST
 * API as the instance owner (the session cookie kept); stopped with SIGTERM, SIGKILL after a
 * grace, its whole process group, and its folder removed (kept with BENCH_KEEP_DATA=1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exited } from '../../src/launch/os/child-processes';
import { freePorts } from '../../src/launch/os/ports';
import { waitFor } from '../../src/launch/os/wait';
import type { Settings } from '../settings';
import { log, sleep } from '../util';

const START_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 30_000;

/** A running n8n: its base URL, its REST API as the owner, and how to stop it. */
export interface N8n {
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

export async function startN8n(bin: string, s: Settings): Promise<N8n> {
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
