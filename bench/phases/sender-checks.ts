/**
 * The price of checking a sender's request on the run path, against BENCH_BASELINE_COMMIT's code:
 * what the receiver's intake asks of an app's sender for one delivery (the signature over the exact
 * bytes, the handshake looked for before and after it, the sender's delivery id, the headers kept)
 * through each commit's own `verifyRequest` and checks, in this process, on a 2 KiB JSON event
 * signed as each sender signs. Both commits take turns batch by batch for BENCH_ABLATION_ROUNDS
 * half-seconds; printed as the median microseconds per delivery and today's ÷ the baseline's.
 */
import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildCommit } from '../build-commit';
import { performance } from 'node:perf_hooks';
import { nestedEvent } from './fields';
import { log, round } from '../util';

export interface SenderCheckRow {
  sender: string;
  todayUs: number;
  baselineUs: number;
  /** todayUs ÷ baselineUs. */
  ratio: number;
}

export interface SenderChecksResult {
  commit: string;
  rounds: number;
  rows: SenderCheckRow[];
}

type Verification = { scheme: string; [setting: string]: string };
type Headers = Record<string, string>;
interface SenderRequest {
  /** The baseline's Stripe check reads the delivery's own receipt time. */
  receivedAt: Date;
  method: string;
  publicUrl: string;
  query: URLSearchParams;
  headers: Headers;
  body: Buffer;
  receivedAtMs: number;
}
/** What intake calls of a commit (src/deliveries/request.ts and src/domain/senders/checks.ts). */
interface Checks {
  verifyRequest(v: Verification, req: unknown, request: SenderRequest): { ok: boolean };
  senderHandshake?(v: Verification, req: SenderRequest, verified: boolean): unknown;
  senderDeliveryId?(v: Verification, req: SenderRequest): unknown;
  headersRead?(v: Verification): string[];
  credentialHeaders?(v: Verification): string[];
}

const URL_ = 'https://robots.example.com/api/webhooks/bench/token';
/** Deliveries per timed batch, and batches first untimed (the JIT's warm-up). */
const BATCH = 50;
const WARM_UP = 40;
const SECRET = 'bench-signing-secret-of-32-chars';
const hmacOf = (algorithm: string, ...parts: Array<string | Buffer>) => {
  const mac = createHmac(algorithm, SECRET);
  for (const part of parts) mac.update(part);
  return mac.digest();
};

/** Each sender's app and the headers it signs `body` with, sent now. */
function senders(
  discordKey: KeyObject,
  discordPublicHex: string,
): Array<{ sender: string; v: Verification; headers: (body: Buffer) => Headers }> {
  const now = Math.floor(Date.now() / 1000);
  return [
    {
      sender: 'github',
      v: { scheme: 'github', secret: SECRET },
      headers: (b: Buffer): Headers => ({ 'x-hub-signature-256': `sha256=${hmacOf('sha256', b).toString('hex')}` }),
    },
    {
      sender: 'slack',
      v: { scheme: 'slack', secret: SECRET },
      headers: (b: Buffer): Headers => ({
        'x-slack-request-timestamp': String(now),
        'x-slack-signature': `v0=${hmacOf('sha256', `v0:${now}:`, b).toString('hex')}`,
      }),
    },
    {
      sender: 'calendly',
      v: { scheme: 'calendly', secret: SECRET },
      headers: (b: Buffer): Headers => ({
        'calendly-webhook-signature': `t=${now},v1=${hmacOf('sha256', `${now}.`, b).toString('hex')}`,
      }),
    },
    {
      sender: 'stripe',
      v: { scheme: 'stripe', secret: SECRET },
      headers: (b: Buffer): Headers => ({
        'stripe-signature': `t=${now},v1=${hmacOf('sha256', `${now}.`, b).toString('hex')}`,
      }),
    },
    {
      sender: 'gitlab',
      v: { scheme: 'gitlab', secret: SECRET },
      headers: (): Headers => ({ 'x-gitlab-token': SECRET, 'idempotency-key': 'bench-1' }),
    },
    {
      sender: 'discord',
      v: { scheme: 'discord', publicKey: discordPublicHex },
      headers: (b: Buffer): Headers => ({
        'x-signature-timestamp': String(now),
        'x-signature-ed25519': sign(null, Buffer.concat([Buffer.from(String(now)), b]), discordKey).toString('hex'),
      }),
    },
  ];
}

/** A commit's checks, loaded from its build. */
function checksOf(root: string): Checks {
  const load = (file: string) => createRequire(__filename)(path.join(root, 'dist/src', file)) as Partial<Checks>;
  return { ...load('domain/senders/checks.js'), ...load('deliveries/request.js') } as Checks;
}

/** One delivery's sender work, as intake does it, on a fresh copy of the body (nothing cached across). */
function intakeWork(checks: Checks, v: Verification, body: Buffer, headers: Headers): void {
  const request: SenderRequest = {
    method: 'POST',
    publicUrl: URL_,
    query: new URLSearchParams(),
    headers,
    body: Buffer.from(body),
    receivedAtMs: Date.now(),
    receivedAt: new Date(),
  };
  if (v.scheme !== 'stripe') {
    checks.headersRead?.(v);
    checks.credentialHeaders?.(v);
    checks.senderHandshake?.(v, request, false);
  }
  if (!checks.verifyRequest(v, request, request).ok) throw new Error(`${v.scheme}: the bench's delivery is refused`);
  if (v.scheme !== 'stripe') {
    checks.senderHandshake?.(v, request, true);
    checks.senderDeliveryId?.(v, request);
  }
}

export function senderChecks(commit: string, rounds: number): SenderChecksResult {
  log(`sender checks: today's against ${commit}'s, in this process`);
  const sides = { today: checksOf(path.resolve(__dirname, '../../..')), baseline: checksOf(buildCommit(commit)) };
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const discordHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
  const body = Buffer.from(JSON.stringify(nestedEvent()));
  const rows = senders(privateKey, discordHex).map(({ sender, v, headers }) => {
    const signed = headers(body);
    const samples: Record<'today' | 'baseline', number[]> = { today: [], baseline: [] };
    // Batches of each side in turn, for `rounds` half-seconds: drift and garbage collection fall on both.
    const batch = (side: 'today' | 'baseline') => {
      const t = performance.now();
      for (let i = 0; i < BATCH; i++) intakeWork(sides[side], v, body, signed);
      samples[side].push(((performance.now() - t) * 1000) / BATCH);
    };
    for (let i = 0; i < WARM_UP; i++) batch(i % 2 === 0 ? 'today' : 'baseline');
    samples.today.length = samples.baseline.length = 0;
    const until = performance.now() + rounds * 500;
    for (let i = 0; performance.now() < until || i < 10; i++) {
      batch(i % 2 === 0 ? 'today' : 'baseline');
      batch(i % 2 === 0 ? 'baseline' : 'today');
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const todayUs = median(samples.today);
    const baselineUs = median(samples.baseline);
    return {
      sender,
      todayUs: round(todayUs, 2),
      baselineUs: round(baselineUs, 2),
      ratio: round(todayUs / baselineUs, 3),
    };
  });
  return { commit, rounds, rows };
}
