/**
 * A webhook channel's notification is signed the Standard Webhooks way (src/domain/notifications.ts):
 * the `standardwebhooks` package, as a receiver would use it, verifies it with the channel's secret,
 * and refuses it under another secret or with its body changed.
 */
import { Webhook } from 'standardwebhooks';
import {
  newChannelSecret,
  notificationId,
  signedHeaders,
  webhookBody,
  type Notification,
} from '../../src/domain/notifications';

const notification: Notification = {
  id: notificationId('notify:iss_1:1764430000000', 'nch_1'),
  type: 'issue.opened',
  issue: {
    id: 'iss_1',
    workspaceId: 'default',
    robotId: 'r1',
    robotName: 'Orders',
    kind: 'refused',
    reason: 'signature',
    count: 3,
    firstSeen: '2026-11-29T17:00:00.000Z',
    lastSeen: '2026-11-29T17:00:02.000Z',
  },
  url: 'https://hooks.example.com/robots/r1',
};

it('makes a secret of whsec_ and 24 random bytes, a new one each time', () => {
  const secret = newChannelSecret();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
  expect(newChannelSecret()).not.toBe(secret);
});

it('signs so that standardwebhooks verifies it, and only with its secret and body', () => {
  const secret = newChannelSecret();
  const body = webhookBody(notification);
  const headers = signedHeaders(secret, notification.id, body, new Date());
  expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  expect(() => new Webhook(newChannelSecret()).verify(body, headers)).toThrow();
  expect(() => new Webhook(secret).verify(body.replace('"count":3', '"count":4'), headers)).toThrow();
});

it('keeps a notification id across retries of one channel, another for another channel or opening', () => {
  expect(notificationId('notify:iss_1:1', 'nch_1')).toBe(notificationId('notify:iss_1:1', 'nch_1'));
  expect(notificationId('notify:iss_1:1', 'nch_2')).not.toBe(notificationId('notify:iss_1:1', 'nch_1'));
  expect(notificationId('notify:iss_1:2', 'nch_1')).not.toBe(notificationId('notify:iss_1:1', 'nch_1'));
});

it("sends the issue with its robot's page and never its workspace's id", () => {
  const sent = JSON.parse(webhookBody(notification)) as { type: string; issue: Record<string, unknown> };
  expect(sent.type).toBe('issue.opened');
  expect(sent.issue).toMatchObject({ id: 'iss_1', robotName: 'Orders', count: 3, url: notification.url });
  expect(sent.issue).not.toHaveProperty('workspaceId');
});
