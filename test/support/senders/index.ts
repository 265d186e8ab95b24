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
  headerTokenSender,
  basicSender,
  hmacSender,
];
