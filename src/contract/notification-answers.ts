/**
 * The answers of notification channels (docs/notifications.md), part of the management API's answers
 * (./answers.ts, `ANSWERS`). A webhook channel's secret is in the answer that made it, never again.
 */
import { z } from 'zod';
import { CHANNEL_KINDS } from '../domain/notifications';
import { answer, time } from './answer-shape';

const channelShape = {
  id: z.string(),
  kind: z.enum(CHANNEL_KINDS),
  /** webhook and slack: where it is sent; null for email. */
  url: z.string().nullable(),
  /** email: the address; null otherwise. */
  to: z.string().nullable(),
  /** `failing` once CHANNEL_FAILING_AFTER notifications in a row failed every attempt. */
  status: z.enum(['ok', 'failing']),
  failuresInARow: z.number().int(),
  /** Why its last failed attempt (or test) failed, one line; null when none has. */
  lastError: z.string().nullable(),
  lastFailedAt: time.nullable(),
  lastSentAt: time.nullable(),
  createdAt: time,
};
const channelAnswer = answer(channelShape);
/** A channel as made: a webhook channel's `whsec_` secret (receivers verify with it), this once; null for others. */
const createdChannelAnswer = answer({ ...channelShape, secret: z.string().nullable() });
const channelsAnswer = answer({ channels: z.array(channelAnswer), nextCursor: z.string().nullable() });
/** A test delivered: the channel's answer's status (an email's: 250, the SMTP server took it). */
const testedChannelAnswer = answer({ delivered: z.literal(true), status: z.number().int() });

/** Their schemas, by the name they have in the OpenAPI document. */
export const NOTIFICATION_ANSWERS = {
  NotificationChannel: channelAnswer,
  CreatedNotificationChannel: createdChannelAnswer,
  NotificationChannels: channelsAnswer,
  TestedNotificationChannel: testedChannelAnswer,
} satisfies Record<string, z.ZodTypeAny>;

export type NotificationChannelAnswer = z.output<typeof channelAnswer>;
