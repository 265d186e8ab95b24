/** Webflow: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const webflow: Sender = {
  label: 'Webflow',
  group: 'commerce',
  settings: [secret('Client secret (of the OAuth app)')],
  setup:
    "Create the webhook through your OAuth app (POST /sites/{site_id}/webhooks with the app's token, the URL " +
    "as `url`); paste the app's client secret here. Webhooks made in the site's dashboard are not signed.",
  signature: {
    family: 'hmac',
    header: 'x-webflow-signature',
    encoding: 'hex',
    content: '{time}:{body}',
    time: { header: 'x-webflow-timestamp', unit: 'ms' },
  },
  checks:
    '`x-webflow-signature: <hex HMAC-SHA256 of "timestamp:body">`, `x-webflow-timestamp` (unix ms) within ' +
    '5 minutes, as its docs say',
  deliveryId: null,
  dedup: "the body's digest (only some events carry an id of their own)",
  redelivery: 'retried on an answer other than 200 (up to 3 attempts), disabled after repeated failures [unconfirmed]',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    triggerType: 'form_submission',
    payload: { name: 'Contact Us', data: { email: 'ann@example.com' }, id: '6321ca84df3949bfc6752001' },
  }),
};
