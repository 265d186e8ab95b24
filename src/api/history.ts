/**
 * The robot's history: runs (summaries, newest first), one run with its steps, deliveries, one
 * delivery, and replay of one delivery or many (src/deliveries/replay.ts).
 */
import { workflowIdOfRun } from '../domain/ids';
import { replayDelivery, replayMany } from '../deliveries/replay';
import { deliveryFile } from '../deliveries/files';
import { deliveriesPage, runsPage } from '../history/reads';
import { byId } from '../storage/by-id';
import { loadJson, outputBlobId, triggerBlobId } from '../storage/blobs';
import type { DeliveryDoc, RobotDoc, RunDoc, RunOutcomeDoc, StepResultDoc } from '../storage/documents';
import { asked, found, pageOf } from './lookups';
import { route, type ManagementDeps, type ManagementRoute } from './deps';
import { MANAGEMENT } from '../contract/management';
import { deliveryView, runSummaryView, runView, workflowUrl, type StepResultText, type WebUi } from './views';

const webUi = ({ config }: ManagementDeps): WebUi => ({
  url: config.temporalUiUrl,
  namespace: config.temporal.namespace,
});

/** A robot named by the path, read for its `_id` only. */
const robotOf = ({ models }: ManagementDeps, id: string) =>
  found('robot', models.Robot.findById(id, { _id: 1 }).lean());

/**
 * A run as the API shows it: with the steps its delivery was accepted with, its step results and
 * its outcome. Every read is by `_id` (step results are `<runId>:<step>`), so it costs the same
 * however many runs are stored.
 */
async function runWithSteps(deps: ManagementDeps, run: RunDoc) {
  const { models, versions } = deps;
  const { Robot, RunOutcome, StepResult, Delivery } = models;
  const delivery = await byId<DeliveryDoc>(Delivery, run.deliveryId);
  const steps =
    delivery?.stepsVersion === undefined
      ? ((await byId<RobotDoc>(Robot, run.robotId))?.steps ?? [])
      : await versions.get(run.robotId, delivery.stepsVersion);
  const [outcome, stored] = await Promise.all([
    byId<RunOutcomeDoc>(RunOutcome, run._id),
    Promise.all(steps.map((_, i) => byId<StepResultDoc>(StepResult, `${run._id}:${i}`))),
  ]);
  const results: StepResultText[] = [];
  const ending = outcome?.endingStep;
  for (const [i, kept] of stored.entries()) {
    // The step that ended the run is on its outcome (since 0.5), the others in step_results.
    const result = kept ?? (ending?.index === i ? { ...ending, _id: `${run._id}:${i}`, runId: run._id } : null);
    if (!result) continue;
    const { output, ...r } = result;
    results.push({ ...r, outputJson: output && (await loadJson(models, outputBlobId(r.runId, r.index), output)) });
  }
  const triggerJson = await loadJson(models, triggerBlobId(run._id), run.trigger);
  const workflowId = delivery && workflowIdOfRun(run._id, delivery);
  return runView(
    { run, triggerJson, steps, results, outcome: outcome ?? undefined },
    workflowUrl(webUi(deps), workflowId),
  );
}

export const HISTORY_ROUTES: ManagementRoute[] = [
  route(
    MANAGEMENT.listRuns,
    /** Summaries, newest first (src/history/reads.ts). */
    async ({ params, query: { limit, cursor } }, deps) => {
      const robot = await robotOf(deps, params.id);
      const page = await pageOf(runsPage(deps.models, robot._id, limit, cursor));
      return { runs: page.items.map((r) => runSummaryView(r, robot._id)), nextCursor: page.nextCursor };
    },
  ),
  route(MANAGEMENT.getRun, async ({ params }, deps) => {
    return runWithSteps(deps, await found('run', byId<RunDoc>(deps.models.Run, params.id)));
  }),
  route(MANAGEMENT.listDeliveries, async ({ params, query: { limit, cursor } }, deps) => {
    const robot = await robotOf(deps, params.id);
    const page = await pageOf(deliveriesPage(deps.models, robot._id, limit, cursor));
    return { deliveries: page.items.map((d) => deliveryView(d, webUi(deps))), nextCursor: page.nextCursor };
  }),
  route(MANAGEMENT.getDelivery, async ({ params }, deps) => {
    return deliveryView(await found('delivery', byId<DeliveryDoc>(deps.models.Delivery, params.id)), webUi(deps));
  }),
  route(MANAGEMENT.getDeliveryFile, async ({ params }, deps) => {
    const delivery = await found('delivery', byId<DeliveryDoc>(deps.models.Delivery, params.id));
    return { file: await found('file', deliveryFile(deps.models, delivery, params.sha256)) };
  }),
  route(MANAGEMENT.replayDelivery, async ({ params }, deps) => {
    const original = await found('delivery', byId<DeliveryDoc>(deps.models.Delivery, params.id));
    return { deliveryId: await asked(replayDelivery(deps, original)) };
  }),
  route(MANAGEMENT.replayDeliveries, async ({ params, body: { outcome, since, cursor } }, deps) => {
    const robot = await robotOf(deps, params.id);
    const which = { outcome, since: since === undefined ? undefined : new Date(since), cursor };
    return asked(pageOf(replayMany(deps, robot._id, which)));
  }),
];
