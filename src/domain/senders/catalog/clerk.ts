/** Clerk: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, SENT_BY_SVIX, whsecSecret, type Sender } from './sender';

export const clerk: Sender = {
  label: 'Clerk',
  group: 'identity',
  settings: [whsecSecret('Signing Secret (whsec_…)')],
  setup:
    "Clerk Dashboard → Configure → Webhooks → Add Endpoint: paste the URL, pick the events. Copy the endpoint's " +
    'Signing Secret (whsec_…) here.',
  ...SENT_BY_SVIX,
  redelivery:
    "Svix's schedule (at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) with the same `svix-id`; " +
    'replayed by hand from the Dashboard',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    type: 'user.created',
    object: 'event',
    data: { id: 'user_29w83sxmDNGwOuEthce5gg56FcC', object: 'user', first_name: 'Ann' },
  }),
};
