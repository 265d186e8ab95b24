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
import { asked, found, ours, pageOf } from './lookups';
import { notFound } from '../core/http-errors';
import type { Caller } from '../domain/workspaces';
import { route, type ManagementDeps, type ManagementRoute } from './deps';
import { MANAGEMENT } from '../contract/management';
import { deliveryView, runSummaryView, runView, workflowUrl, type StepResultText, type WebUi } from './views';

/** Where the Temporal Web UI is: the operator's (the admin token's) tool, so null for a workspace's key. */
const webUi = ({ config }: ManagementDeps, caller: Caller): WebUi | null =>
  caller.actor.kind === 'admin' ? { url: config.temporalUiUrl, namespace: config.temporal.namespace } : null;

/** A robot of the caller's workspace, read for its `_id` and workspace only (404 for another's). */
const robotOf = ({ models }: ManagementDeps, id: string, caller: Caller) =>
  ours('robot', byId<RobotDoc>(models.Robot, id, { _id: 1, workspaceId: 1 }), caller);

/** What the path names (a run, a delivery), when its robot is of the caller's workspace; 404 otherwise. */
async function ofOurRobot<T extends { robotId: string }>(
  deps: ManagementDeps,
  what: string,
  doc: Promise<T | null>,
  caller: Caller,
): Promise<T> {
  const value = await found(what, doc);
  const robot = await byId<RobotDoc>(deps.models.Robot, value.robotId, { _id: 1, workspaceId: 1 });
  if (!robot || robot.workspaceId !== caller.workspaceId) throw notFound(`${what} not found`);
  return value;
}

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

const deliveryOf = (deps: ManagementDeps, id: string, caller: Caller) =>
  ofOurRobot(deps, 'delivery', byId<DeliveryDoc>(deps.models.Delivery, id), caller);

export const HISTORY_ROUTES: ManagementRoute[] = [
  route(
    MANAGEMENT.listRuns,
    /** Summaries, newest first (src/history/reads.ts). */
    async ({ params, query: { limit, cursor }, caller }, deps) => {
      const robot = await robotOf(deps, params.id, caller);
      const page = await pageOf(runsPage(deps.models, robot._id, limit, cursor));
      return { runs: page.items.map((r) => runSummaryView(r, robot._id)), nextCursor: page.nextCursor };
    },
  ),
  route(MANAGEMENT.getRun, async ({ params, caller }, deps) => {
    const run = await ofOurRobot(deps, 'run', byId<RunDoc>(deps.models.Run, params.id), caller);
    return runWithSteps(deps, run, caller);
  }),
  route(MANAGEMENT.listDeliveries, async ({ params, query, caller }, deps) => {
    const robot = await robotOf(deps, params.id, caller);
    const { limit, cursor, outcome, event } = query;
    const filter = { outcome, event, since: dateOf(query.since), until: dateOf(query.until) };
    const page = await pageOf(filteredDeliveriesPage(deps.models, robot._id, limit, cursor, filter));
    return { deliveries: page.items.map((d) => deliveryView(d, webUi(deps, caller))), nextCursor: page.nextCursor };
  }),
  route(MANAGEMENT.getDelivery, async ({ params, caller }, deps) => {
    return deliveryView(await deliveryOf(deps, params.id, caller), webUi(deps, caller));
  }),
  route(MANAGEMENT.getDeliveryBody, async ({ params, query: { offset, limit }, caller }, deps) => {
    const delivery = await deliveryOf(deps, params.id, caller);
    return found('body', bodyPage(deps.models, delivery, offset, limit));
  }),
  route(MANAGEMENT.getDeliveryFile, async ({ params, caller }, deps) => {
    const delivery = await deliveryOf(deps, params.id, caller);
    return { file: await found('file', deliveryFile(deps.models, delivery, params.sha256)) };
  }),
  route(MANAGEMENT.replayDelivery, async ({ params, caller }, deps) => {
    const original = await deliveryOf(deps, params.id, caller);
    return { deliveryId: await asked(replayDelivery(deps, original)) };
  }),
  route(MANAGEMENT.replayDeliveries, async ({ params, body: { outcome, since, cursor }, caller }, deps) => {
    const robot = await robotOf(deps, params.id, caller);
    const which = { outcome, since: since === undefined ? undefined : new Date(since), cursor };
    return asked(pageOf(replayMany(deps, robot._id, which)));
  }),
];
