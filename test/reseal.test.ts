/**
 * Re-sealing (src/storage/reseal.ts, `npm run reseal`): after SECRETS_KEY changed, every stored
 * secret sealed with the previous key is sealed with the new one, so the previous key can go.
 */
import { randomBytes } from 'node:crypto';
import { decryptSecret } from '../src/domain/secrets';
import { robotAtWork } from '../src/client/api-client';
import { resealSecrets } from '../src/storage/reseal';
import { startStack, type Stack } from './support/stack';

const before = randomBytes(32);
const after = randomBytes(32);
let stack: Stack;
beforeAll(async () => {
  // A webhook channel on loopback (no DNS): NOTIFY_ALLOW_PRIVATE_ADDRESSES lets it be made.
  stack = await startStack(
    { SECRETS_KEY: before.toString('base64'), NOTIFY_ALLOW_PRIVATE_ADDRESSES: '1' },
    { worker: false },
  );
});
afterAll(() => stack.close());

it('seals every app verification, connection signing secret, URL token and channel secret with the new key, once', async () => {
  const secret = 'a-github-secret-of-some-length';
  const robot = await robotAtWork(stack.client, { template: {}, verification: { scheme: 'github', secret } });
  const connection = await stack.client.call('createConnection', {
    body: { provider: 'stripe', name: 'Payments', signingSecret: 'whsec_' + 'p'.repeat(32) },
  });
  const channel = await stack.client.call('createNotificationChannel', {
    body: { kind: 'webhook', url: 'http://127.0.0.1:9/' },
  });
  const stored = async () => ({
    app: (await stack.models.App.findById(robot.appId).lean())!.verificationSealed!,
    connection: (await stack.models.Connection.findById(connection.id).lean())!.signingSecretSealed!,
    token: (await stack.models.Robot.findById(robot.robotId).lean())!.trigger.tokenSealed!,
    channel: (await stack.models.NotificationChannel.findById(channel.id).lean())!.secretSealed!,
  });
  const sealedBefore = await stored();
  expect(() => decryptSecret([after], sealedBefore.app)).toThrow();

  const first = await resealSecrets(stack.models, [after, before]);
  expect(first).toMatchObject({ appVerifications: 1, connectionSecrets: 1, urlTokens: 1, channelSecrets: 1 });
  const sealedAfter = await stored();
  // The new key alone opens each, to what it was.
  expect(JSON.parse(decryptSecret([after], sealedAfter.app))).toMatchObject({ scheme: 'github', secret });
  expect(decryptSecret([after], sealedAfter.connection)).toBe('whsec_' + 'p'.repeat(32));
  expect(decryptSecret([after], sealedAfter.token)).toBe(robot.webhookUrl.split('/').pop());
  expect(decryptSecret([after], sealedAfter.channel)).toBe(channel.secret);
  // Again: nothing left to do.
  expect(await resealSecrets(stack.models, [after, before])).toEqual({
    appVerifications: 0,
    connectionSecrets: 0,
    urlTokens: 0,
    channelSecrets: 0,
  });
});
