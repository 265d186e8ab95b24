/**
 * Telegram as the tests play it. Telegram signs nothing: the Bot API's `setWebhook` takes an optional
 * `secret_token` (1 to 256 characters of `A-Z a-z 0-9 _ -`, chosen by the bot's owner), and every update
 * it then posts carries that value unchanged in `X-Telegram-Bot-Api-Secret-Token`
 * (core.telegram.org/bots/api#setwebhook). No time, no handshake; the update's `update_id` is the same
 * when Telegram sends an update again after a failed answer.
 */
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// What a person passes to setWebhook as secret_token (only letters, digits, `_` and `-`).
const secretToken = madeSecret('telegram_secret_token', 64);
const otherToken = madeSecret('telegram_other_token', 64);

const update = {
  update_id: 512345678,
  message: {
    message_id: 42,
    from: { id: 1234567, is_bot: false, first_name: 'Ann', username: 'ann_example', language_code: 'en' },
    chat: { id: 1234567, first_name: 'Ann', username: 'ann_example', type: 'private' },
    date: 1767268800,
    text: '/start',
    entities: [{ offset: 0, length: 6, type: 'bot_command' }],
  },
};
const body = JSON.stringify(update);

const sign = (token: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': token },
  body,
});

export const telegramSender: SenderFixture = {
  name: 'telegram',
  verification: { scheme: 'telegram', secret: secretToken },
  body,
  triggerData: update,
  signed: (body) => sign(secretToken, body),
  signedWrongly: (body) => sign(otherToken, body),
  toleranceSeconds: null,
};
