/**
 * The HTTP service, and the receiver process's two ports:
 *
 * - **the service's port** (PORT): the webhook receiver, the management API (its OpenAPI document
 *   too, behind the admin token or a key), Temporal's codec endpoints and the dashboard's files, behind one
 *   error path, with the browser-facing safety headers on every answer;
 * - **the metrics port** (RECEIVER_METRICS_PORT): `GET /metrics` (Prometheus), `GET /healthz` and
 *   the Temporal Web UI's codec endpoint (decode only, under the Web UI's key: src/codec/routes.ts),
 *   for the operator's network only (loopback by default: METRICS_HOST), never the senders'.
 *
 * `listenReceiver` runs both with the limits against slow senders (src/domain/limits/requests.ts): the same
 * function serves production and the tests.
 */
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import Koa, { type Middleware } from 'koa';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Connection } from 'mongoose';
import { openApiDocument } from '../contract/openapi';
import { buildInfo } from '../core/build-info';
import { OPERATIONS } from './operations';
import { managementRouter } from '../api/routes';
import { BackgroundWork } from '../core/background';
import { codecRouter, webUiCodecRouter } from '../codec/routes';
import type { Config } from '../core/config';
import { clientAddresses, TrustedProxies } from '../core/client-address';
import { errorHandler } from '../core/http-errors';
import { accessLog } from '../core/access-log';
import { compressAnswers } from '../core/compression';
import { requestIds } from '../core/request-ids';
import { capConnections, KEEP_ALIVE_TIMEOUT_MS } from '../receiver/connections';
import { drainOnClose } from './drain';
import { HEALTH_CACHE_MS, reusedFor } from './health';
import type { Logger } from '../core/log';
import { receiverMetrics, type ReceiverMetrics } from '../core/metrics';
import type { Models } from '../storage/models';
import { TriggerCache } from '../receiver/trigger-cache';
import { countWebhookAnswers } from '../receiver/webhook-metrics';
import { Throttle } from '../core/throttle';
import { serveDashboard } from './dashboard';
import { deliveryTaker } from './delivery-taker';
import { managementParts } from './management';
import { webhookRouter } from '../receiver/webhooks';
import { payloadEncryption, temporalAnswers } from '../temporal/client';
import { IssueCounter, NO_NOTIFICATION, type IssueOpened } from '../issues/counter';
import { countOpenIssues } from '../issues/open-gauge';
import { ISSUES_GAUGE_MS } from '../domain/limits';

interface AppDeps {
  config: Config;
  db: Connection;
  models: Models;
  temporal: Client;
  log: Logger;
  /** The receiver's metrics (its metrics port); a fresh set when not given. */
  metrics?: ReceiverMetrics;
  /** Work started by requests that goes on after the answer (releases); stopped when the receiver closes. */
  background?: BackgroundWork;
  /** Starts the notification of an issue this process's counter opened or reopened; none when not given. */
  onIssueOpened?: IssueOpened;
}

/** What the routers are made of: the process's parts, each made once (`receiverParts`). */
export interface ReceiverParts extends AppDeps {
  metrics: ReceiverMetrics;
  background: BackgroundWork;
  /** The receiver's view of triggers (src/receiver/trigger-cache.ts), shared by the webhook URL and the API. */
  triggers: TriggerCache;
  /** The process's one issue counter (src/issues/counter.ts): its refusals counted, written once a second. */
  issues: IssueCounter;
}

/**
 * What browsers are told on every answer of the service's port: never sniff a type, never frame it,
 * send no referrer, keep nothing of the API (it answers with secrets: webhook URLs), and load the
 * dashboard's scripts and styles from this origin only.
 */
function safetyHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    await next();
    if (!ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
  };
}

/** The receiver's view of triggers (src/receiver/trigger-cache.ts); `watch` it while it serves. */
function triggerCache(deps: Pick<AppDeps, 'models' | 'config'>): TriggerCache {
  const { secretsKeys, triggerCacheTtlMs, triggerCacheCoalesce } = deps.config;
  return new TriggerCache(deps.models, secretsKeys, triggerCacheTtlMs, { coalesce: triggerCacheCoalesce });
}

/** The receiver's parts: each one not given made here, once a process (listenReceiver). */
export function receiverParts(deps: AppDeps): ReceiverParts {
  const metrics = deps.metrics ?? receiverMetrics();
  const { models, log, config } = deps;
  const onOpened = deps.onIssueOpened ?? NO_NOTIFICATION;
  const issues = new IssueCounter({ models, log, notifyIntervalMs: config.issueNotifyIntervalMs, onOpened });
  return {
    ...deps,
    metrics,
    background: deps.background ?? new BackgroundWork(),
    triggers: triggerCache(deps),
    issues,
  };
}

/**
 * Every router of the service's port, in the order requests meet them (test/openapi.test.ts lists
 * their routes), each handed what it serves with, made here: the webhook URL its delivery taker,
 * the management API its parts.
 */
export function routers(parts: ReceiverParts): Router[] {
  const { config } = parts;
  // Wrong admin tokens are counted per client address, whichever route they were tried on.
  const authFailures = new Throttle('requests with a wrong admin token', config.throttles.authFailuresPerMinute);
  const document = openApiDocument(config.baseUrl, OPERATIONS, buildInfo().version);
  return [
    webhookRouter({ ...parts, taker: deliveryTaker(parts) }),
    codecRouter({ config, codec: payloadEncryption(config), authFailures }),
    managementRouter(managementParts({ ...parts, authFailures, document })),
  ];
}

export function createApp(deps: ReceiverParts): Koa {
  const { metrics } = deps;
  const app = new Koa();
  app.silent = true; // errors are logged by the error handler
  app.use(requestIds()).use(accessLog(deps.log)); // first: every line of a request has its id, then its access line
  // Behind the cluster's entry the client's address is in X-Forwarded-For (refusals are counted by
  // it), believed only from a trusted proxy (src/core/client-address.ts).
  app.use(clientAddresses(new TrustedProxies(deps.config.trustedProxies)));
  app.use(safetyHeaders());
  app.use(countWebhookAnswers(metrics)); // outside the error handler: it sees what the sender got
  app.use(compressAnswers()); // not on the webhook routes
  app.use(errorHandler(deps.log));
  for (const router of routers(deps)) app.use(router.routes());
  app.use(serveDashboard());
  return app;
}

async function mongodbAnswers(db: Connection): Promise<boolean> {
  try {
    await db.db!.admin().ping({ timeoutMS: 2000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * The metrics port: `GET /metrics`, `GET /healthz` (its answer reused for HEALTH_CACHE_MS, one read at
 * a time) and the Web UI's codec endpoint (wrong keys counted per client address, as on the service's port).
 */
function createMetricsApp(
  deps: Pick<AppDeps, 'db' | 'models' | 'temporal' | 'config' | 'log'>,
  metrics: ReceiverMetrics,
): Koa {
  const check = reusedFor(HEALTH_CACHE_MS, () =>
    Promise.all([temporalAnswers(deps.temporal), mongodbAnswers(deps.db)]).then(([temporal, mongodb]) => ({
      temporal,
      mongodb,
    })),
  );
  // Read at a scrape, at most once per ISSUES_GAUGE_MS (src/issues/open-gauge.ts); kept as it was when the read fails.
  const issuesOpen = reusedFor(ISSUES_GAUGE_MS, () =>
    countOpenIssues(deps.models, metrics.issuesOpen).catch((err: Error) =>
      deps.log.warn('the open issues could not be counted for webhooks_issues_open', { err }),
    ),
  );
  const router = new Router();
  router.get('/healthz', async (ctx) => {
    const { temporal, mongodb } = await check();
    ctx.status = temporal && mongodb ? 200 : 503;
    ctx.body = { temporal: temporal ? 'ok' : 'unreachable', mongodb: mongodb ? 'ok' : 'unreachable' };
  });
  // No label holds an id or anything a sender chose (src/core/metrics.ts).
  router.get('/metrics', async (ctx) => {
    await issuesOpen();
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  const { config } = deps;
  const authFailures = new Throttle('requests with a wrong codec key', config.throttles.authFailuresPerMinute);
  const webUi = webUiCodecRouter({ config, codec: payloadEncryption(config), authFailures });
  const app = new Koa();
  app.silent = true;
  app.use(errorHandler(deps.log));
  app.use(router.routes());
  app.use(webUi.routes());
  return app;
}

export interface Listening {
  /** The service's port and the metrics port (null when RECEIVER_METRICS_PORT is 0). */
  port: number;
  metricsPort: number | null;
  close(): Promise<void>;
}

/** Listens on `port` (0: any free one) on `host`; resolves with the port taken. */
function listen(server: http.Server, port: number, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * The receiver process's HTTP servers, with the limits against slow senders: headers within
 * HEADERS_TIMEOUT_MS, a whole request within REQUEST_TIMEOUT_MS, connections capped in all and per
 * client address (src/receiver/connections.ts; a body idle for BODY_IDLE_TIMEOUT_MS is refused by the
 * body budget).
 */
export async function listenReceiver(
  deps: AppDeps,
  /** Ports to use instead of PORT and RECEIVER_METRICS_PORT (0: any free one; null: no metrics port). */
  opts: { port?: number; metricsPort?: number | null; host?: string } = {},
): Promise<Listening> {
  const parts = receiverParts(deps);
  const { config, metrics, background } = parts;
  const app = createApp(parts);
  const server = http.createServer(
    {
      headersTimeout: config.http.headersTimeoutMs,
      requestTimeout: config.http.requestTimeoutMs,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      // How often Node looks for requests past their time-outs (its default, 30 s, would let a slow
      // sender keep its connection up to 30 s past HEADERS_TIMEOUT_MS).
      connectionsCheckingInterval: 1000,
    },
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler catches its own errors
    app.callback(),
  );
  const closeServer = drainOnClose(server);
  const proxies = new TrustedProxies(config.trustedProxies);
  capConnections(server, {
    max: config.http.maxConnections,
    perAddress: config.http.maxConnectionsPerAddress,
    exempt: (address) => proxies.trusts(address),
    refused: () => metrics.connectionsRefused.inc(),
  });
  const port = await listen(server, opts.port ?? config.port, opts.host ?? config.host);
  let metricsServer: http.Server | null = null;
  let metricsPort: number | null = null;
  const wanted = opts.metricsPort !== undefined ? opts.metricsPort : config.receiverMetricsPort || null;
  if (wanted !== null) {
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler catches its own errors
    metricsServer = http.createServer(createMetricsApp(deps, metrics).callback());
    metricsPort = await listen(metricsServer, wanted, opts.host ?? config.metricsHost);
  }
  return {
    port,
    metricsPort,
    /** Answers the requests under way first (src/runtime/drain.ts), then stops the background work. */
    async close() {
      metricsServer?.closeAllConnections();
      await Promise.all([closeServer(), metricsServer && new Promise((resolve) => metricsServer.close(resolve))]);
      await background.stop();
      // What the refusals counted since the last flush, written before the process goes.
      await parts.issues.stop();
    },
  };
}
