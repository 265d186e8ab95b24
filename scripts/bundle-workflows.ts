/** Bundles the workflow code once at build time, so a worker (re)starts in about a second. */
import { bundleWorkflowCode } from '@temporalio/worker';
import fs from 'node:fs';
import { WORKFLOW_BUNDLE, WORKFLOWS_PATH } from '../src/worker';

async function main() {
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: undefined });
  fs.writeFileSync(WORKFLOW_BUNDLE, code);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
