/**
 * What the delivery inspector shows of a request (docs/dashboard.md, "The delivery inspector"), made
 * once as the request arrives and stored with its delivery:
 *
 * - **Every header, credentials masked.** A header that carries a credential (the app's sender's, as
 *   its catalog entry names them, and any whose name says it is one: `authorization`, `cookie`,
 *   `*token*`, `*secret*`, …) is listed by name with its value replaced by MASKED: never stored, so
 *   no reader of the store, the API or the dashboard, whatever their role, can see it. Past
 *   INSPECTED_HEADERS_BYTES the rest are counted, not kept; each value is cut at KEPT_HEADER_BYTES.
 * - **The path, its token masked** as the card masks it for a viewer (`…` and its last 4
 *   characters); a query parameter whose name says it is a credential (Meta's `hub.verify_token`)
 *   masked too.
 * - **The sender's event name** where it has one (`eventName`): a header (`x-github-event`) read as
 *   the request arrives, else a field of the parsed body (Stripe's `type`) once it is parsed; a
 *   refused body is never parsed, so a refused delivery shows a header's name only.
 */
import { EVENT_NAME_CHARS, INSPECTED_HEADERS_BYTES, KEPT_HEADER_BYTES } from './limits';
import type { JsonValue, RequestCapture } from './types';

/** What a credential's value is shown as. */
export const MASKED = '(credential: not kept)';

/** Names that say a header or a query parameter carries a credential, whoever sends it. */
const CREDENTIAL_NAME = /authorization|cookie|secret|passw|token|api[-_]?key|x-auth|private/i;

/** A URL token as a viewer may see it: enough to recognise it, not to send to it. */
export const maskedToken = (token: string): string => `…${token.slice(-4)}`;

/** The webhook path's token masked, and each credential query parameter's value (the access log's path too). */
export function maskedPath(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf('?');
  const path = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
  const segments = path.split('/');
  // …/api/webhooks/<trigger_identifier>/<token> (BASE_URL may have a path of its own), in any case: the
  // router matches paths so.
  const at = segments.findIndex((s, i) => s.toLowerCase() === 'api' && segments[i + 1]?.toLowerCase() === 'webhooks');
  if (at !== -1 && segments[at + 3] !== undefined)
    segments[at + 3] = maskedToken(decodeSafely(segments[at + 3]).trim());
  if (q === -1) return segments.join('/');
  const query = pathAndQuery
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decodeSafely(eq === -1 ? pair : pair.slice(0, eq));
      return eq !== -1 && CREDENTIAL_NAME.test(name) ? `${pair.slice(0, eq)}=${encodeURIComponent(MASKED)}` : pair;
    });
  return `${segments.join('/')}?${query.join('&')}`;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * The request as the inspector shows it; `credentials` are the lower-case names of the headers the
 * app's sender carries its credential in (src/domain/senders/checks.ts `credentialHeaders`).
 */
export function captureRequest(
  req: { method: string; pathAndQuery: string; headers: Record<string, string | string[] | undefined> },
  credentials: readonly string[],
): RequestCapture {
  const headers: Array<[string, string]> = [];
  let bytes = 0;
  let leftOut = 0;
  for (const [name, raw] of Object.entries(req.headers)) {
    if (raw === undefined) continue;
    const masked = credentials.includes(name) || CREDENTIAL_NAME.test(name);
    const value = masked ? MASKED : (Array.isArray(raw) ? raw.join(', ') : raw).slice(0, KEPT_HEADER_BYTES);
    bytes += name.length + value.length;
    if (bytes > INSPECTED_HEADERS_BYTES) leftOut++;
    else headers.push([name, value]);
  }
  return {
    method: req.method,
    path: maskedPath(req.pathAndQuery),
    headers,
    ...(leftOut > 0 ? { headersLeftOut: leftOut } : {}),
  };
}

/** Headers senders name their event in, in the order they are looked for. */
const EVENT_HEADERS = [
  'x-github-event',
  'x-gitlab-event',
  'x-gitea-event',
  'x-event-key',
  'x-shopify-topic',
  'x-wc-webhook-topic',
  'twitch-eventsub-subscription-type',
  'x-webhook-event',
  'x-event-type',
  'x-event-name',
];

/** Fields of a parsed body senders name their event in (a dotted path), in the order they are looked for. */
const EVENT_FIELDS = ['type', 'event', 'event_type', 'eventType', 'topic', 'webhookEvent', 'meta.event_name'];

/** The sender's event name: from a header, else (once parsed) a field of the body; undefined when it has none. */
export function eventName(headers: ReadonlyArray<[string, string]>, data?: JsonValue): string | undefined {
  for (const name of EVENT_HEADERS) {
    const found = headers.find(([n]) => n === name);
    if (found && found[1] !== MASKED && found[1] !== '') return found[1].slice(0, EVENT_NAME_CHARS);
  }
  if (data === undefined) return undefined;
  for (const path of EVENT_FIELDS) {
    let value: JsonValue | undefined = data;
    for (const key of path.split('.')) {
      value =
        value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, key)
          ? value[key]
          : undefined;
    }
    if (typeof value === 'string' && value !== '') return value.slice(0, EVENT_NAME_CHARS);
  }
  return undefined;
}
