/** Request bodies of the management API. */
import { z } from 'zod';
import { BODY_FORMATS, type JsonValue } from '../domain/types';

const name = z.string().trim().min(1).max(200);
const id = z.string().min(1).max(100);
const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(jsonValue)]),
);

export const createAppBody = z
  .object({
    name,
    supportsInboundTrigger: z.boolean(),
    bodyFormat: z.enum(BODY_FORMATS).default('json'),
  })
  .strict();

export const createConnectionBody = z
  .object({
    provider: z.literal('stripe'),
    name,
    signingSecret: z.string().min(1).max(500).optional(),
  })
  .strict();

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
    events: z.array(z.string().min(1).max(200)).max(100).optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (!t.appId === !t.connectionId) {
      ctx.addIssue({ code: 'custom', path: ['appId'], message: 'set exactly one of appId (custom app) or connectionId (payment provider)' });
    }
    if (t.events && !t.connectionId) {
      ctx.addIssue({ code: 'custom', path: ['events'], message: 'events applies to a payment provider trigger only' });
    }
  });

export const createRobotBody = z
  .object({
    name,
    trigger,
    steps: z.array(step).max(50).default([]),
  })
  .strict();

export const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  cursor: z.string().max(500).optional(),
});

export type CreateRobotBody = z.infer<typeof createRobotBody>;
