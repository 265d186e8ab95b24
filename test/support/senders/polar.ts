/**
 * Polar as the tests play it: Standard Webhooks (`webhook-id`, `webhook-timestamp` in unix seconds,
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`), signed with the
 * `standardwebhooks` library that Polar's SDK uses. The key is NOT base64-decoded: Polar's SDK
 * (`@polar-sh/sdk/webhooks`, `validateEvent`) base64-encodes the UTF-8 of the whole secret as pasted
 * (`polar_whs_…`, prefix included) before handing it to that library, so the HMAC key is the secret's
 * text. The library refuses a timestamp more than 300 s off either way; `webhook-id` is the same on
 * Polar's retries. `sdkAccepts` runs `validateEvent`. No handshake.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// A secret as Polar's webhook settings show it: `polar_whs_` and 43 random characters.
const secret = madeSecret('polar_whs_made-up-webhook-secret', 53);
const otherSecret = madeSecret('polar_whs_another-webhook-secret', 53);

const event = {
  type: 'customer.created',
  timestamp: '2026-01-01T12:00:00.000Z',
  data: {
    id: '992fae2a-0000-4000-8000-000000000001',
    created_at: '2026-01-01T12:00:00.000Z',
    modified_at: null,
    metadata: {},
    external_id: null,
    email: 'ann@example.com',
    email_verified: false,
    type: 'individual',
    name: 'Ann Lee',
    billing_name: null,
    billing_address: null,
    tax_id: null,
    organization_id: '1dbfc517-0000-4000-8000-000000000002',
    deleted_at: null,
    avatar_url: null,
  },
};
const body = JSON.stringify(event);

/** The library's signer keyed as Polar's SDK keys it: the secret's UTF-8 bytes. */
const signerFor = (secret: string) => new Webhook(Buffer.from(secret, 'utf8').toString('base64'));

function sign(secret: string, body: string, at: Date): SentRequest {
  const id = `msg_${randomUUID()}`;
  return {
    method: 'POST',
    query: '',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signerFor(secret).sign(id, at, body),
    },
    body,
  };
}

/** Polar's verify, loaded by a specifier the type checker does not resolve (its types sit under `exports`). */
const POLAR_WEBHOOKS = '@polar-sh/sdk/webhooks';

interface PolarWebhooks {
  validateEvent(body: string | Buffer, headers: Record<string, string>, secret: string): unknown;
}
const isPolarWebhooks = (mod: unknown): mod is PolarWebhooks =>
  typeof mod === 'object' && mod !== null && 'validateEvent' in mod && typeof mod.validateEvent === 'function';

export const polarSender: SenderFixture = {
  name: 'polar',
  verification: { scheme: 'polar', secret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(secret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: 300,
  async sdkAccepts(sent) {
    const mod: unknown = await import(POLAR_WEBHOOKS);
    if (!isPolarWebhooks(mod)) throw new Error('@polar-sh/sdk/webhooks has no validateEvent');
    mod.validateEvent(sent.body, sent.headers, secret);
  },
};
