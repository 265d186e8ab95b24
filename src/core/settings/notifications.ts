/** Notifications of issues (docs/notifications.md): the SMTP server email channels go through, and outbound rules. */
import { z } from 'zod';
import { DEFAULT_NOTIFY_ATTEMPTS, DEFAULT_NOTIFY_BACKOFF_MS } from '../../domain/limits';
import { flag, positiveInt, wholeNumber } from './fields';

/** An SMTP server's URL: `smtp://` (STARTTLS when offered) or `smtps://`, with its login when it needs one. */
const smtpUrl = z
  .string()
  .refine(
    (v) => /^smtps?:\/\/[^/?#]+/.test(v) && URL.canParse(v),
    'expected smtp://[user:pass@]host[:port] or smtps://…',
  );

export const notificationSettings = {
  SMTP_URL: smtpUrl
    .optional()
    .describe(
      'The SMTP server email channels are sent through (`smtps://user:pass@smtp.example.com`); without it an ' +
        'email channel is refused when made ([notifications.md](notifications.md))',
    ),
  SMTP_FROM: z.email('expected an email address').optional().describe('The sender (`From`) of notification emails'),
  NOTIFY_ALLOW_PRIVATE_ADDRESSES: flag
    .default('0')
    .describe(
      '`1`: notifications may go to loopback and private addresses (tests, a receiver on a private network); ' +
        'off, a channel URL whose host is or resolves to one is refused ([security.md](security.md))',
    ),
  NOTIFY_ATTEMPTS: wholeNumber({ min: 1, max: 100 })
    .default(DEFAULT_NOTIFY_ATTEMPTS)
    .describe('Attempts at one notification to one channel before it counts as failed (tests set 2)'),
  NOTIFY_BACKOFF_MS: positiveInt('milliseconds')
    .default(DEFAULT_NOTIFY_BACKOFF_MS)
    .describe("The wait before a notification's second attempt, doubling each time up to 5 minutes (tests set 50)"),
};
