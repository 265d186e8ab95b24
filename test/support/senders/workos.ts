/**
 * WorkOS as the tests play it. WorkOS's library (`@workos-inc/node`) computes signatures only
 * asynchronously, so deliveries are signed here by the algorithm its `webhooks.verifyHeader` checks:
 * `WorkOS-Signature: t=<unix ms>, v1=<hex HMAC-SHA256 of "<t>.<body>">` under the endpoint's secret taken
 * as text; the library refuses a `t` more than 180 000 ms old (it does not check the future side).
 * `sdkAccepts` runs the library's `constructEvent`. The event's `id` (in the signed body) is the same on
 * WorkOS's retries. No handshake.
 */
import { createHmac } from 'node:crypto';
import { WorkOS } from '@workos-inc/node';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const webhookSecret = madeSecret('workos-webhook-secret', 24);
const otherSecret = madeSecret('workos-other-secret', 24);

const event = {
  id: 'event_01HMADEUPEVENT0000000000001',
  event: 'user.created',
  data: {
    object: 'user',
    id: 'user_01HMADEUPUSER00000000000001',
    email: 'ann@example.com',
    email_verified: true,
    first_name: 'Ann',
    last_name: 'Lee',
    profile_picture_url: null,
    last_sign_in_at: null,
    locale: null,
    external_id: null,
    metadata: {},
    created_at: '2026-01-01T12:00:00.000Z',
    updated_at: '2026-01-01T12:00:00.000Z',
  },
  created_at: '2026-01-01T12:00:00.000Z',
};
const body = JSON.stringify(event);

/** The `WorkOS-Signature` header's value for `body` under `secret` at `at`. */
export function workosSignature(secret: string, body: string | Buffer, at: Date): string {
  const t = at.getTime();
  return `t=${t}, v1=${createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')}`;
}

const sign = (secret: string, body: string, at: Date): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'WorkOS-Signature': workosSignature(secret, body, at) },
  body,
});

export const workosSender: SenderFixture = {
  name: 'workos',
  verification: { scheme: 'workos', secret: webhookSecret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(webhookSecret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: 180,
  async sdkAccepts(sent) {
    // The library re-serialises the parsed payload (`JSON.stringify`), as WorkOS's bodies are compact JSON.
    const payload: Record<string, unknown> = JSON.parse(String(sent.body));
    await new WorkOS('sk_test_made_up_key').webhooks.constructEvent({
      payload,
      sigHeader: sent.headers['WorkOS-Signature'],
      secret: webhookSecret,
    });
  },
};
