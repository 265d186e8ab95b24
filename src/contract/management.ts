/**
 * The management API's operations, declared once as data and named: method, path, request body and
 * query (by their names in ./requests.ts), and what each status answers (by name in ./answers.ts).
 * The server gives each its handler (src/api/, `route`), which then must return its declared 2xx
 * answer; the dashboard calls each through web/src/api.ts, whose paths, bodies and answers come
 * from here. This module imports types only: the browser bundle takes it whole and nothing else.
 *
 * A lifecycle transition answers 409 when its state table can refuse it (src/domain/robot-lifecycle.ts;
 * test/unit/routes.test.ts holds the two together).
 */
import type { Operation } from './operation';

const admin = true;

export const MANAGEMENT = {
  openApiDocument: {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document',
    admin,
    answers: { 200: 'document' },
  },
  codecEndpoint: {
    method: 'get',
    path: '/api/codec',
    summary:
      'The codec endpoint to give the Temporal Web UI in a browser (its Codec Server setting): bodies in it are encrypted',
    admin,
    answers: { 200: 'Codec' },
  },
  createApp: {
    method: 'post',
    path: '/api/apps',
    summary: 'Create a custom app',
    admin,
    body: 'CreateApp',
    answers: { 201: 'App', 400: 'Error' },
  },
  listApps: {
    method: 'get',
    path: '/api/apps',
    summary: 'Every custom app, newest first',
    admin,
    answers: { 200: 'Apps' },
  },
  getApp: {
    method: 'get',
    path: '/api/apps/:id',
    summary: 'A custom app',
    admin,
    answers: { 200: 'App', 404: 'Error' },
  },
  editApp: {
    method: 'patch',
    path: '/api/apps/:id',
    summary: "Edit a custom app's name, body format, verification or dedup (for deliveries accepted from then on)",
    admin,
    body: 'UpdateApp',
    answers: { 200: 'App', 400: 'Error', 404: 'Error' },
  },
  createConnection: {
    method: 'post',
    path: '/api/connections',
    summary: 'Connect the payment provider (the signing secret is write-only)',
    admin,
    body: 'CreateConnection',
    answers: { 201: 'Connection', 400: 'Error' },
  },
  listConnections: {
    method: 'get',
    path: '/api/connections',
    summary: 'Every payment provider connection, newest first',
    admin,
    answers: { 200: 'Connections' },
  },
  getConnection: {
    method: 'get',
    path: '/api/connections/:id',
    summary: 'A payment provider connection',
    admin,
    answers: { 200: 'Connection', 404: 'Error' },
  },
  createRobot: {
    method: 'post',
    path: '/api/robots',
    summary: 'Create a robot (not yet at work)',
    admin,
    body: 'CreateRobot',
    answers: { 201: 'Robot', 400: 'Error' },
  },
  listRobots: {
    method: 'get',
    path: '/api/robots',
    summary: 'Every robot (up to 1,000, newest first) with its card and counts',
    admin,
    answers: { 200: 'Robots' },
  },
  getRobot: {
    method: 'get',
    path: '/api/robots/:id',
    summary: 'A robot with its card and run counts',
    admin,
    answers: { 200: 'Robot', 404: 'Error' },
  },
  robotFields: {
    method: 'get',
    path: '/api/robots/:id/fields',
    summary:
      "The fields the robot's last 100 deliveries carried: each {{trigger.*}} placeholder, its types and an example",
    admin,
    answers: { 200: 'RobotFields', 404: 'Error' },
  },
  sendTestDelivery: {
    method: 'post',
    path: '/api/robots/:id/test-delivery',
    summary: "Send a test delivery: a body in the robot's format (its sample when none is given), marked as a test",
    admin,
    body: 'TestDelivery',
    answers: { 202: 'TestDeliverySent', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
  editRobot: {
    method: 'patch',
    path: '/api/robots/:id',
    summary: "Edit a robot's name, steps or trigger rules (new ones apply to deliveries accepted from then on)",
    admin,
    body: 'UpdateRobot',
    answers: { 200: 'Robot', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
  start: {
    method: 'post',
    path: '/api/robots/:id/start',
    summary: 'Put the robot to work: its webhook URL appears on the card',
    admin,
    answers: { 200: 'Robot', 404: 'Error' },
  },
  stop: {
    method: 'post',
    path: '/api/robots/:id/stop',
    summary: 'Stop the robot: its URL answers 404',
    admin,
    answers: { 200: 'Robot', 404: 'Error' },
  },
  pause: {
    method: 'post',
    path: '/api/robots/:id/pause',
    summary: 'Pause the robot: its URL keeps answering 200 and deliveries wait; nothing runs',
    admin,
    answers: { 200: 'Robot', 404: 'Error', 409: 'Error' },
  },
  resume: {
    method: 'post',
    path: '/api/robots/:id/resume',
    summary: 'Resume the robot: what waited runs in arrival order, then new deliveries as usual',
    admin,
    answers: { 200: 'Robot', 404: 'Error', 409: 'Error' },
  },
  rotateToken: {
    method: 'post',
    path: '/api/robots/:id/trigger/rotate',
    summary: 'A new token (and URL) for the trigger; the old one keeps working for graceHours',
    admin,
    body: 'RotateToken',
    answers: { 200: 'Robot', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
  listRuns: {
    method: 'get',
    path: '/api/robots/:id/runs',
    summary: "The robot's run history, newest first",
    admin,
    query: 'Page',
    answers: { 200: 'RunsPage', 400: 'Error', 404: 'Error' },
  },
  getRun: {
    method: 'get',
    path: '/api/runs/:id',
    summary: 'One run with its steps',
    admin,
    answers: { 200: 'Run', 404: 'Error' },
  },
  listDeliveries: {
    method: 'get',
    path: '/api/robots/:id/deliveries',
    summary: "The robot's deliveries log, newest first",
    admin,
    query: 'Page',
    answers: { 200: 'DeliveriesPage', 400: 'Error', 404: 'Error' },
  },
  getDelivery: {
    method: 'get',
    path: '/api/deliveries/:id',
    summary: 'One delivery',
    admin,
    answers: { 200: 'Delivery', 404: 'Error' },
  },
  getDeliveryFile: {
    method: 'get',
    path: '/api/deliveries/:id/files/:sha256',
    summary: "A file a `form` delivery's multipart body carried, by the sha256 its trigger data names",
    admin,
    answers: { 200: 'file', 404: 'Error' },
  },
  replayDelivery: {
    method: 'post',
    path: '/api/deliveries/:id/replay',
    summary: "Replay a delivery: a new delivery from its raw body, in the app's format and robot's steps of now",
    admin,
    answers: { 202: 'Replayed', 404: 'Error', 409: 'Error' },
  },
  replayDeliveries: {
    method: 'post',
    path: '/api/robots/:id/deliveries/replay',
    summary: "Replay the robot's deliveries of one outcome (newest first, up to 1,000 a request)",
    admin,
    body: 'ReplayMany',
    answers: { 202: 'ReplayedMany', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
} as const satisfies Record<string, Operation>;

export type ManagementOperation = keyof typeof MANAGEMENT;
