/**
 * Slack: signed as its docs say, and every signature checked by `@slack/bolt`'s own
 * `verifySlackRequest` before it is sent, so the fixture signs exactly what Slack's library accepts.
 * `slackInteractivitySender` and `slackSlashCommandSender` post forms: an interaction's `payload=`
 * JSON, and a slash command's fields, on the same json app.
 */
import { createHmac } from 'node:crypto';
import { verifySlackRequest } from '@slack/bolt';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const secret = madeSecret('slack');

const sign =
  (key: string, contentType: string) =>
  (body: string, _url: string, at: Date): SentRequest => {
    const timestamp = String(Math.floor(at.getTime() / 1000));
    const signature = 'v0=' + createHmac('sha256', key).update(`v0:${timestamp}:${body}`).digest('hex');
    const headers = { 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature };
    // Slack's library is the judge of what Slack signs (it checks the time against `nowMilliseconds`).
    verifySlackRequest({
      signingSecret: key,
      body,
      headers: { ...headers, 'x-slack-request-timestamp': Number(timestamp) },
      nowMilliseconds: at.getTime(),
    });
    return { method: 'POST', query: '', headers: { 'content-type': contentType, ...headers }, body };
  };

const event = { type: 'event_callback', event: { type: 'app_mention', text: '<@U0LAN0Z89> is it everything?' } };

export const slackSender: SenderFixture = {
  name: 'slack',
  verification: { scheme: 'slack', secret },
  body: JSON.stringify(event),
  triggerData: event,
  signed: sign(secret, 'application/json'),
  signedWrongly: sign(madeSecret('another'), 'application/json'),
  toleranceSeconds: 300,
  handshake: {
    request: (url, at) =>
      sign(secret, 'application/json')(
        JSON.stringify({
          token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl',
          challenge: 'chal-3eZbrw1aBm2rZgRNFdxV',
          type: 'url_verification',
        }),
        url,
        at,
      ),
    accepts(answer) {
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/plain/);
      expect(answer.body).toBe('chal-3eZbrw1aBm2rZgRNFdxV');
    },
  },
};

const interaction = { type: 'block_actions', user: { id: 'U1' }, actions: [{ action_id: 'approve', value: 'yes' }] };

export const slackInteractivitySender: SenderFixture = {
  ...slackSender,
  variant: 'interactivity',
  body: new URLSearchParams({ payload: JSON.stringify(interaction) }).toString(),
  triggerData: interaction,
  signed: sign(secret, 'application/x-www-form-urlencoded'),
  signedWrongly: sign(madeSecret('another'), 'application/x-www-form-urlencoded'),
  handshake: undefined,
};

const command = {
  command: '/weather',
  text: '94070',
  user_id: 'U2147483697',
  response_url: 'https://hooks.slack.com/x',
};

export const slackSlashCommandSender: SenderFixture = {
  ...slackInteractivitySender,
  variant: 'slash command',
  body: new URLSearchParams(command).toString(),
  triggerData: command,
};
