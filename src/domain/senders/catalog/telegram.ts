/** Telegram: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const telegram: Sender = {
  label: 'Telegram (Bot API)',
  group: 'messaging',
  settings: [
    secret('Secret token', {
      pattern: { source: '^[A-Za-z0-9_-]{1,256}$', message: 'up to 256 letters, digits, _ and - (as Telegram takes)' },
    }),
  ],
  setup:
    'Telegram has no page for it: call https://api.telegram.org/bot<bot token>/setWebhook with url=<the URL> ' +
    'and secret_token=<a random token you choose> (bot token from @BotFather), and paste the same token here. ' +
    'Telegram takes only ports 443, 80, 88 and 8443 in the URL.',
  signature: { family: 'static', header: 'X-Telegram-Bot-Api-Secret-Token' },
  checks: '`X-Telegram-Bot-Api-Secret-Token` equals the secret token (constant time); Telegram signs nothing',
  deliveryId: { json: 'update_id' },
  dedup: "`update_id` (Telegram's own, the same when it sends an update again; the credential is a static token)",
  redelivery:
    'an update answered with anything but 2xx is sent again, with the same `update_id`, for an unstated ' +
    'number of attempts; later updates wait for it [unconfirmed]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    update_id: 512345678,
    message: {
      message_id: 42,
      from: { id: 1234567, is_bot: false, first_name: 'Ann' },
      chat: { id: 1234567, first_name: 'Ann', type: 'private' },
      date: 1767268800,
      text: '/start',
    },
  }),
};
