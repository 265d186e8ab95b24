/** Bundles the workflow code once at build time, so a worker (re)starts in about a second. */
import { bundleWorkflowCode } from '@temporalio/worker';
import fs from 'node:fs';
import { WORKFLOW_BUNDLE, WORKFLOW_BUNDLE_OPTIONS } from '../src/runtime/worker';

async function main() {
  const { code } = await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: undefined });
  fs.writeFileSync(WORKFLOW_BUNDLE, code);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
