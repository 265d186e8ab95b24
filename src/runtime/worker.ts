/** The Temporal worker: the delivery and run workflows and their activities. */
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { DataConverter } from '@temporalio/common';
import fs from 'node:fs';
import path from 'node:path';
import { createActivities } from '../../activities';
import type { NotifyActivityDeps } from '../../activities/notify';
import type { Models } from '../storage/models';
import { workerMetrics, type WorkerMetrics } from '../core/metrics';
import type { DeliveryCaps } from '../domain/delivery-caps';
import type { PreparationLimits } from '../domain/limits';
import type { RunFeatures } from '../domain/types';
import type { HeardOutcomes } from '../history/heard-outcomes';
import type { IssueCounter } from '../issues/counter';
import { FAILURE_CONVERTER_PATH } from '../temporal/client';

/** Pre-built by `npm run build`; without it (tests from source) the workflows are bundled at start. */
export const WORKFLOW_BUNDLE = path.resolve(__dirname, '../..', 'workflow-bundle.js');
const WORKFLOWS_PATH = require.resolve('../../workflows');

/** How the workflow code is bundled (by the build, the tests and a worker alike): with our failure converter. */
export const WORKFLOW_BUNDLE_OPTIONS = { workflowsPath: WORKFLOWS_PATH, failureConverterPath: FAILURE_CONVERTER_PATH };

/** The given bundle, else the pre-built one when running compiled code, else the sources. */
function workflowCode(bundlePath?: string): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  if (bundlePath) return { workflowBundle: { codePath: bundlePath } };
  return fs.existsSync(WORKFLOW_BUNDLE) && __filename.endsWith('.js')
    ? { workflowBundle: { codePath: WORKFLOW_BUNDLE } }
    : { workflowsPath: WORKFLOWS_PATH };
}

interface WorkerDeps {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  models: Models;
  /** The worker's metrics (its metrics port); a fresh set when not given. */
  metrics?: WorkerMetrics;
  /** The payload codec (src/temporal/client.ts `dataConverter`): every payload the worker sends is sealed. */
  dataConverter: DataConverter;
  /** What one delivery may make (config.deliveryCaps); the defaults when not given. */
  caps?: DeliveryCaps;
  /** What deliveries' workflows do beyond running runs (config.runFeatures); all on when not given. */
  features?: RunFeatures;
  /** What it prepares at once (config.preparation: PREPARING_BODY_BYTES and the rest); the defaults when not given. */
  preparation?: PreparationLimits;
  /** Outcomes of runs ended here, for this process's history keeper. */
  heard?: HeardOutcomes;
  /** What notifications of issues are sent with (config.notifications and SECRETS_KEYS). */
  notify: NotifyActivityDeps;
  /** The process's issue counter: failed deliveries and runs count in it (none: not counted). */
  issues?: IssueCounter;
  /**
   * Workflow tasks held at once (config.workerWorkflowTasks). Each one the worker holds is work it
   * hands Temporal when it completes; Temporal's writes are serial on the dev server (one SQLite
   * connection) and shared with the starts of deliveries, so a start waits behind as many as
   * are held; a one-run delivery holds its task while its activity runs, so they also bound the
   * deliveries prepared at once. Its default: WORKER_WORKFLOW_TASKS (src/core/settings/worker.ts);
   * what each number cost: docs/operations.md, "CPU: acks before runs".
   */
  workflowTasks: number;
  /** A workflow bundle made by bundleWorkflowCode (tests bundle once for every worker). */
  workflowBundlePath?: string;
}

/**
 * How many polls for tasks the worker keeps open: as many as Temporal's answers say its queues want
 * (the SDK's autoscaling: 5 at first, then between 1 and 100), not a fixed ten. Alone, one-run
 * deliveries from 16 and 64 senders went 1.10 and 1.06 times as fast; with 100 workflow tasks held
 * (WORKER_WORKFLOW_TASKS), 1.22 and 1.19 (docs/benchmark-history.md, "Issue 57, third session").
 */
const POLLERS: WorkerOptions['workflowTaskPollerBehavior'] = { type: 'autoscaling' };

export async function createWorker(deps: WorkerDeps): Promise<Worker> {
  const { connection, namespace, taskQueue, models, metrics = workerMetrics(), workflowBundlePath } = deps;
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    ...workflowCode(workflowBundlePath),
    activities: createActivities({
      models,
      metrics,
      caps: deps.caps,
      features: deps.features,
      heard: deps.heard,
      preparation: deps.preparation,
      issues: deps.issues,
      notify: deps.notify,
    }),
    dataConverter: deps.dataConverter,
    maxCachedWorkflows: 2000,
    maxConcurrentWorkflowTaskExecutions: deps.workflowTasks,
    maxConcurrentActivityTaskExecutions: 50,
    maxConcurrentLocalActivityExecutions: 200,
    workflowTaskPollerBehavior: POLLERS,
    activityTaskPollerBehavior: POLLERS,
  });
}
