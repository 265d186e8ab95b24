/**
 * The robot's history: runs (summaries, newest first), one run with its steps, deliveries, one
 * delivery, and replay of one delivery or many (src/deliveries/replay.ts).
 */
import type Router from '@koa/router';
import { workflowIdOfRun } from '../domain/ids';
import { replayDelivery, replayMany, NotReplayable } from '../deliveries/replay';
import { deliveriesPage, runsPage } from '../history/reads';
import { byId } from '../storage/by-id';
import { conflict, readJson } from '../http';
import { StepsVersions } from '../robots/steps-versions';
import { loadJson, outputBlobId, triggerBlobId } from '../storage/blobs';
import type { DeliveryDoc, RobotDoc, RunDoc, RunOutcomeDoc, StepResultDoc } from '../storage/documents';
import { found, pageOf } from './lookups';
import type { ManagementDeps } from './deps';
import { bulkReplayBody, listQuery } from './schemas';
import { deliveryView, runSummaryView, runView, workflowUrl, type StepResultText, type WebUi } from './views';

export function historyRoutes(router: Router, deps: ManagementDeps): void {
  const { config, models } = deps;
  const { Robot, Run, RunOutcome, StepResult, Delivery } = models;
  const ui: WebUi = { url: config.temporalUiUrl, namespace: config.temporal.namespace };
  const versions = new StepsVersions(models);

  /** Refusals of a replay are the caller's to fix: 409 with the reason. */
  async function replaying<T>(replay: Promise<T>): Promise<T> {
    try {
      return await replay;
    } catch (err) {
      if (err instanceof NotReplayable) throw conflict(err.message);
      throw err;
    }
  }

  /**
   * A run as the API shows it: with the steps its delivery was accepted with, its step results and
   * its outcome. Every read is by `_id` (step results are `<runId>:<step>`), so it costs the same
   * however many runs are stored.
   */
  async function runWithSteps(run: RunDoc) {
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
    return runView({ run, triggerJson, steps, results, outcome: outcome ?? undefined }, workflowUrl(ui, workflowId));
  }

  /** The run history: summaries, newest first (src/history/reads.ts). */
  router.get('/robots/:id/runs', async (ctx) => {
    const { limit, cursor } = listQuery.parse(ctx.query);
    const robot = await found('robot', Robot.findById(ctx.params.id, { _id: 1 }).lean());
    const page = await pageOf(runsPage(models, robot._id, limit, cursor));
    ctx.body = { runs: page.items.map((r) => runSummaryView(r, robot._id)), nextCursor: page.nextCursor };
  });

  router.get('/runs/:id', async (ctx) => {
    ctx.body = await runWithSteps(await found('run', byId<RunDoc>(Run, ctx.params.id)));
  });

  router.get('/robots/:id/deliveries', async (ctx) => {
    const { limit, cursor } = listQuery.parse(ctx.query);
    const robot = await found('robot', Robot.findById(ctx.params.id, { _id: 1 }).lean());
    const page = await pageOf(deliveriesPage(models, robot._id, limit, cursor));
    ctx.body = { deliveries: page.items.map((d) => deliveryView(d, ui)), nextCursor: page.nextCursor };
  });

  router.get('/deliveries/:id', async (ctx) => {
    ctx.body = deliveryView(await found('delivery', byId<DeliveryDoc>(Delivery, ctx.params.id)), ui);
  });

  router.post('/deliveries/:id/replay', async (ctx) => {
    const original = await found('delivery', byId<DeliveryDoc>(Delivery, ctx.params.id));
    ctx.status = 202;
    ctx.body = { deliveryId: await replaying(replayDelivery(deps, original)) };
  });

  router.post('/robots/:id/deliveries/replay', async (ctx) => {
    const { outcome, since, cursor } = await readJson(ctx, bulkReplayBody);
    const robot = await found('robot', Robot.findById(ctx.params.id, { _id: 1 }).lean());
    const which = { outcome, since: since === undefined ? undefined : new Date(since), cursor };
    const replayed = await replaying(pageOf(replayMany(deps, robot._id, which)));
    ctx.status = 202;
    ctx.body = replayed;
  });
}
