/** Every sender's fixture (./fixture.ts), with the form variants of GitHub and Slack. */
import type { SenderFixture } from './fixture';
import { asanaSender } from './asana';
import { basicSender } from './basic';
import { calendlySender } from './calendly';
import { discordSender } from './discord';
import { dropboxSender } from './dropbox';
import { githubFormSender, githubSender } from './github';
import { gitlabSender } from './gitlab';
import { headerTokenSender } from './header-token';
import { hmacSender } from './hmac';
import { hubspotSender } from './hubspot';
import { mailgunSender } from './mailgun';
import { metaSender } from './meta';
import { microsoftGraphSender } from './microsoft-graph';
import { notionSender } from './notion';
import { oktaSender } from './okta';
import { paddleSender } from './paddle';
import { sendgridSender } from './sendgrid';
import { shopifySender } from './shopify';
import { slackInteractivitySender, slackSender, slackSlashCommandSender } from './slack';
import { squareSender } from './square';
import { standardWebhooksSender } from './standard-webhooks';
import { twilioSender } from './twilio';
import { twitchSender } from './twitch';
import { zoomSender } from './zoom';
import { woocommerceSender } from './woocommerce';
import { airtableSender } from './airtable';
import { trelloSender } from './trello';
import { xeroSender } from './xero';
import { mondaySender } from './monday';
import { xSender } from './x';
import { mandrillSender } from './mandrill';
import { adyenSender } from './adyen';
import { pandadocSender } from './pandadoc';
import { netlifySender } from './netlify';
import { onfleetSender } from './onfleet';
import { linearSender } from './linear';
import { zendeskSender } from './zendesk';
import { workosSender } from './workos';
import { webflowSender } from './webflow';
import { customerioSender } from './customerio';
import { telnyxSender } from './telnyx';
import { boxSender } from './box';
import { docusignSender } from './docusign';
import { sanitySender } from './sanity';
import { polarSender } from './polar';
import { clerkSender } from './clerk';
import { resendSender } from './resend';
import { openaiSender } from './openai';
import { telegramSender } from './telegram';
import { intercomSender } from './intercom';
import { typeformSender } from './typeform';
import { jiraSender } from './jira';
import { bitbucketSender } from './bitbucket';
import { vercelSender } from './vercel';
import { sentrySender } from './sentry';
import { razorpaySender } from './razorpay';
import { lemonsqueezySender } from './lemonsqueezy';
import { gocardlessSender } from './gocardless';
import { calcomSender } from './calcom';
import { clickupSender } from './clickup';
import { paystackSender } from './paystack';
import { segmentSender } from './segment';
import { postmarkSender } from './postmark';
import { chargebeeSender } from './chargebee';
import { pipedriveSender } from './pipedrive';
import { coinbaseSender } from './coinbase';
import { tallySender } from './tally';
import { fastspringSender } from './fastspring';
import { commercelayerSender } from './commercelayer';
import { veriffSender } from './veriff';
import { mauticSender } from './mautic';
import { acuitySender } from './acuity';
import { recurlyRotatingSender, recurlySender } from './recurly';
import { personaRotatingSender, personaSender } from './persona';
import { tiktokSender } from './tiktok';
import { frontSender } from './front';
import { airwallexSender } from './airwallex';
import { orbSender } from './orb';
import { smartcarSender } from './smartcar';

export const SENDER_FIXTURES: readonly SenderFixture[] = [
  standardWebhooksSender,
  githubSender,
  githubFormSender,
  shopifySender,
  slackSender,
  slackInteractivitySender,
  slackSlashCommandSender,
  twilioSender,
  metaSender,
  zoomSender,
  microsoftGraphSender,
  twitchSender,
  dropboxSender,
  oktaSender,
  asanaSender,
  notionSender,
  discordSender,
  sendgridSender,
  calendlySender,
  paddleSender,
  hubspotSender,
  squareSender,
  gitlabSender,
  mailgunSender,
  linearSender,
  zendeskSender,
  workosSender,
  webflowSender,
  customerioSender,
  telnyxSender,
  boxSender,
  docusignSender,
  sanitySender,
  polarSender,
  clerkSender,
  resendSender,
  openaiSender,
  woocommerceSender,
  airtableSender,
  trelloSender,
  xeroSender,
  mondaySender,
  xSender,
  mandrillSender,
  adyenSender,
  pandadocSender,
  netlifySender,
  onfleetSender,
  telegramSender,
  intercomSender,
  typeformSender,
  jiraSender,
  bitbucketSender,
  vercelSender,
  sentrySender,
  razorpaySender,
  lemonsqueezySender,
  gocardlessSender,
  calcomSender,
  clickupSender,
  paystackSender,
  segmentSender,
  postmarkSender,
  chargebeeSender,
  pipedriveSender,
  coinbaseSender,
  tallySender,
  fastspringSender,
  commercelayerSender,
  veriffSender,
  mauticSender,
  acuitySender,
  recurlySender,
  recurlyRotatingSender,
  personaSender,
  personaRotatingSender,
  tiktokSender,
  frontSender,
  airwallexSender,
  orbSender,
  smartcarSender,
  headerTokenSender,
  basicSender,
  hmacSender,
];
