/** Smartcar: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const smartcar: Sender = {
  label: 'Smartcar',
  group: 'dev-tools',
  settings: [secret('Application Management Token')],
  setup:
    'Smartcar Dashboard → Webhooks → Add webhook: paste the URL as Callback URI and choose the signals (it is ' +
    "verified at once). Copy the application's Application Management Token (its settings) here.",
  signature: { family: 'hmac', header: 'SC-Signature', encoding: 'hex', content: '{body}' },
  checks: '`SC-Signature: <hex HMAC-SHA256 of the body>` under the Application Management Token',
  deliveryId: { json: 'eventId' },
  dedup: "the event's `eventId` (signed; `meta.deliveryId` may change per attempt)",
  redelivery: 'not stated in the pages read [unconfirmed]',
  handshake: {
    kind: 'json-crc',
    when: { field: 'eventType', value: 'VERIFY' },
    token: 'data.challenge',
    digestAs: 'challenge',
    signed: false,
    method: 'POST',
    request: 'a `VERIFY` event with `data.challenge` when the webhook is added (not said to be signed)',
    answer: '`200` JSON `{ challenge }`: hex HMAC-SHA256 of it under the token, within 15 seconds',
  },
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    eventId: '52f6e0bb-1369-45da-a61c-9e67d092d6dc',
    eventType: 'VEHICLE_STATE',
    vehicleId: 'ada8b6d1-ae6e-4f1f-a0d3-3c5f3e1d2a9b',
    data: { signals: [{ code: 'charge-ischarging', name: 'IsCharging', group: 'Charge', body: { value: true } }] },
    meta: { version: '4.0', webhookId: '5a8e5e38-1e12-4011-a36d-56f120053f9e', deliveredAt: '2026-01-01T12:00:00Z' },
  }),
};
