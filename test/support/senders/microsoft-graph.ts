/**
 * Microsoft Graph as the tests play it (nothing is signed; Graph has no library that sends): a
 * batch of change notifications, each carrying the subscription's clientState; the handshake is
 * the POST with a `validationToken` query parameter (URL-encoded, as Graph sends it), which Graph
 * checks is answered 200 text/plain with the token, decoded.
 */
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

const clientState = madeSecret('graph-client-state', 32);
const otherState = madeSecret('graph-other-state', 32);
/** Shaped like Graph's: words, spaces and punctuation, so it is URL-encoded in the query. */
export const graphValidationToken =
  'Validation: Testing client application reachability for subscription Request-Id: 1';

const notification = (state: string) => ({
  subscriptionId: 'subscription-1',
  subscriptionExpirationDateTime: '2030-01-01T00:00:00.0000000+00:00',
  changeType: 'created',
  resource: 'Users/user-1/Messages/message-1',
  resourceData: {
    '@odata.type': '#Microsoft.Graph.Message',
    '@odata.id': 'Users/user-1/Messages/message-1',
    id: 'message-1',
  },
  clientState: state,
  tenantId: 'tenant-1',
});

/** A lifecycle notification, as Graph sends to the lifecycleNotificationUrl. */
export const graphLifecycle = (state: string, lifecycleEvent = 'reauthorizationRequired') => ({
  subscriptionId: 'subscription-1',
  subscriptionExpirationDateTime: '2030-01-01T00:00:00.0000000+00:00',
  tenantId: 'tenant-1',
  clientState: state,
  lifecycleEvent,
});

const batch = { value: [notification(clientState), notification(clientState)] };

/** The body with every notification's clientState set to `state` (a body that is no batch: as it is). */
function withClientState(state: string, body: string): SentRequest {
  let sent = body;
  try {
    const parsed = JSON.parse(body) as { value?: unknown };
    if (Array.isArray(parsed.value)) {
      for (const item of parsed.value as Array<Record<string, unknown>>) item.clientState = state;
      sent = JSON.stringify(parsed);
    }
  } catch {
    // Not JSON: sent as it is.
  }
  return { method: 'POST', query: '', headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: sent };
}

export const microsoftGraphSender: SenderFixture = {
  name: 'microsoft-graph',
  verification: { scheme: 'microsoft-graph', secret: clientState },
  body: JSON.stringify(batch),
  // Its clientState is the app's secret: left out of the trigger data (review R2).
  triggerData: { value: batch.value.map(({ clientState: _secret, ...rest }) => rest) },
  signed: (body) => withClientState(clientState, body),
  signedWrongly: (body) => withClientState(otherState, body),
  toleranceSeconds: null,
  handshake: {
    request: () => ({
      method: 'POST',
      query: `?validationToken=${encodeURIComponent(graphValidationToken)}`,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body: '',
    }),
    // Graph: 200 within 10 seconds, text/plain, the token decoded.
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`Graph expects 200, got ${answer.status}`);
      if (!answer.headers['content-type']?.startsWith('text/plain')) {
        throw new Error(`Graph expects text/plain, got ${answer.headers['content-type']}`);
      }
      if (answer.body !== graphValidationToken) throw new Error(`Graph expects the token, got ${answer.body}`);
    },
  },
};
