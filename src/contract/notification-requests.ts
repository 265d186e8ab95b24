/**
 * What the notification channel operations (./notification-operations.ts) take; ./requests.ts gathers
 * them with the rest. A URL's host is checked against the outbound rules when the channel is made
 * (src/notifications/outbound.ts): that needs DNS, so it is not here.
 */
import { z } from 'zod';
import { CHANNEL_EMAIL_CHARS, CHANNEL_URL_CHARS } from '../domain/limits';

const channelUrl = z
  .string()
  .max(CHANNEL_URL_CHARS)
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http:// or https:// URL');

/** A channel: `webhook` or `slack` with its `url`, or `email` with the address it is sent `to`. */
const createChannelBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('webhook'), url: channelUrl }).strict(),
  z.object({ kind: z.literal('slack'), url: channelUrl }).strict(),
  z.object({ kind: z.literal('email'), to: z.email().max(CHANNEL_EMAIL_CHARS) }).strict(),
]);

/** Their bodies, by the name they have in the OpenAPI document. */
export const NOTIFICATION_BODIES = { CreateNotificationChannel: createChannelBody } satisfies Record<
  string,
  z.ZodTypeAny
>;
