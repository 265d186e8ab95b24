/**
 * The management API: JSON under /api, every route behind `Authorization: Bearer <admin token>`.
 */
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Config } from '../config';
import { encryptSecret, newId, newToken, secretsEqual } from '../domain/secrets';
import type { DeliveryDoc, RobotDoc, RunDoc, RunOutcomeDoc, StepResultDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import type { TriggerCache } from '../receiver/trigger-cache';
import { loadJson, outputBlobId, triggerBlobId } from '../storage/blobs';
import { invalidField, notFound, readJson, unauthorized } from '../http';
import { byId } from '../history/store';
import { BadCursor, deliveriesPage, robotHistory, runsPage } from '../history/reads';
import { createAppBody, createConnectionBody, createRobotBody, listQuery, type CreateRobotBody } from './schemas';
import { workflowIdOfRun } from '../domain/ids';
import {
  appView,
  connectionView,
  deliveryView,
  robotView,
  runSummaryView,
  runView,
  workflowUrl,
  type StepResultText,
  type WebUi,
} from './views';
import { triggerIdentifier } from '../domain/ids';

export interface ManagementDeps {
  config: Config;
  models: Models;
  triggers: TriggerCache;
}

export function managementRouter({ config, models, triggers }: ManagementDeps): Router {
  const { App, Connection, Robot, Run, RunOutcome, StepResult, Delivery } = models;
  const router = new Router({ prefix: '/api' });
  const ui: WebUi = { url: config.temporalUiUrl, namespace: config.temporal.namespace };

  router.use(async (ctx: Context, next: Next) => {
    const header = ctx.get('authorization');
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!token || !secretsEqual(token, config.adminToken)) throw unauthorized('missing or wrong admin token');
    await next();
  });

  /** A page of the history; a cursor this service did not make is the caller's error. */
  async function pageOf<T>(read: Promise<T>): Promise<T> {
    try {
      return await read;
    } catch (err) {
      if (err instanceof BadCursor) throw invalidField('cursor', err.message);
      throw err;
    }
  }

  async function found<T>(what: string, doc: Promise<T | null>): Promise<T> {
    const value = await doc;
    if (!value) throw notFound(`${what} not found`);
    return value;
  }

  async function validTrigger(trigger: CreateRobotBody['trigger']): Promise<RobotDoc['trigger']> {
    if (trigger.appId) {
      const app = await App.findById(trigger.appId).lean();
      if (!app) throw invalidField('trigger.appId', 'no such app');
      if (!app.supportsInboundTrigger) throw invalidField('trigger.appId', 'the app does not support inbound triggers');
      return { kind: 'custom', appId: app._id, connectionId: null, identifier: null, token: null };
    }
    if (!(await Connection.exists({ _id: trigger.connectionId }))) {
      throw invalidField('trigger.connectionId', 'no such connection');
    }
    return {
      kind: 'stripe',
      appId: null,
      connectionId: trigger.connectionId!,
      events: trigger.events,
      identifier: null,
      token: null,
    };
  }

  /**
   * A run as the API shows it: with its robot's steps, its step results and its outcome. Every
   * read is by `_id` (step results are `<runId>:<step>`), so it costs the same however many runs
   * are stored.
   */
  async function runWithSteps(run: RunDoc) {
    const robot = await byId<RobotDoc>(Robot, run.robotId);
    const steps = robot?.steps ?? [];
    const [outcome, stored] = await Promise.all([
      byId<RunOutcomeDoc>(RunOutcome, run._id),
      Promise.all(steps.map((_, i) => byId<StepResultDoc>(StepResult, `${run._id}:${i}`))),
    ]);
    const results: StepResultText[] = [];
    for (const result of stored) {
      if (!result) continue;
      const { output, ...r } = result;
      results.push({ ...r, outputJson: output && (await loadJson(models, outputBlobId(r.runId, r.index), output)) });
    }
    const triggerJson = await loadJson(models, triggerBlobId(run._id), run.trigger);
    const delivery = await byId<DeliveryDoc>(Delivery, run.deliveryId);
    const workflowId = delivery && workflowIdOfRun(run._id, delivery);
    return runView({ run, triggerJson, steps, results, outcome: outcome ?? undefined }, workflowUrl(ui, workflowId));
  }

  router.post('/apps', async (ctx) => {
    const body = await readJson(ctx, createAppBody);
    const app = await App.create({ _id: newId(), ...body, createdAt: new Date() });
    ctx.status = 201;
    ctx.body = appView(app.toObject());
  });

  router.get('/apps/:id', async (ctx) => {
    ctx.body = appView(await found('app', App.findById(ctx.params.id).lean()));
  });

  router.post('/connections', async (ctx) => {
    const { signingSecret, ...body } = await readJson(ctx, createConnectionBody);
    const connection = await Connection.create({
      _id: newId(),
      ...body,
      signingSecretSealed: signingSecret ? encryptSecret(config.secretsKey, signingSecret) : null,
      createdAt: new Date(),
    });
    ctx.status = 201;
    ctx.body = connectionView(connection.toObject());
  });

  router.get('/connections/:id', async (ctx) => {
    ctx.body = connectionView(await found('connection', Connection.findById(ctx.params.id).lean()));
  });

  router.post('/robots', async (ctx) => {
    const body = await readJson(ctx, createRobotBody);
    const robot = await Robot.create({
      _id: newId(),
      name: body.name,
      state: 'draft',
      trigger: await validTrigger(body.trigger),
      steps: body.steps.map((s) => ({ name: s.name, type: s.type, templateJson: JSON.stringify(s.template) })),
      createdAt: new Date(),
    });
    ctx.status = 201;
    ctx.body = robotView(robot.toObject(), config.baseUrl);
  });

  router.get('/robots/:id', async (ctx) => {
    const robot = await found('robot', Robot.findById(ctx.params.id).lean());
    ctx.body = robotView(robot, config.baseUrl, await robotHistory(models, robot._id));
  });

  /** Puts the robot to work; its webhook URL and token are made the first time only. */
  router.post('/robots/:id/start', async (ctx) => {
    const robot = await found('robot', Robot.findById(ctx.params.id).lean());
    const trigger = robot.trigger.identifier
      ? robot.trigger
      : { ...robot.trigger, identifier: triggerIdentifier(robot.trigger.kind, newId()), token: newToken() };
    // Only a robot without an identifier gets one, so two concurrent starts agree on the URL.
    await Robot.updateOne(
      { _id: robot._id, 'trigger.identifier': robot.trigger.identifier },
      { $set: { state: 'at_work', 'trigger.identifier': trigger.identifier, 'trigger.token': trigger.token } },
    );
    const updated = await found('robot', Robot.findById(robot._id).lean());
    triggers.forget(updated.trigger.identifier);
    ctx.body = robotView(updated, config.baseUrl);
  });

  router.post('/robots/:id/stop', async (ctx) => {
    const robot = await found(
      'robot',
      Robot.findByIdAndUpdate(ctx.params.id, { $set: { state: 'stopped' } }, { new: true }).lean(),
    );
    triggers.forget(robot.trigger.identifier);
    ctx.body = robotView(robot, config.baseUrl);
  });

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

  return router;
}
