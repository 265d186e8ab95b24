/**
 * Pipedrive as the tests play it. Pipedrive signs nothing: a webhook created with an HTTP Auth
 * username and password (`http_auth_user` / `http_auth_password` in its Webhooks API) sends them as
 * `Authorization: Basic base64(username:password)`. The body is a webhooks v2 event; its `meta.id`
 * is Pipedrive's id of the event (not signed: nothing is).
 */
import { basicFixture } from './basic';

const event = {
  data: { id: 42, title: 'Acme deal', value: 5000, currency: 'EUR', status: 'open', stage_id: 1, owner_id: 123 },
  previous: null,
  meta: {
    action: 'create',
    company_id: '1234567',
    correlation_id: '7d4f3b2a-1c0e-4b5a-9f8e-2d1c0b9a8f7e',
    entity_id: '42',
    entity: 'deal',
    id: '3f2e1d0c-9b8a-4765-8432-10fedcba9876',
    is_bulk_edit: false,
    timestamp: '2026-01-01T12:00:00.000Z',
    type: 'general',
    user_id: '123',
    version: '2.0',
    webhook_id: '2468',
    webhook_owner_id: '123',
    change_source: 'app',
    permitted_user_ids: ['123'],
    attempt: 1,
    host: 'acme.pipedrive.com',
  },
};
export const pipedriveSender = basicFixture({ name: 'pipedrive', username: 'pipedrive-hooks', event });
