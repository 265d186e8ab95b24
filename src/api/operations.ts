/**
 * Every route of the service's port as data: its method and path, whether it needs the admin
 * token, which zod schema (src/api/schemas.ts) its body, query and each answer take, by the name
 * they have in the OpenAPI document (./openapi.ts renders it). test/openapi.test.ts checks this
 * list against the routes the service really has.
 */
import type { ZodObject, ZodRawShape, ZodTypeAny } from 'zod';
import {
  bulkReplayBody,
  createAppBody,
  createConnectionBody,
  createRobotBody,
  payloadsBody,
  listQuery,
  rotateTokenBody,
  updateAppBody,
  updateRobotBody,
} from './schemas';
import {
  appAnswer,
  appsAnswer,
  connectionsAnswer,
  robotsAnswer,
  bulkReplayAnswer,
  connectionAnswer,
  deliveriesPageAnswer,
  deliveryAnswer,
  errorAnswer,
  codecAnswer,
  payloadsAnswer,
  replayAnswer,
  robotAnswer,
  runAnswer,
  runsPageAnswer,
} from './answers';
import { WEBHOOK_PATH } from '../domain/ids';

/** Answers' schemas, by the name they have in the document. */
export const ANSWERS = {
  Error: errorAnswer,
  App: appAnswer,
  Connection: connectionAnswer,
  Robot: robotAnswer,
  Run: runAnswer,
  RunsPage: runsPageAnswer,
  Delivery: deliveryAnswer,
  DeliveriesPage: deliveriesPageAnswer,
  Apps: appsAnswer,
  Connections: connectionsAnswer,
  Robots: robotsAnswer,
  Replayed: replayAnswer,
  ReplayedMany: bulkReplayAnswer,
  Payloads: payloadsAnswer,
  Codec: codecAnswer,
} satisfies Record<string, ZodTypeAny>;
/**
 * Request bodies' schemas, likewise (described as the sender writes them: defaults may be left
 * out). Their names differ from the answers': both are in one namespace of the document.
 */
export const BODIES = {
  CreateApp: createAppBody,
  CreateConnection: createConnectionBody,
  CreateRobot: createRobotBody,
  UpdateApp: updateAppBody,
  UpdateRobot: updateRobotBody,
  RotateToken: rotateTokenBody,
  ReplayMany: bulkReplayBody,
  PayloadsToCode: payloadsBody,
} satisfies Record<string, ZodTypeAny>;

type AnswerName = keyof typeof ANSWERS;
type BodyName = keyof typeof BODIES;

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch';
  /** Koa's form: `/api/robots/:id`. */
  path: string;
  summary: string;
  /** Needs `Authorization: Bearer <admin token>` (everything but the webhook URL and the Web UI's codec key). */
  admin: boolean;
  body?: BodyName | 'raw';
  query?: ZodObject<ZodRawShape>;
  /** Status → the answer's schema, `empty`, or `text` (metrics, the document). */
  answers: Record<number, AnswerName | 'empty' | 'text' | 'document'>;
}

const webhook = (method: 'post' | 'put'): Operation => ({
  method,
  path: WEBHOOK_PATH,
  summary:
    `Deliver a webhook (${method.toUpperCase()} and ${method === 'post' ? 'PUT' : 'POST'} behave the same). ` +
    'The token in the path is the only credential.',
  admin: false,
  body: 'raw',
  answers: { 200: 'empty', 400: 'empty', 404: 'empty', 408: 'empty', 413: 'empty', 429: 'empty', 503: 'empty' },
});

/** The codec endpoints (src/codec-routes.ts): with the admin token, or under the Web UI's key. */
const codec = (operation: 'encode' | 'decode', withKey: boolean): Operation => ({
  method: 'post',
  path: withKey ? `/codec/:key/${operation}` : `/codec/${operation}`,
  summary:
    `${operation === 'encode' ? 'Encrypt' : 'Decrypt'} payloads as the workers do (Temporal's codec server)` +
    (withKey ? ", for the Temporal Web UI: the key is GET /api/codec's" : ''),
  admin: !withKey,
  body: 'PayloadsToCode',
  answers: withKey ? { 200: 'Payloads', 400: 'Error', 401: 'Error' } : { 200: 'Payloads', 400: 'Error' },
});

/** Every route of the service's port (the metrics port's /metrics and /healthz are in docs/operations.md). */
export const OPERATIONS: Operation[] = [
  { method: 'get', path: '/api/openapi.json', summary: 'This document', admin: true, answers: { 200: 'document' } },
  {
    method: 'get',
    path: '/api/codec',
    summary: 'The codec endpoint to give the Temporal Web UI (TEMPORAL_CODEC_ENDPOINT): bodies in it are encrypted',
    admin: true,
    answers: { 200: 'Codec' },
  },
  codec('encode', false),
  codec('decode', false),
  codec('encode', true),
  codec('decode', true),
  webhook('post'),
  webhook('put'),
  {
    method: 'post',
    path: '/api/apps',
    summary: 'Create a custom app',
    admin: true,
    body: 'CreateApp',
    answers: { 201: 'App', 400: 'Error' },
  },
  {
    method: 'get',
    path: '/api/apps',
    summary: 'Every custom app, newest first',
    admin: true,
    answers: { 200: 'Apps' },
  },
  { method: 'get', path: '/api/apps/:id', summary: 'A custom app', admin: true, answers: { 200: 'App', 404: 'Error' } },
  {
    method: 'patch',
    path: '/api/apps/:id',
    summary: "Edit a custom app's name, body format or verification (for deliveries accepted from then on)",
    admin: true,
    body: 'UpdateApp',
    answers: { 200: 'App', 400: 'Error', 404: 'Error' },
  },
  {
    method: 'post',
    path: '/api/connections',
    summary: 'Connect the payment provider (the signing secret is write-only)',
    admin: true,
    body: 'CreateConnection',
    answers: { 201: 'Connection', 400: 'Error' },
  },
  {
    method: 'get',
    path: '/api/connections',
    summary: 'Every payment provider connection, newest first',
    admin: true,
    answers: { 200: 'Connections' },
  },
  {
    method: 'get',
    path: '/api/connections/:id',
    summary: 'A payment provider connection',
    admin: true,
    answers: { 200: 'Connection', 404: 'Error' },
  },
  {
    method: 'post',
    path: '/api/robots',
    summary: 'Create a robot (not yet at work)',
    admin: true,
    body: 'CreateRobot',
    answers: { 201: 'Robot', 400: 'Error' },
  },
  {
    method: 'get',
    path: '/api/robots',
    summary: 'Every robot (up to 1,000, newest first) with its card and counts',
    admin: true,
    answers: { 200: 'Robots' },
  },
  {
    method: 'get',
    path: '/api/robots/:id',
    summary: 'A robot with its card and run counts',
    admin: true,
    answers: { 200: 'Robot', 404: 'Error' },
  },
  {
    method: 'patch',
    path: '/api/robots/:id',
    summary: "Edit a robot's name or steps (new steps apply to deliveries accepted from then on)",
    admin: true,
    body: 'UpdateRobot',
    answers: { 200: 'Robot', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
  {
    method: 'post',
    path: '/api/robots/:id/start',
    summary: 'Put the robot to work: its webhook URL appears on the card',
    admin: true,
    answers: { 200: 'Robot', 404: 'Error' },
  },
  {
    method: 'post',
    path: '/api/robots/:id/stop',
    summary: 'Stop the robot: its URL answers 404',
    admin: true,
    answers: { 200: 'Robot', 404: 'Error' },
  },
  {
    method: 'post',
    path: '/api/robots/:id/pause',
    summary: 'Pause the robot: its URL keeps answering 200 and deliveries wait; nothing runs',
    admin: true,
    answers: { 200: 'Robot', 404: 'Error', 409: 'Error' },
  },
  {
    method: 'post',
    path: '/api/robots/:id/resume',
    summary: 'Resume the robot: what waited runs in arrival order, then new deliveries as usual',
    admin: true,
    answers: { 200: 'Robot', 404: 'Error', 409: 'Error' },
  },
  {
    method: 'post',
    path: '/api/robots/:id/trigger/rotate',
    summary: 'A new token (and URL) for the trigger; the old one keeps working for graceHours',
    admin: true,
    body: 'RotateToken',
    answers: { 200: 'Robot', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
  {
    method: 'get',
    path: '/api/robots/:id/runs',
    summary: "The robot's run history, newest first",
    admin: true,
    query: listQuery,
    answers: { 200: 'RunsPage', 400: 'Error', 404: 'Error' },
  },
  {
    method: 'get',
    path: '/api/runs/:id',
    summary: 'One run with its steps',
    admin: true,
    answers: { 200: 'Run', 404: 'Error' },
  },
  {
    method: 'get',
    path: '/api/robots/:id/deliveries',
    summary: "The robot's deliveries log, newest first",
    admin: true,
    query: listQuery,
    answers: { 200: 'DeliveriesPage', 400: 'Error', 404: 'Error' },
  },
  {
    method: 'get',
    path: '/api/deliveries/:id',
    summary: 'One delivery',
    admin: true,
    answers: { 200: 'Delivery', 404: 'Error' },
  },
  {
    method: 'post',
    path: '/api/deliveries/:id/replay',
    summary: "Replay a delivery: a new delivery from its raw body, in the app's format and robot's steps of now",
    admin: true,
    answers: { 202: 'Replayed', 404: 'Error', 409: 'Error' },
  },
  {
    method: 'post',
    path: '/api/robots/:id/deliveries/replay',
    summary: "Replay the robot's deliveries of one outcome (newest first, up to 1,000 a request)",
    admin: true,
    body: 'ReplayMany',
    answers: { 202: 'ReplayedMany', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
];
