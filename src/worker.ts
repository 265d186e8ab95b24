/** The Temporal worker: the delivery and run workflows and their activities. */
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import fs from 'node:fs';
import path from 'node:path';
import { createActivities } from '../activities';
import type { Models } from './models';

/** Pre-built by `npm run build`; without it (tests from source) the workflows are bundled at start. */
export const WORKFLOW_BUNDLE = path.resolve(__dirname, '..', 'workflow-bundle.js');

export function workflowCode(): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  return fs.existsSync(WORKFLOW_BUNDLE) && __filename.endsWith('.js')
    ? { workflowBundle: { codePath: WORKFLOW_BUNDLE } }
    : { workflowsPath: require.resolve('../workflows') };
}

export interface WorkerDeps {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  models: Models;
}

export async function createWorker({ connection, namespace, taskQueue, models }: WorkerDeps): Promise<Worker> {
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    ...workflowCode(),
    activities: createActivities({ models }),
    maxCachedWorkflows: 2000,
    maxConcurrentWorkflowTaskExecutions: 100,
    maxConcurrentActivityTaskExecutions: 50,
    maxConcurrentLocalActivityExecutions: 200,
  });
}
