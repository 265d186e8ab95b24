/**
 * Netlify deploy notifications (outgoing webhooks) as the tests play them. With a "JWS secret token" set,
 * Netlify sends `X-Webhook-Signature: <JWT, HS256 under that token>` whose claims are `iss: "netlify"` and
 * `sha256`, the hex SHA-256 of the body (docs.netlify.com/site-deploys/deploy-notifications, "Payload
 * signature"); the JWT carries no time. Netlify has no verify library; `jsonwebtoken` signs it here. No
 * handshake.
 */
import { createHash } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const jwsSecret = madeSecret('netlify-jws-secret', 40);
const otherSecret = madeSecret('netlify-other-secret', 40);

const deploy = {
  id: '6790a0000000000000000001',
  site_id: 'fa4dd95a-0000-4000-8000-000000000001',
  build_id: '6790a0000000000000000002',
  state: 'ready',
  name: 'made-up-site',
  url: 'https://made-up-site.netlify.app',
  ssl_url: 'https://made-up-site.netlify.app',
  admin_url: 'https://app.netlify.com/sites/made-up-site',
  deploy_ssl_url: 'https://6790a0000000000000000001--made-up-site.netlify.app',
  created_at: '2026-01-01T11:58:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
  published_at: '2026-01-01T12:00:00.000Z',
  error_message: null,
  branch: 'main',
  context: 'production',
  commit_ref: '0123456789abcdef0123456789abcdef01234567',
  title: 'Ship it',
  deploy_time: 120,
};
const body = JSON.stringify(deploy);

/** The `X-Webhook-Signature` JWT for `body` under `secret`. */
export const netlifySignature = (secret: string, body: string | Buffer) =>
  jwt.sign({ iss: 'netlify', sha256: createHash('sha256').update(body).digest('hex') }, secret, {
    algorithm: 'HS256',
    noTimestamp: true,
  });

const sign = (secret: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'X-Webhook-Signature': netlifySignature(secret, body),
  },
  body,
});

export const netlifySender: SenderFixture = {
  name: 'netlify',
  verification: { scheme: 'netlify', secret: jwsSecret },
  body,
  triggerData: deploy,
  signed: (body) => sign(jwsSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
  sdkAccepts(sent) {
    const claims = jwt.verify(String(sent.headers['X-Webhook-Signature']), jwsSecret, {
      algorithms: ['HS256'],
      issuer: 'netlify',
    });
    const digest = createHash('sha256').update(sent.body).digest('hex');
    if (typeof claims !== 'object' || claims.sha256 !== digest) throw new Error('the sha256 claim is not the body');
  },
};
