/**
 * The management API's requests: bodies and queries, validated on every request (the OpenAPI
 * document, src/contract/openapi.ts, is generated from them and from ./answers.ts), and the payloads
 * the codec server takes.
 */
import { z } from 'zod';
import { BODY_FORMATS, DELIVERY_OUTCOMES, ROBOT_STATES, type JsonValue } from '../domain/types';
import {
  DEFAULT_GRACE_HOURS,
  MAX_GRACE_HOURS,
  ROBOTS_PAGE,
  ROBOTS_PAGE_MAX,
  TRIGGER_RULES_MAX,
} from '../domain/limits';
import { auditQuery, WORKSPACE_BODIES } from './workspace-requests';
import { NOTIFICATION_BODIES } from './notification-requests';
import { ISSUE_QUERIES } from './issue-schemas';
import { bodyPageQuery, deliveriesQuery } from './inspection';
import { RULE_OPS, ruleProblem } from '../domain/trigger-rules';
import { DEDUP_KEYS, DEDUP_WINDOW_MS } from '../domain/dedup';
import { headerName, secret, verificationBody, verificationEditBody } from './verification-requests';

export { verificationBody, verificationEditBody } from './verification-requests';

/**
 * A field left out is answered `<field>: required` (zod's own words would be "Invalid input: expected
 * string, received undefined"); every other problem in zod's words or the schema's. Set for the process,
 * below any message a schema gives.
 */
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'required' : undefined),
});

const name = z.string().trim().min(1).max(200);
const id = z.string().min(1).max(100);
export const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

/** What an app's deliveries are told apart by, and for how long (src/domain/dedup.ts). */
export const dedupBody = z
  .object({
    key: z.enum(DEDUP_KEYS),
    header: headerName.transform((h) => h.toLowerCase()).optional(),
    path: z.string().min(1).max(300).optional(),
    windowSeconds: z
      .number()
      .int()
      .min(1)
      .max(DEDUP_WINDOW_MS / 1000, 'at most the namespace retention: 259200 (72 hours)')
      .optional(),
  })
  .strict();

export const createAppBody = z
  .object({
    name,
    supportsInboundTrigger: z.boolean(),
    bodyFormat: z.enum(BODY_FORMATS).default('json'),
    verification: verificationBody.nullable().optional(),
    dedup: dedupBody.nullable().optional(),
  })
  .strict();

/** Fields left out keep their value; `verification: null` removes the check. */
export const updateAppBody = z
  .object({
    name: name.optional(),
    bodyFormat: z.enum(BODY_FORMATS).optional(),
    /** A secret setting left out keeps the app's own (the same sender): the API shows the others, never a secret. */
    verification: verificationEditBody.nullable().optional(),
    /** null: back to auto. */
    dedup: dedupBody.nullable().optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'name at least one field to change');

/** Stripe's event types (`payment_intent.succeeded`): a robot on a connection takes these by default. */
const eventTypes = z.array(z.string().min(1).max(200)).max(100);

export const createConnectionBody = z
  .object({
    provider: z.literal('stripe'),
    name,
    signingSecret: secret.optional(),
    /** The event types its new robots start with (the dashboard's robot form fills them in); none: every event. */
    events: eventTypes.optional(),
  })
  .strict();

/** Fields left out keep their value; `signingSecret: null` removes the check (events taken unsigned). */
export const updateConnectionBody = z
  .object({
    name: name.optional(),
    signingSecret: secret.nullable().optional(),
    events: eventTypes.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'name at least one field to change');

const step = z
  .object({
    name,
    type: z.literal('compose'),
    template: jsonValue.refine((v) => v !== undefined, 'required'),
  })
  .strict();

const trigger = z
  .object({
    appId: id.optional(),
    connectionId: id.optional(),
    events: eventTypes.optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (!t.appId === !t.connectionId) {
      ctx.addIssue({
        code: 'custom',
        path: ['appId'],
        message: 'set exactly one of appId (custom app) or connectionId (payment provider)',
      });
    }
    if (t.events && !t.connectionId) {
      ctx.addIssue({ code: 'custom', path: ['events'], message: 'events applies to a payment provider trigger only' });
    }
  });

/** Conditions a delivery must meet before a run is made (src/domain/trigger-rules.ts). */
const triggerRulesBody = z
  .object({
    match: z.enum(['all', 'any']).default('all'),
    conditions: z
      .array(
        z.object({ field: z.string().min(1).max(300), op: z.enum(RULE_OPS), value: jsonValue.optional() }).strict(),
      )
      .max(TRIGGER_RULES_MAX),
  })
  .strict()
  .superRefine((rules, ctx) => {
    const problem = ruleProblem(rules);
    if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.problem });
  });

export const createRobotBody = z
  .object({
    name,
    trigger,
    steps: z.array(step).max(50).default([]),
    rules: triggerRulesBody.nullable().optional(),
  })
  .strict();

/** Fields left out keep their value. New steps and rules apply to deliveries accepted from then on. */
export const updateRobotBody = z
  .object({
    name: name.optional(),
    steps: z.array(step).max(50).optional(),
    /** null removes them. */
    rules: triggerRulesBody.nullable().optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'name at least one field to change');

const rotateTokenBody = z
  .object({ graceHours: z.number().int().min(0).max(MAX_GRACE_HOURS).default(DEFAULT_GRACE_HOURS) })
  .strict();

/** The pending handshake secret to confirm, by its fingerprint (src/robots/handshake-secrets.ts). */
const confirmHandshakeSecretBody = z.object({ fingerprint: z.string().regex(/^sha256:[0-9a-f]{16}$/) }).strict();

export const deliveryOutcome = z.enum(DELIVERY_OUTCOMES);

/** Which deliveries to replay: those of an outcome, received since a time, from a cursor on (newest first). */
const bulkReplayBody = z
  .object({
    outcome: deliveryOutcome,
    since: z.iso.datetime().optional(),
    cursor: z.string().max(500).optional(),
  })
  .strict();

/** A test delivery: a body of the person's own (in the robot's body format), or the format's sample. */
const testDeliveryBody = z
  .object({
    body: z.string().min(1).optional(),
    contentType: z.string().max(200).optional(),
    /** Request headers to send with it (as a sender would: trigger rules may read them). */
    headers: z
      .record(headerName, z.string().max(1024))
      .refine((h) => Object.keys(h).length <= 20, 'at most 20 headers')
      .optional(),
  })
  .strict();

export const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  cursor: z.string().max(500).optional(),
});

/**
 * A page of the robots (newest first), those whose name holds `search` (any case) and in `state`
 * when given: after `cursor` (a page's `nextCursor`) or before `before` (its `prevCursor`).
 */
const robotsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(ROBOTS_PAGE_MAX).default(ROBOTS_PAGE),
  cursor: z.string().max(500).optional(),
  before: z.string().max(500).optional(),
  search: z.string().max(200).optional(),
  state: z.enum(ROBOT_STATES).optional(),
});

export type CreateRobotBody = z.infer<typeof createRobotBody>;
export type StepBody = z.infer<typeof step>;

/** Temporal's codec-server shape (src/codec/routes.ts): payloads with base64 metadata values and data. */
const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64');
export const payloadsBody = z
  .object({
    payloads: z.array(
      z.object({ metadata: z.record(z.string(), base64).optional(), data: base64.optional() }).strict(),
    ),
  })
  .strict();

/**
 * Request bodies' schemas, by the name they have in the OpenAPI document (described as the sender
 * writes them: defaults may be left out). Their names differ from the answers': both are in one
 * namespace of the document.
 */
/** The queries the management API takes, by their names in its operations (./management.ts). */
export const QUERIES = {
  Page: listQuery,
  RobotsPage: robotsQuery,
  AuditPage: auditQuery,
  DeliveriesPage: deliveriesQuery,
  BodyPage: bodyPageQuery,
  ...ISSUE_QUERIES,
} satisfies Record<string, z.ZodObject>;

export const BODIES = {
  CreateApp: createAppBody,
  CreateConnection: createConnectionBody,
  CreateRobot: createRobotBody,
  UpdateApp: updateAppBody,
  UpdateConnection: updateConnectionBody,
  UpdateRobot: updateRobotBody,
  RotateToken: rotateTokenBody,
  ConfirmHandshakeSecret: confirmHandshakeSecretBody,
  ReplayMany: bulkReplayBody,
  TestDelivery: testDeliveryBody,
  PayloadsToCode: payloadsBody,
  ...WORKSPACE_BODIES,
  ...NOTIFICATION_BODIES,
} satisfies Record<string, z.ZodTypeAny>;
