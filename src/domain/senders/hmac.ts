/** Any sender that signs the body with an HMAC in one header: `<header>: <prefix><digest>`. */
import { digestHeader, hmac as mac, setting, type SenderCheck } from './check';

export const hmac: SenderCheck = {
  verify: (v, { headers, body }) =>
    digestHeader(
      headers,
      setting(v, 'header'),
      mac(v.algorithm ?? 'sha256', setting(v, 'secret'), body),
      v.encoding ?? 'hex',
      v.prefix,
    ),
  headersRead: (v) => [setting(v, 'header').toLowerCase()],
};
