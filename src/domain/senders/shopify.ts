/** Shopify: `X-Shopify-Hmac-Sha256: <base64 HMAC-SHA256 of the body>`. */
import { digestHeader, hmac, setting, type SenderCheck } from './check';

export const shopify: SenderCheck = {
  verify: (v, { headers, body }) =>
    digestHeader(headers, 'X-Shopify-Hmac-Sha256', hmac('sha256', setting(v, 'secret'), body), 'base64'),
  headersRead: () => ['x-shopify-hmac-sha256', 'x-shopify-webhook-id', 'x-shopify-topic'],
};
