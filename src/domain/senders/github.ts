/**
 * GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`. Its form content type
 * (`payload=<JSON>`) is read as the JSON it carries (src/domain/form-bodies.ts), on a json app.
 */
import { digestHeader, hmac, setting, type SenderCheck } from './check';

export const github: SenderCheck = {
  verify: (v, { headers, body }) =>
    digestHeader(headers, 'X-Hub-Signature-256', hmac('sha256', setting(v, 'secret'), body), 'hex', 'sha256='),
  headersRead: () => ['x-hub-signature-256', 'x-github-delivery', 'x-github-event'],
};
