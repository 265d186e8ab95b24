/**
 * The load generators: HTTP POSTs of JSON bodies with unique ids (autocannon, in this process)
 * and bare Temporal workflow starts, both at a fixed concurrency for a fixed duration.
 */
import type { Client, WorkflowStartOptions } from '@temporalio/client';
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { deliveryStartAttributes } from '../src/domain/search-attributes';

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

/** Nearest-rank percentiles, in the values' unit rounded to 0.01; zeros when there are none. */
export function percentiles(values: number[]): Percentiles {
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) =>
    sorted.length === 0
      ? 0
      : Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 100) / 100;
  return { p50: at(50), p95: at(95), p99: at(99) };
}

export interface HttpLoadSummary {
  connections: number;
  durationS: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  perSec: number;
  latencyMs: Percentiles;
}

export interface HttpLoad {
  summary: HttpLoadSummary;
  /** Each 2xx answer's latency, ms. */
  latencies: number[];
  /** When each body id was answered with a 2xx (epoch ms). */
  acks: Map<string, number>;
  startedAt: number;
  endedAt: number;
}

/** What autocannon keeps per connection between building a request and reading its response. */
interface RequestContext {
  id?: string;
}

/**
 * POSTs `{"id":"<idPrefix>-<n>"}` (a new id each time, so every body has its own dedup key)
 * over `connections` keep-alive connections, one request in flight on each, for `durationS`.
 */
export async function httpLoad(
  url: string,
  connections: number,
  durationS: number,
  idPrefix: string,
): Promise<HttpLoad> {
  const acks = new Map<string, number>();
  const latencies: number[] = [];
  let seq = 0;
  const request: autocannon.Request = {
    setupRequest: (req, context) => {
      const id = `${idPrefix}-${seq++}`;
      (context as RequestContext).id = id;
      return { ...req, body: JSON.stringify({ id }) };
    },
    onResponse: (status, _body, context) => {
      const { id } = context as RequestContext;
      if (status >= 200 && status < 300 && id) acks.set(id, Date.now());
    },
  };
  const startedAt = Date.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        connections,
        pipelining: 1,
        duration: durationS,
        requests: [request],
      },
      (err: Error | null, res: autocannon.Result) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
  const endedAt = Date.now();
  return {
    summary: {
      connections,
      durationS: result.duration,
      ok: result['2xx'],
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      perSec: Math.round(result['2xx'] / result.duration),
      latencyMs: percentiles(latencies),
    },
    latencies,
    acks,
    startedAt,
    endedAt,
  };
}

export interface StartRateSummary {
  concurrency: number;
  durationS: number;
  started: number;
  errors: number;
  lastError: string | null;
  perSec: number;
  latencyMs: Percentiles;
}

export interface StartRate {
  summary: StartRateSummary;
  /** Each start's latency, ms. */
  latencies: number[];
}

/**
 * What a bare start carries: only its id (`bare`), or what a delivery's start carries besides its
 * input (`delivery`: a memo of two fields, the delivery's search attributes, a summary), so the
 * bench can tell what the start's attributes cost the engine from what the receiver adds.
 */
export type StartShape = 'bare' | 'delivery';

export function startOptions(shape: StartShape, taskQueue: string, id: string): WorkflowStartOptions {
  const bare = { taskQueue, workflowId: id, args: [{ id }] };
  if (shape === 'bare') return bare;
  return {
    ...bare,
    memo: { deliveryId: id, receivedAt: new Date().toISOString() },
    typedSearchAttributes: deliveryStartAttributes({
      robotId: 'bench-bare-starts',
      triggerIdentifier: 'custom:bench-bare-starts',
      format: 'json',
    }),
    staticSummary: `Delivery for robot "bench" (${id.length} bytes)`,
  };
}

/**
 * Starts workflows of type `benchNoop` on a task queue that nobody polls (they wait there until
 * the data folder is discarded), `concurrency` at a time, for `durationS`: the engine's ceiling
 * for what the receiver does per delivery.
 */
export async function temporalStarts(
  client: Client,
  taskQueue: string,
  concurrency: number,
  durationS: number,
  idPrefix: string,
  shape: StartShape = 'bare',
): Promise<StartRate> {
  const latencies: number[] = [];
  let errors = 0;
  let lastError: string | null = null;
  let seq = 0;
  const started = performance.now();
  const end = started + durationS * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const id = `${idPrefix}-${seq++}`;
      const t = performance.now();
      try {
        await client.workflow.start('benchNoop', startOptions(shape, taskQueue, id));
        latencies.push(performance.now() - t);
      } catch (err) {
        errors++;
        lastError = (err as Error).message;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsedS = (performance.now() - started) / 1000;
  const summary = {
    concurrency,
    durationS: Math.round(elapsedS * 100) / 100,
    started: latencies.length,
    errors,
    lastError,
    perSec: Math.round(latencies.length / elapsedS),
    latencyMs: percentiles(latencies),
  };
  return { summary, latencies };
}
