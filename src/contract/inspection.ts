/**
 * The delivery inspector's part of the management API (docs/api.md, "The delivery inspector"): the
 * deliveries log's server-side filters, a delivery's request as it came, and its body a page at a time.
 * Imports zod, the domain's types and limits only: the dashboard's bundle takes it whole.
 */
import { z } from 'zod';
import { DELIVERY_OUTCOMES } from '../domain/types';
import { BODY_PAGE_BYTES, EVENT_NAME_CHARS } from '../domain/limits';
import { answer } from './answer-shape';

/**
 * A page of the deliveries log, newest first: of one outcome, received within `since`..`until`, whose
 * event name holds `event` (any case), when given. A filtered page looks at DELIVERY_FILTER_SCAN
 * deliveries at most and may hold fewer than `limit` with a `nextCursor` to go on.
 */
export const deliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  cursor: z.string().max(500).optional(),
  outcome: z.enum(DELIVERY_OUTCOMES).optional(),
  since: z.iso.datetime().optional(),
  until: z.iso.datetime().optional(),
  event: z.string().min(1).max(EVENT_NAME_CHARS).optional(),
});
export type DeliveriesQuery = z.output<typeof deliveriesQuery>;

/** A page of a delivery's kept body: `limit` bytes from `offset`. */
export const bodyPageQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(BODY_PAGE_BYTES).default(BODY_PAGE_BYTES),
});

/** The request as it came (src/domain/inspection.ts): credentials masked, the URL's token masked. */
export const requestCaptureAnswer = answer({
  method: z.string(),
  path: z.string(),
  /** `[name, value]` in the order they came; a credential's value is `(credential: not kept)`. */
  headers: z.array(z.tuple([z.string(), z.string()])),
  /** Headers past the bytes kept (INSPECTED_HEADERS_BYTES), counted, not kept. */
  headersLeftOut: z.number().int().optional(),
});

/**
 * A page of a delivery's body: its bytes as UTF-8 text (a page ends on a character's boundary) or,
 * for a body that is not UTF-8, base64; `nextOffset` null at the end of what is kept.
 */
export const bodyPageAnswer = answer({
  /** The body's size as it came. */
  size: z.number().int(),
  /** The bytes of it kept: its size, or fewer for a refused body (REFUSED_BODY_KEPT_BYTES). */
  kept: z.number().int(),
  offset: z.number().int(),
  encoding: z.enum(['utf8', 'base64']),
  data: z.string(),
  nextOffset: z.number().int().nullable(),
});
export type BodyPageAnswer = z.output<typeof bodyPageAnswer>;
