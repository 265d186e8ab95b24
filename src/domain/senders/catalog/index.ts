/**
 * The sender catalog: every sender a custom app can name as `verification.scheme`, one file of data
 * each in this folder (./sender.ts says what a sender is). What a person fills in, where they paste
 * the URL, how the sender signs, what its deliveries are told apart by and how it checks the URL
 * first: the API's validation (src/contract/requests.ts), its answers and OpenAPI schema, docs/api.md's
 * table of senders (written from this list by test/unit/senders.test.ts), the dashboard's app form and
 * a test delivery's sample body all read it. The code that checks a request is its family's
 * (../families/, dispatched by ../checks.ts).
 *
 * Adding a sender of a known family: its file here, its line in each of the three lists below, and
 * its fixture (test/support/senders/). Pure data and types: the dashboard bundles this folder.
 */
import type { BodyFormat } from '../../types';
import type { Sender, SenderSettings } from './sender';
import { asana } from './asana';
import { basic } from './basic';
import { calendly } from './calendly';
import { discord } from './discord';
import { dropbox } from './dropbox';
import { github } from './github';
import { gitlab } from './gitlab';
import { headerToken } from './header-token';
import { hmac } from './hmac';
import { hubspot } from './hubspot';
import { mailgun } from './mailgun';
import { meta } from './meta';
import { microsoftGraph } from './microsoft-graph';
import { notion } from './notion';
import { okta } from './okta';
import { paddle } from './paddle';
import { sendgrid } from './sendgrid';
import { shopify } from './shopify';
import { slack } from './slack';
import { square } from './square';
import { standardWebhooks } from './standard-webhooks';
import { twilio } from './twilio';
import { twitch } from './twitch';
import { zoom } from './zoom';
import { woocommerce } from './woocommerce';
import { airtable } from './airtable';
import { trello } from './trello';
import { xero } from './xero';
import { monday } from './monday';
import { x } from './x';
import { mandrill } from './mandrill';
import { adyen } from './adyen';
import { pandadoc } from './pandadoc';
import { netlify } from './netlify';
import { onfleet } from './onfleet';
import { linear } from './linear';
import { zendesk } from './zendesk';
import { workos } from './workos';
import { webflow } from './webflow';
import { customerio } from './customerio';
import { telnyx } from './telnyx';
import { box } from './box';
import { docusign } from './docusign';
import { sanity } from './sanity';
import { polar } from './polar';
import { clerk } from './clerk';
import { resend } from './resend';
import { openai } from './openai';
import { telegram } from './telegram';
import { intercom } from './intercom';
import { typeform } from './typeform';
import { jira } from './jira';
import { bitbucket } from './bitbucket';
import { vercel } from './vercel';
import { sentry } from './sentry';
import { razorpay } from './razorpay';
import { lemonsqueezy } from './lemonsqueezy';
import { gocardless } from './gocardless';
import { calcom } from './calcom';
import { clickup } from './clickup';
import { paystack } from './paystack';
import { segment } from './segment';
import { postmark } from './postmark';
import { chargebee } from './chargebee';
import { pipedrive } from './pipedrive';
import { coinbase } from './coinbase';
import { tally } from './tally';
import { fastspring } from './fastspring';
import { commercelayer } from './commercelayer';
import { veriff } from './veriff';
import { mautic } from './mautic';
import { acuity } from './acuity';
import { recurly } from './recurly';
import { persona } from './persona';
import { tiktok } from './tiktok';
import { front } from './front';
import { airwallex } from './airwallex';
import { orb } from './orb';
import { smartcar } from './smartcar';

export { SETTING_NAMES, HMAC_ALGORITHMS, SIGNATURE_ENCODINGS, SENDER_GROUPS } from './sender';
export type { Sender, SenderGroup, SenderHandshake, SenderSetting, SettingName } from './sender';

/** Every sender by its scheme name, in the order the dashboard offers them. */
export const SENDER_NAMES = [
  'standard-webhooks',
  'github',
  'shopify',
  'slack',
  'twilio',
  'meta',
  'zoom',
  'microsoft-graph',
  'twitch',
  'dropbox',
  'okta',
  'asana',
  'notion',
  'discord',
  'sendgrid',
  'calendly',
  'paddle',
  'hubspot',
  'square',
  'gitlab',
  'mailgun',
  'linear',
  'zendesk',
  'workos',
  'webflow',
  'customerio',
  'telnyx',
  'box',
  'docusign',
  'sanity',
  'polar',
  'clerk',
  'resend',
  'openai',
  'woocommerce',
  'airtable',
  'trello',
  'xero',
  'monday',
  'x',
  'mandrill',
  'adyen',
  'pandadoc',
  'netlify',
  'onfleet',
  'telegram',
  'intercom',
  'typeform',
  'jira',
  'bitbucket',
  'vercel',
  'sentry',
  'razorpay',
  'lemonsqueezy',
  'gocardless',
  'calcom',
  'clickup',
  'paystack',
  'segment',
  'postmark',
  'chargebee',
  'pipedrive',
  'coinbase',
  'tally',
  'fastspring',
  'commercelayer',
  'veriff',
  'mautic',
  'acuity',
  'recurly',
  'persona',
  'tiktok',
  'front',
  'airwallex',
  'orb',
  'smartcar',
  'header-token',
  'basic',
  'hmac',
] as const;
export type SenderName = (typeof SENDER_NAMES)[number];

/**
 * A custom app's verification as stored (sealed, whole) and as the checks read it: the scheme and
 * the settings its sender names. `secret` is absent only for a sender that gives it in its handshake
 * (Asana, Notion) before that handshake came.
 */
export interface CustomVerification extends SenderSettings {
  scheme: SenderName;
}

/** Every sender's file, by its scheme name. */
export const SENDERS: { readonly [name in SenderName]: Sender } = {
  'standard-webhooks': standardWebhooks,
  github,
  shopify,
  slack,
  twilio,
  meta,
  zoom,
  'microsoft-graph': microsoftGraph,
  twitch,
  dropbox,
  okta,
  asana,
  notion,
  discord,
  sendgrid,
  calendly,
  paddle,
  hubspot,
  square,
  gitlab,
  mailgun,
  linear,
  zendesk,
  workos,
  webflow,
  customerio,
  telnyx,
  box,
  docusign,
  sanity,
  polar,
  clerk,
  resend,
  openai,
  woocommerce,
  airtable,
  trello,
  xero,
  monday,
  x,
  mandrill,
  adyen,
  pandadoc,
  netlify,
  onfleet,
  telegram,
  intercom,
  typeform,
  jira,
  bitbucket,
  vercel,
  sentry,
  razorpay,
  lemonsqueezy,
  gocardless,
  calcom,
  clickup,
  paystack,
  segment,
  postmark,
  chargebee,
  pipedrive,
  coinbase,
  tally,
  fastspring,
  commercelayer,
  veriff,
  mautic,
  acuity,
  recurly,
  persona,
  tiktok,
  front,
  airwallex,
  orb,
  smartcar,
  'header-token': headerToken,
  basic,
  hmac,
};

/** Whether a json app of this sender reads form bodies too (`formEnvelope`). */
export const readsFormEnvelope = (format: BodyFormat, sender: SenderName | null): boolean =>
  format === 'json' && sender !== null && SENDERS[sender].formEnvelope === true;

/** Whether a sender's signature carries a time: a capture verifies only within its tolerance. */
export const signsTime = (name: SenderName): boolean => SENDERS[name].toleranceSeconds !== null;
