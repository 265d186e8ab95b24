/**
 * A Svix-powered sender (Clerk, Resend, Brex, …), signed by the `svix` library itself, which sends
 * `svix-id` / `svix-timestamp` / `svix-signature`: the standard-webhooks check reads those names when no
 * `webhook-*` header is sent.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'svix';
import type { SenderFixture } from './fixture';

const secret = 'whsec_' + Buffer.from('svix-signing-key-' + 'k'.repeat(16)).toString('base64');
const other = 'whsec_' + Buffer.from('another-signing-key-' + 'k'.repeat(12)).toString('base64');

const sign = (key: string) => (body: string, _url: string, at: Date) => {
  const id = `msg_${randomUUID()}`;
  return {
    method: 'POST' as const,
    query: '',
    headers: {
      'content-type': 'application/json',
      'svix-id': id,
      'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
      'svix-signature': new Webhook(key).sign(id, at, body),
    },
    body,
  };
};

export const standardWebhooksSender: SenderFixture = {
  name: 'standard-webhooks',
  verification: { scheme: 'standard-webhooks', secret },
  body: '{"type":"user.created","data":{"id":"user_29w83sxmDNGwOuEthce5gg56FcC"}}',
  triggerData: { type: 'user.created', data: { id: 'user_29w83sxmDNGwOuEthce5gg56FcC' } },
  signed: sign(secret),
  signedWrongly: sign(other),
  toleranceSeconds: 300,
};
