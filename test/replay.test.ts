/**
 * Workflow versioning: histories recorded from earlier workflow code (test/replay/*.json) must
 * replay on the current code. A change to `workflows/` that would break a workflow an older
 * worker left open (a long CSV fan-out, a delivery mid-way) fails here; such a change goes behind
 * `patched()` (docs/operations.md, Upgrading).
 *
 * `RECORD_HISTORIES=1 npm test -- test/replay.test.ts` records the current code's histories
 * first, one file per kind of delivery, named after the code's version (`<name>.<version>.json`);
 * keep the files of every version still supported (0.10 recorded the workspace in the input and
 * `WorkspaceId` on runs; 0.11's workflows check their ID against their input, and each history is
 * replayed under the ID it ran as; 0.12's prepare activity executes a delivery's only run and says so in
 * its result, so a one-run delivery has one local activity). 0.9 deprecated the patches of 0.2 to 0.5
 * (workflows/delivery.ts): histories of 0.5 and later replay; those of 0.1 to 0.4 were removed
 * with it (docs/operations.md, Upgrading to 0.9).
 */
import { execFileSync } from 'node:child_process';
import { Worker } from '@temporalio/worker';
import fs from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';
import { deliveryWorkflowId, runWorkflowId } from '../src/domain/ids';

const DIR = path.join(__dirname, 'replay');
const VERSION = (JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string })
  .version;

/**
 * The deliveries recorded: each kind of path through the delivery workflow. `held`: sent while the
 * robot is paused, then released by its resume (since 0.4); `replayed`: the replay of a delivery
 * (since 0.4), recorded instead of the original.
 */
const KINDS: Array<{ name: string; format: string; body: string; held?: boolean; replayed?: boolean }> = [
  { name: 'json-one-run', format: 'json', body: JSON.stringify({ email: 'ann@example.com' }) },
  { name: 'json-unparsable', format: 'json', body: '{"not json' },
  { name: 'csv-three-runs', format: 'csv', body: 'email\na@example.com\nb@example.com\nc@example.com' },
  // Over INLINE_BODY_BYTES: the body is stored before the start and discarded by the workflow.
  {
    name: 'json-stored-body',
    format: 'json',
    body: JSON.stringify({ email: 'big@example.com', pad: 'x'.repeat(200_000) }),
  },
  { name: 'json-stored-unparsable', format: 'json', body: `{${'x'.repeat(200_000)}` },
  { name: 'json-held', format: 'json', body: JSON.stringify({ email: 'held@example.com' }), held: true },
  { name: 'json-replayed', format: 'json', body: JSON.stringify({ email: 'again@example.com' }), replayed: true },
];

async function record(stack: Stack): Promise<void> {
  for (const kind of KINDS) {
    const robot = await stack.robotAtWork({ bodyFormat: kind.format, template: { to: '{{trigger.email}}' } });
    if (kind.held) await stack.api('POST', `/api/robots/${robot.robotId}/pause`);
    expect((await stack.send('POST', robot.webhookUrl, kind.body)).status).toBe(200);
    if (kind.held) await stack.api('POST', `/api/robots/${robot.robotId}/resume`);
    let [delivery] = await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length === 1,
    );
    if (kind.replayed) {
      const replay = await stack.api('POST', `/api/deliveries/${delivery.id}/replay`);
      delivery = (
        await waitFor(
          () => stack.api('GET', `/api/deliveries/${replay.body.deliveryId}`),
          (r) => r.status === 200,
        )
      ).body;
    }
    const handle = stack.temporal.workflow.getHandle(delivery.workflowId);
    await handle.result().catch(() => undefined); // a failed delivery is a failed workflow
    const ids = [delivery.workflowId];
    if (kind.format === 'csv') {
      const runs = await waitFor(
        () => stack.runs(robot.robotId),
        (r) => r.length === 3 && r.every((x) => x.status === 'succeeded'),
      );
      ids.push(`run:${runs[0].id}`);
    }
    for (const [i, id] of ids.entries()) {
      // The Temporal CLI's JSON, the form Worker.runReplayHistory reads.
      const json = execFileSync(process.env.TEMPORAL_CLI_BIN!, [
        'workflow',
        'show',
        '-w',
        id,
        '--address',
        stack.config.temporal.address!,
        '-o',
        'json',
      ]);
      const file = `${kind.name}${i === 0 ? '' : '-child'}.${VERSION}.json`;
      fs.writeFileSync(path.join(DIR, file), json);
    }
  }
}

const recording = process.env.RECORD_HISTORIES === '1';

beforeAll(async () => {
  if (!recording) return;
  // Recorded in clear: a history sealed by the payload codec (0.5) holds ciphertext under a key
  // that is gone once the stack is, and replay (which never sees the codec) cannot read it.
  const stack = await startStack({ INLINE_BODY_BYTES: String(128 * 1024), PAYLOAD_ENCRYPTION: '0' });
  try {
    await record(stack);
  } finally {
    await stack.close();
  }
});

const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));

it('has recorded histories to replay', () => {
  expect(files.length).toBeGreaterThanOrEqual(KINDS.length);
});

/** A recorded history, as far as its workflow's ID is read from it. */
interface Recorded {
  events: Array<{
    workflowExecutionStartedEventAttributes?: {
      workflowType: { name: string };
      input: { payloads: Array<{ data: string }> };
    };
  }>;
}

/**
 * The ID the workflow ran under, which each workflow checks against its input (workflows/refuse-unsealed.ts):
 * derived from the input (recorded in clear) as the receiver and the fan-out derive it.
 */
function workflowIdOf(history: Recorded): string {
  const started = history.events[0].workflowExecutionStartedEventAttributes!;
  const input = JSON.parse(Buffer.from(started.input.payloads[0].data, 'base64').toString('utf8')) as {
    triggerIdentifier: string;
    dedupKey: string;
    runId: string;
  };
  return started.workflowType.name === 'runWorkflow'
    ? runWorkflowId(input.runId)
    : deliveryWorkflowId(input.triggerIdentifier, input.dedupKey);
}

it.each(files)('replays %s on the current workflow code', async (file) => {
  const history = JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8')) as Recorded;
  const bundle = { workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } };
  await Worker.runReplayHistory(bundle, history, workflowIdOf(history));
});
