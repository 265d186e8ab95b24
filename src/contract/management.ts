/**
 * The management API's operations, declared once as data and named: method, path, request body and
 * query (by their names in ./requests.ts), and what each status answers (by name in ./answers.ts).
 * The server gives each its handler (src/api/, `route`), which then must return its declared 2xx
 * answer; the dashboard calls each through web/src/api.ts, whose paths, bodies and answers come
 * from here. This module imports types only (and ./workspace-operations.ts, which declares the
 * workspace operations the same way): the browser bundle takes them whole and nothing else.
 *
 * Each declares who may call it (`access`, src/domain/workspaces.ts) and, for a write, the action
 * the audit log records it as (`audit`, src/workspaces/audit.ts).
 *
 * A lifecycle transition answers 409 when its state table can refuse it (src/domain/robot-lifecycle.ts;
 * test/unit/routes.test.ts holds the two together).
 */
import type { Operation } from './operation';
import { WORKSPACE_OPERATIONS } from './workspace-operations';

export const MANAGEMENT = {
  openApiDocument: {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document',
    access: 'viewer',
    answers: { 200: 'document' },
  },
  codecEndpoint: {
    method: 'get',
    path: '/api/codec',
    summary:
      'The codec endpoint to give the Temporal Web UI in a browser (its Codec Server setting): bodies in it are encrypted',
    access: 'operator',
    answers: { 200: 'Codec' },
  },
  createApp: {
    method: 'post',
    path: '/api/apps',
    summary: 'Create a custom app',
    access: 'editor',
    audit: 'app.create',
    body: 'CreateApp',
    answers: { 201: 'App', 400: 'Error', 409: 'Error' },
  },
  listApps: {
    method: 'get',
    path: '/api/apps',
    summary: 'Every custom app, newest first',
    access: 'viewer',
    answers: { 200: 'Apps' },
  },
  getApp: {
    method: 'get',
    path: '/api/apps/:id',
    summary: 'A custom app',
    access: 'viewer',
    answers: { 200: 'App', 404: 'Error' },
  },
  editApp: {
    method: 'patch',
    path: '/api/apps/:id',
    summary: "Edit a custom app's name, body format, verification or dedup (for deliveries accepted from then on)",
    access: 'editor',
    audit: 'app.edit',
    body: 'UpdateApp',
    answers: { 200: 'App', 400: 'Error', 404: 'Error' },
  },
  createConnection: {
    method: 'post',
    path: '/api/connections',
    summary: 'Connect the payment provider (the signing secret is write-only)',
    access: 'editor',
    audit: 'connection.create',
    body: 'CreateConnection',
    answers: { 201: 'Connection', 400: 'Error' },
  },
  editConnection: {
    method: 'patch',
    path: '/api/connections/:id',
    summary: "Edit a payment provider connection's name, signing secret (replaced or removed) or event types",
    access: 'editor',
    audit: 'connection.edit',
    body: 'UpdateConnection',
    answers: { 200: 'Connection', 400: 'Error', 404: 'Error' },
  },
  listConnections: {
    method: 'get',
    path: '/api/connections',
    summary: 'Every payment provider connection, newest first',
    access: 'viewer',
    answers: { 200: 'Connections' },
  },
  getConnection: {
    method: 'get',
    path: '/api/connections/:id',
    summary: 'A payment provider connection',
    access: 'viewer',
    answers: { 200: 'Connection', 404: 'Error' },
  },
  createRobot: {
    method: 'post',
    path: '/api/robots',
    summary: 'Create a robot (not yet at work)',
    access: 'editor',
    audit: 'robot.create',
    body: 'CreateRobot',
    answers: { 201: 'Robot', 400: 'Error', 409: 'Error' },
  },
  listRobots: {
    method: 'get',
    path: '/api/robots',
    summary: "A page of the workspace's robots (newest first; by name with `search`) with their counts",
    access: 'viewer',
    query: 'RobotsPage',
    answers: { 200: 'Robots', 400: 'Error' },
  },
  getRobot: {
    method: 'get',
    path: '/api/robots/:id',
    summary: 'A robot with its card and run counts',
    access: 'viewer',
    answers: { 200: 'Robot', 404: 'Error' },
  },
  robotFields: {
    method: 'get',
    path: '/api/robots/:id/fields',
    summary:
      "The fields the robot's last 100 deliveries carried: each {{trigger.*}} placeholder, its types and an example",
    access: 'viewer',
    answers: { 200: 'RobotFields', 404: 'Error' },
  },
  sendTestDelivery: {
    method: 'post',
    path: '/api/robots/:id/test-delivery',
    summary: "Send a test delivery: a body in the robot's format (its sample when none is given), marked as a test",
    access: 'editor',
    audit: 'robot.test-delivery',
    body: 'TestDelivery',
    answers: { 202: 'TestDeliverySent', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
  editRobot: {
    method: 'patch',
    path: '/api/robots/:id',
    summary: "Edit a robot's name, steps or trigger rules (new ones apply to deliveries accepted from then on)",
    access: 'editor',
    audit: 'robot.edit',
    body: 'UpdateRobot',
    answers: { 200: 'Robot', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
  start: {
    method: 'post',
    path: '/api/robots/:id/start',
    summary: 'Put the robot to work: its webhook URL appears on the card',
    access: 'editor',
    audit: 'robot.start',
    answers: { 200: 'Robot', 404: 'Error' },
  },
  stop: {
    method: 'post',
    path: '/api/robots/:id/stop',
    summary: 'Stop the robot: its URL answers 404',
    access: 'editor',
    audit: 'robot.stop',
    answers: { 200: 'Robot', 404: 'Error' },
  },
  pause: {
    method: 'post',
    path: '/api/robots/:id/pause',
    summary: 'Pause the robot: its URL keeps answering 200 and deliveries wait; nothing runs',
    access: 'editor',
    audit: 'robot.pause',
    answers: { 200: 'Robot', 404: 'Error', 409: 'Error' },
  },
  resume: {
    method: 'post',
    path: '/api/robots/:id/resume',
    summary: 'Resume the robot: what waited runs in arrival order, then new deliveries as usual',
    access: 'editor',
    audit: 'robot.resume',
    answers: { 200: 'Robot', 404: 'Error', 409: 'Error' },
  },
  rotateToken: {
    method: 'post',
    path: '/api/robots/:id/trigger/rotate',
    summary: 'A new token (and URL) for the trigger; the old one keeps working for graceHours',
    access: 'editor',
    audit: 'robot.rotate-token',
    body: 'RotateToken',
    answers: { 200: 'Robot', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
  confirmHandshakeSecret: {
    method: 'post',
    path: '/api/robots/:id/trigger/handshake-secrets/confirm',
    summary:
      "Makes a secret the sender gave in a handshake (pending, named by its fingerprint) the URL's: events signed " +
      "with it run from then on; Notion's token is answered this once, to paste back",
    access: 'editor',
    audit: 'robot.confirm-handshake-secret',
    body: 'ConfirmHandshakeSecret',
    answers: { 200: 'ConfirmedSecret', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
  listRuns: {
    method: 'get',
    path: '/api/robots/:id/runs',
    summary: "The robot's run history, newest first",
    access: 'viewer',
    query: 'Page',
    answers: { 200: 'RunsPage', 400: 'Error', 404: 'Error' },
  },
  getRun: {
    method: 'get',
    path: '/api/runs/:id',
    summary: 'One run with its steps',
    access: 'viewer',
    answers: { 200: 'Run', 404: 'Error' },
  },
  listDeliveries: {
    method: 'get',
    path: '/api/robots/:id/deliveries',
    summary: "The robot's deliveries log, newest first; filtered by outcome, time and event name when asked",
    access: 'viewer',
    query: 'DeliveriesPage',
    answers: { 200: 'DeliveriesPage', 400: 'Error', 404: 'Error' },
  },
  getDelivery: {
    method: 'get',
    path: '/api/deliveries/:id',
    summary: 'One delivery',
    access: 'viewer',
    answers: { 200: 'Delivery', 404: 'Error' },
  },
  getDeliveryBody: {
    method: 'get',
    path: '/api/deliveries/:id/body',
    summary: "A page of a delivery's body as it came (the inspector reads a large one a page at a time)",
    access: 'viewer',
    query: 'BodyPage',
    answers: { 200: 'BodyPage', 400: 'Error', 404: 'Error' },
  },
  getDeliveryFile: {
    method: 'get',
    path: '/api/deliveries/:id/files/:sha256',
    summary: "A file a `form` delivery's multipart body carried, by the sha256 its trigger data names",
    access: 'viewer',
    answers: { 200: 'file', 404: 'Error' },
  },
  replayDelivery: {
    method: 'post',
    path: '/api/deliveries/:id/replay',
    summary: "Replay a delivery: a new delivery from its raw body, in the app's format and robot's steps of now",
    access: 'editor',
    audit: 'delivery.replay',
    answers: { 202: 'Replayed', 404: 'Error', 409: 'Error' },
  },
  replayDeliveries: {
    method: 'post',
    path: '/api/robots/:id/deliveries/replay',
    summary: "Replay the robot's deliveries of one outcome (newest first, up to 1,000 a request)",
    access: 'editor',
    audit: 'robot.replay-deliveries',
    body: 'ReplayMany',
    answers: { 202: 'ReplayedMany', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
  ...WORKSPACE_OPERATIONS,
} as const satisfies Record<string, Operation>;

export type ManagementOperation = keyof typeof MANAGEMENT;
