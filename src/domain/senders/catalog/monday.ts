/** monday.com: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const monday: Sender = {
  label: 'monday.com',
  group: 'productivity',
  settings: [secret('Signing Secret')],
  setup:
    "Create the webhook through your app (GraphQL create_webhook with the URL, using the app's token): only " +
    "an app's webhooks are signed. Signing Secret: Developer Center → your app → Basic information.",
  signature: { family: 'jwt', header: 'Authorization', audience: 'url' },
  checks:
    '`Authorization: <JWT, HS256 under the Signing Secret>` whose `aud` is this URL and whose `exp` (5 minutes ' +
    'after it was made) has not passed; the token does not cover the body',
  deliveryId: null,
  dedup: "the body's digest (the token does not cover the body, so its `event.triggerUuid` is not trusted)",
  redelivery: 'retried once a minute for 30 minutes on a failure',
  handshake: {
    kind: 'echo-json',
    field: 'challenge',
    echo: 'json',
    signed: false,
    method: 'POST',
    request: '`{"challenge":"…"}` when the webhook is created',
    answer: '`200` the same JSON `{"challenge":"…"}`',
  },
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  signsPartOfBody: true,
  sample: json({
    event: {
      app: 'monday',
      type: 'create_pulse',
      triggerTime: '2026-01-01T12:00:00.000Z',
      subscriptionId: 73759690,
      boardId: 1771812698,
      pulseId: 1772099344,
      pulseName: 'Ship it',
      triggerUuid: 'b5ed2e17c530f43668de130142445cba',
    },
  }),
};
