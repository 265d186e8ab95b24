/**
 * Fields seen (GET /api/robots/:id/fields; src/domain/fields.ts, src/history/fields.ts): what a
 * robot's recent deliveries carried, captured by the worker as it parses them, read over the API.
 */
import { newId } from '../src/domain/secrets';
import { fieldsOf } from '../src/domain/fields';
import { FIELDS_DELIVERIES } from '../src/domain/limits';
import { DeliveryRecorder } from '../src/history/slots';
import { deliveryRecordOf } from './support/delivery-record';
import type { RobotFieldsAnswer } from '../src/contract/answers';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const fieldsOfRobot = async (robotId: string): Promise<RobotFieldsAnswer> => {
  const res = await stack.api('GET', `/api/robots/${robotId}/fields`);
  expect(res.status).toBe(200);
  return res.body as RobotFieldsAnswer;
};
const fieldsWhen = (robotId: string, deliveries: number) =>
  waitFor(
    () => fieldsOfRobot(robotId),
    (f) => f.deliveries === deliveries,
  );

it('lists the paths of every delivery, with types, the newest example and in how many each appeared', async () => {
  const robot = await stack.robotAtWork();
  const bodies = [
    { customer: { email: 'old@example.com' }, items: [{ sku: 'A-1' }] },
    { customer: { email: 'new@example.com', id: 7 }, items: [], password: 'hunter22hunter22' },
  ];
  // One after the other in the log: the newest example is the second's.
  for (const [i, body] of bodies.entries()) {
    expect((await stack.send('POST', robot.webhookUrl, JSON.stringify(body))).status).toBe(200);
    await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length === i + 1,
    );
  }
  // Not parsed, so no fields: an unparsable body is left out (and does not count).
  expect((await stack.send('POST', robot.webhookUrl, '{not json')).status).toBe(200);
  await waitFor(
    () => stack.deliveries(robot.robotId),
    (d) => d.length === 3,
  );
  const { deliveries, truncated, fields } = await fieldsWhen(robot.robotId, 2);
  expect({ deliveries, truncated }).toEqual({ deliveries: 2, truncated: false });
  const byPath = Object.fromEntries(fields.map((f) => [f.path, f]));
  expect(byPath['customer.email']).toEqual({
    path: 'customer.email',
    placeholder: '{{trigger.customer.email}}',
    parent: 'customer',
    types: ['string'],
    example: 'new@example.com',
    seenIn: 2,
  });
  expect(byPath['customer.id']).toMatchObject({ types: ['number'], example: '7', seenIn: 1 });
  expect(byPath['items[0].sku']).toMatchObject({ parent: 'items[0]', example: 'A-1', seenIn: 1 });
  expect(byPath['items']).toMatchObject({ types: ['array'], seenIn: 2 });
  expect(byPath['password']).toMatchObject({ example: '[redacted]' });
  expect(JSON.stringify(fields)).not.toContain('hunter22');
});

it("lists a CSV's columns, from its rows", async () => {
  const robot = await stack.robotAtWork({ bodyFormat: 'csv' });
  expect((await stack.send('POST', robot.webhookUrl, 'email,plan\nann@x.io,pro\nbob@x.io,free\n')).status).toBe(200);
  const { fields } = await fieldsWhen(robot.robotId, 1);
  expect(fields.map((f) => [f.placeholder, f.example])).toEqual([
    ['{{trigger}}', null],
    ['{{trigger.email}}', 'ann@x.io'],
    ['{{trigger.plan}}', 'pro'],
  ]);
});

it(`reads only the last ${FIELDS_DELIVERIES} parsed deliveries`, async () => {
  const robot = await stack.robotAtWork();
  const recorder = new DeliveryRecorder(stack.models);
  const record = (n: number) =>
    deliveryRecordOf(robot.robotId, {
      receivedAt: new Date(Date.now() + n),
      // The first 10 carry a path the later ones do not.
      fieldsJson: JSON.stringify(fieldsOf([n < 10 ? { old: n } : { n }])),
    });
  for (let n = 0; n < FIELDS_DELIVERIES + 10; n++) await recorder.record(record(n));
  await waitFor(
    () => stack.api('GET', `/api/robots/${robot.robotId}`).then((r) => r.body.deliveryCounts.dropped as number),
    (n) => n === FIELDS_DELIVERIES + 10,
  );
  const { deliveries, fields } = await fieldsOfRobot(robot.robotId);
  expect(deliveries).toBe(FIELDS_DELIVERIES);
  expect(fields.map((f) => [f.path, f.seenIn])).toEqual([
    ['', FIELDS_DELIVERIES],
    ['n', FIELDS_DELIVERIES],
  ]);
});

it('answers 404 for a robot that does not exist, and an empty list for one without deliveries', async () => {
  expect((await stack.api('GET', `/api/robots/${newId()}/fields`)).status).toBe(404);
  const robot = await stack.robotAtWork();
  expect(await fieldsOfRobot(robot.robotId)).toEqual({ deliveries: 0, truncated: false, fields: [] });
});
