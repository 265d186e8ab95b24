/**
 * Robots: create, read, edit, and the trigger's life: put to work (the card's URL appears),
 * pause (deliveries are held), resume (they run, in arrival order), stop (the URL answers 404),
 * and token rotation (a new URL, the old one kept for a grace period).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { newId } from '../domain/secrets';
import type { StepDefinition } from '../domain/types';
import { robotHistory } from '../history/reads';
import { conflict, invalidField, readJson } from '../http';
import { ROBOTS_LISTED } from '../domain/limits';
import { releaseHeld } from '../deliveries/hold';
import { editSteps, StepsEditConflict } from '../robots/steps-versions';
import { RobotLifecycle } from '../robots/lifecycle';
import type { RobotDoc } from '../storage/documents';
import { found } from './lookups';
import type { ManagementDeps } from './deps';
import { createRobotBody, rotateTokenBody, updateRobotBody, type CreateRobotBody, type StepBody } from './schemas';
import { robotView } from './views';

const stepDefinitions = (steps: StepBody[]): StepDefinition[] =>
  steps.map((s) => ({ name: s.name, type: s.type, templateJson: JSON.stringify(s.template) }));

export function robotRoutes(router: Router, deps: ManagementDeps): void {
  const { config, models, triggers, log } = deps;
  const { App, Connection, Robot } = models;
  const robotById = (ctx: Context) => found('robot', Robot.findById((ctx.params as { id: string }).id).lean());

  async function validTrigger(trigger: CreateRobotBody['trigger']): Promise<RobotDoc['trigger']> {
    if (trigger.appId) {
      const app = await App.findById(trigger.appId).lean();
      if (!app) throw invalidField('trigger.appId', 'no such app');
      if (!app.supportsInboundTrigger) throw invalidField('trigger.appId', 'the app does not support inbound triggers');
      return { kind: 'custom', appId: app._id, connectionId: null, identifier: null };
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
    };
  }

  // Its transitions (src/robots/lifecycle.ts); a release runs in the background (src/deliveries/hold.ts).
  const lifecycle = new RobotLifecycle({
    models,
    secretsKey: config.secretsKey,
    forget: (identifier) => triggers.forget(identifier),
    release: (robot) => {
      const { heldSince } = robot;
      deps.background.run(async (signal) => {
        try {
          await releaseHeld(deps, robot._id, heldSince, signal);
          // Cleared only while no pause came since: a later pause's deliveries wait for its own resume.
          if (!signal.aborted) await Robot.updateOne({ _id: robot._id, heldSince }, { $set: { heldSince: null } });
        } catch (err) {
          log.warn('releasing held deliveries stopped; each goes on within an hour', {
            robotId: robot._id,
            err: String(err),
          });
        }
      });
    },
  });

  router.post('/robots', async (ctx) => {
    const body = await readJson(ctx, createRobotBody);
    const robot = await Robot.create({
      _id: newId(),
      name: body.name,
      state: 'draft',
      trigger: await validTrigger(body.trigger),
      steps: stepDefinitions(body.steps),
      stepsVersion: 0,
      createdAt: new Date(),
    });
    ctx.status = 201;
    ctx.body = robotView(robot.toObject(), config);
  });

  /**
   * Every robot with its counts, newest first (robots are few: one read, then each robot's tally by
   * `_id`), without their cards: a webhook URL is read one robot at a time.
   */
  router.get('/robots', async (ctx) => {
    const robots = await Robot.find().lean();
    robots.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const shown = robots.slice(0, ROBOTS_LISTED);
    const histories = await Promise.all(shown.map((r) => robotHistory(models, r._id)));
    ctx.body = { robots: shown.map((r, i) => robotView(r, config, histories[i], { card: false })) };
  });

  router.get('/robots/:id', async (ctx) => {
    const robot = await robotById(ctx);
    ctx.body = robotView(robot, config, await robotHistory(models, robot._id));
  });

  /** New steps apply to deliveries accepted from then on (src/robots/steps-versions.ts). */
  router.patch('/robots/:id', async (ctx) => {
    const body = await readJson(ctx, updateRobotBody);
    const robot = await robotById(ctx);
    if (body.steps) {
      try {
        await editSteps(models, robot, stepDefinitions(body.steps));
      } catch (err) {
        if (err instanceof StepsEditConflict) throw conflict(err.message);
        throw err;
      }
    }
    if (body.name) await Robot.updateOne({ _id: robot._id }, { $set: { name: body.name } });
    await triggers.forget(robot.trigger.identifier);
    ctx.body = robotView(await robotById(ctx), config);
  });

  /** Puts the robot to work; its webhook URL and token are made the first time only. Releases what was held. */
  router.post('/robots/:id/start', async (ctx) => {
    ctx.body = robotView(await lifecycle.start(await robotById(ctx)), config);
  });

  router.post('/robots/:id/stop', async (ctx) => {
    ctx.body = robotView(await lifecycle.stop(await robotById(ctx)), config);
  });

  /** Deliveries keep being accepted (200) and wait; nothing runs until the robot is resumed. */
  router.post('/robots/:id/pause', async (ctx) => {
    ctx.body = robotView(await lifecycle.pause(await robotById(ctx)), config);
  });

  /** Runs what was held, in arrival order (in the background), then new deliveries as usual. */
  router.post('/robots/:id/resume', async (ctx) => {
    ctx.body = robotView(await lifecycle.resume(await robotById(ctx)), config);
  });

  router.post('/robots/:id/trigger/rotate', async (ctx) => {
    const { graceHours } = await readJson(ctx, rotateTokenBody);
    ctx.body = robotView(await lifecycle.rotate(await robotById(ctx), graceHours), config);
  });
}
