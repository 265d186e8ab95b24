/**
 * The management API's notification channels (docs/notifications.md), declared as ./management.ts
 * declares the others, which gathers them (and gives each its operationId). Editors make, test and
 * delete channels, as they make robots; viewers list them. Types-only imports: the dashboard's bundle
 * takes it whole.
 */
import type { OperationDeclaration } from './operation';

export const NOTIFICATION_OPERATIONS = {
  createNotificationChannel: {
    method: 'post',
    path: '/api/notification-channels',
    summary:
      "Add a channel the workspace's issues are notified to: a webhook (signed: its secret is in this answer " +
      'only), a Slack incoming webhook or an email address',
    access: 'editor',
    audit: 'channel.create',
    body: 'CreateNotificationChannel',
    answers: { 201: 'CreatedNotificationChannel', 400: 'Error', 409: 'Error' },
  },
  listNotificationChannels: {
    method: 'get',
    path: '/api/notification-channels',
    summary: "The workspace's notification channels, oldest first, each with how its last notifications went",
    access: 'viewer',
    query: 'Page',
    items: 'channels',
    answers: { 200: 'NotificationChannels', 400: 'Error' },
  },
  deleteNotificationChannel: {
    method: 'delete',
    path: '/api/notification-channels/:id',
    names: 'channel',
    summary: 'Remove a notification channel (a notification under way to it is skipped)',
    access: 'editor',
    audit: 'channel.delete',
    answers: { 200: 'NotificationChannel', 404: 'Error' },
  },
  testNotificationChannel: {
    method: 'post',
    path: '/api/notification-channels/:id/test',
    names: 'channel',
    summary: 'Send the channel a test notification now (502 with the reason when it is not delivered)',
    access: 'editor',
    audit: 'channel.test',
    answers: { 200: 'TestedNotificationChannel', 404: 'Error', 502: 'Error' },
  },
} as const satisfies Record<string, OperationDeclaration>;
