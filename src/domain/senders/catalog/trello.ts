/** Trello: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const trello: Sender = {
  label: 'Trello',
  group: 'productivity',
  settings: [secret('Secret (of your API key)')],
  setup:
    'Create the webhook with the API (POST https://api.trello.com/1/webhooks) with the URL as callbackURL. ' +
    'Secret: trello.com/power-ups/admin → your Power-Up → API key → Secret.',
  signature: {
    family: 'hmac',
    header: 'X-Trello-Webhook',
    algorithm: 'sha1',
    encoding: 'base64',
    content: '{body}{url}',
  },
  checks: '`X-Trello-Webhook: <base64 HMAC-SHA1 of the body followed by the callbackURL>`',
  deliveryId: { json: 'action.id' },
  dedup: '`action.id` (signed; the same action on a retry)',
  redelivery:
    'retried 3 times (after about 30, 60 and 120 seconds) with the same action; disabled after 30 days of ' +
    'failures [unconfirmed]; an answer of 410 deletes the webhook',
  handshake: {
    kind: 'head',
    method: 'HEAD',
    request: '`HEAD` to the callbackURL when the webhook is created',
    answer: '`200` (Trello creates the webhook only then)',
  },
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    action: {
      id: '6790a0000000000000000001',
      type: 'createCard',
      date: '2026-01-01T12:00:00.000Z',
      data: { card: { id: '6790a0000000000000000002', name: 'Ship it' }, list: { name: 'To do' } },
      memberCreator: { fullName: 'Ann Lee', username: 'annlee' },
    },
    model: { id: '5a0000000000000000000003', name: 'Roadmap' },
  }),
};
