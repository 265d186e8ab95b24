/**
 * The robot's history: runs (summaries, newest first), one run with its steps, deliveries, one
 * delivery, and replay of one delivery or many (src/deliveries/replay.ts).
 */
import { workflowIdOfRun } from '../domain/ids';
import { replayDelivery, replayMany } from '../deliveries/replay';
import { deliveryFile } from '../deliveries/files';
import { filteredDeliveriesPage, runsPage } from '../history/reads';
import { bodyPage } from '../deliveries/body-pages';
import { byId } from '../storage/by-id';
import { loadJson, outputBlobId, triggerBlobId } from '../storage/blobs';
import type { DeliveryDoc, RobotDoc, RunDoc, RunOutcomeDoc, StepResultDoc } from '../storage/documents';
import { asked, found, pageOf } from './lookups';
import type { Caller } from '../domain/workspaces';
import { route, type ManagementDeps, type ManagementRoute } from './deps';
import { MANAGEMENT } from '../contract/management';
import { deliveryView, runSummaryView, runView, workflowUrl, type StepResultText, type WebUi } from './views';

/** Where the Temporal Web UI is: the operator's (the admin token's) tool, so null for a workspace's key. */
const webUi = ({ config }: ManagementDeps, caller: Caller): WebUi | null =>
  caller.actor.kind === 'admin' ? { url: config.temporalUiUrl, namespace: config.temporal.namespace } : null;

/**
 * A run as the API shows it: with the steps its delivery was accepted with, its step results and
 * its outcome. Every read is by `_id` (step results are `<runId>:<step>`), so it costs the same
 * however many runs are stored.
 */
async function runWithSteps(deps: ManagementDeps, run: RunDoc, caller: Caller) {
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
  const ui = webUi(deps, caller);
  return runView(
    { run, triggerJson, steps, results, outcome: outcome ?? undefined, format: delivery?.format },
    ui ? workflowUrl(ui, workflowId) : undefined,
  );
}

const dateOf = (iso: string | undefined) => (iso === undefined ? undefined : new Date(iso));

export const HISTORY_ROUTES: ManagementRoute[] = [
  route(
    MANAGEMENT.listRuns,
    /** Summaries, newest first (src/history/reads.ts). */
    async ({ named: robot, query: { limit, cursor } }, deps) => {
      const page = await pageOf(runsPage(deps.models, robot._id, limit, cursor));
      return { runs: page.items.map((r) => runSummaryView(r, robot._id)), nextCursor: page.nextCursor };
    },
  ),
  route(MANAGEMENT.getRun, ({ named: run, caller }, deps) => runWithSteps(deps, run, caller)),
  route(MANAGEMENT.listDeliveries, async ({ named: robot, query, caller }, deps) => {
    const { limit, cursor, outcome, event } = query;
    const filter = { outcome, event, since: dateOf(query.since), until: dateOf(query.until) };
    const page = await pageOf(filteredDeliveriesPage(deps.models, robot._id, limit, cursor, filter));
    return { deliveries: page.items.map((d) => deliveryView(d, webUi(deps, caller))), nextCursor: page.nextCursor };
  }),
  route(MANAGEMENT.getDelivery, ({ named, caller }, deps) => Promise.resolve(deliveryView(named, webUi(deps, caller)))),
  route(MANAGEMENT.getDeliveryBody, ({ named, query: { offset, limit } }, { models }) =>
    found('body', bodyPage(models, named, offset, limit)),
  ),
  route(MANAGEMENT.getDeliveryFile, async ({ named, params }, { models }) => ({
    file: await found('file', deliveryFile(models, named, params.sha256)),
  })),
  route(MANAGEMENT.replayDelivery, async ({ named: original }, deps) => ({
    deliveryId: await asked(replayDelivery(deps, original)),
  })),
  route(MANAGEMENT.replayDeliveries, async ({ named: robot, body: { outcome, since, cursor } }, deps) => {
    const which = { outcome, since: since === undefined ? undefined : new Date(since), cursor };
    return asked(pageOf(replayMany(deps, robot._id, which)));
  }),
];
