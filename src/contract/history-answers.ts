/**
 * The answers of a robot's history (docs/api.md): its runs, one run whole, its deliveries log and one
 * delivery with what the inspector shows (./inspection.ts), and what a replay or a test delivery made.
 * Imports zod and the contract's shapes only, as ./answers.ts, which gathers them.
 */
import { z } from 'zod';
import { BODY_FORMATS } from '../domain/types';
import { deliveryOutcome, jsonValue } from './requests';
import { answer, time } from './answer-shape';
import { bodyPageAnswer, requestCaptureAnswer } from './inspection';

const runStatus = z.enum(['running', 'succeeded', 'failed']);

/** A run in the run history: `trigger` when its JSON is at most 1 KiB, else `triggerTruncated`. */
const runSummaryAnswer = answer({
  id: z.string(),
  robotId: z.string(),
  deliveryId: z.string(),
  status: runStatus,
  trigger: jsonValue.optional(),
  triggerTruncated: z.literal(true).optional(),
  createdAt: time,
  finishedAt: time.nullable(),
  /** A run of a test delivery (absent otherwise). */
  test: z.literal(true).optional(),
});

export const runAnswer = answer({
  id: z.string(),
  robotId: z.string(),
  deliveryId: z.string(),
  status: runStatus,
  trigger: jsonValue,
  steps: z.array(
    answer({
      name: z.string(),
      status: z.enum(['pending', 'succeeded', 'failed']),
      output: jsonValue.optional(),
      error: z.string().optional(),
    }),
  ),
  verified: z.boolean().nullable(),
  createdAt: time,
  finishedAt: time.nullable(),
  /** The run's workflow in the Temporal Web UI (TEMPORAL_UI_URL), when it is known; to the operator only. */
  workflowUrl: z.url().nullable().optional(),
  /** A run of a test delivery (absent otherwise). */
  test: z.literal(true).optional(),
  /** Said when every placeholder of its steps came out empty: what to check (absent otherwise). */
  hint: z.string().optional(),
});

export const deliveryAnswer = answer({
  id: z.string(),
  robotId: z.string(),
  receivedAt: time,
  format: z.enum(BODY_FORMATS),
  contentType: z.string().nullable(),
  size: z.number().int(),
  outcome: deliveryOutcome,
  runCount: z.number().int().optional(),
  /** A CSV's rows the trigger rules stopped (absent when none). */
  filteredRows: z.number().int().optional(),
  reason: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  verified: z.boolean().nullable(),
  workflowId: z.string().nullable(),
  /** Its workflow in the Temporal Web UI (TEMPORAL_UI_URL); to the operator only. */
  workflowUrl: z.url().nullable().optional(),
  /** The steps version its runs execute (absent for deliveries recorded before versions). */
  stepsVersion: z.number().int().optional(),
  /** Whether it can be replayed: its whole raw body is kept, and it is no handshake. */
  replayable: z.boolean(),
  /** The delivery it replays. */
  replayOf: z.string().nullable(),
  /** The request headers kept with it (dedup and signature headers). */
  headers: z.record(z.string(), z.string()),
  /** Sent as a test from the robot page or the API (absent otherwise). */
  test: z.literal(true).optional(),
  /** The sender's event name (`x-github-event`, Stripe's `type`), when it has one. */
  event: z.string().optional(),
  /** A duplicate's original, when known. */
  duplicateOf: z.string().optional(),
  /** The status its sender was answered, for one the receiver answered itself (refused, a handshake, a repeat). */
  answered: z.number().int().optional(),
  /** The bytes of its body kept (0: none; fewer than `size`: a refused body's first REFUSED_BODY_KEPT_BYTES). */
  bodyKept: z.number().int(),
  /** Its first runs' ids (up to DELIVERY_RUN_IDS), in order. */
  runIds: z.array(z.string()),
  /** The request as it came (one delivery's answer only; absent before 0.12 and for a test delivery). */
  request: requestCaptureAnswer.optional(),
});

const replayAnswer = answer({ deliveryId: z.string() });
/** The test delivery's id: it shows in the deliveries log, and its fields with the robot's, once the history has it. */
const testDeliveryAnswer = answer({ deliveryId: z.string() });

/** Replayed deliveries' new ids; `nextCursor` continues with the deliveries this request did not reach. */
const bulkReplayAnswer = answer({
  deliveryIds: z.array(z.string()),
  /** Refused deliveries left out: they still do not verify, or only part of their body was kept. */
  notReplayed: z.number().int(),
  nextCursor: z.string().nullable(),
});

export const runsPageAnswer = answer({ runs: z.array(runSummaryAnswer), nextCursor: z.string().nullable() });
export const deliveriesPageAnswer = answer({ deliveries: z.array(deliveryAnswer), nextCursor: z.string().nullable() });

/** The history's answers, by their names in the OpenAPI document. */
export const HISTORY_ANSWERS = {
  Run: runAnswer,
  RunsPage: runsPageAnswer,
  Delivery: deliveryAnswer,
  DeliveriesPage: deliveriesPageAnswer,
  Replayed: replayAnswer,
  TestDeliverySent: testDeliveryAnswer,
  ReplayedMany: bulkReplayAnswer,
  BodyPage: bodyPageAnswer,
} satisfies Record<string, z.ZodTypeAny>;

export type RunSummaryAnswer = z.output<typeof runSummaryAnswer>;
export type RunAnswer = z.output<typeof runAnswer>;
export type DeliveryAnswer = z.output<typeof deliveryAnswer>;
